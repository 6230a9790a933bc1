import CSDL2
import LoaderCore
import LoaderSDL

/// A failure while drawing a frame: the engine refused a time, or an SDL call failed.
struct DrawFailure: Error, CustomStringConvertible {
  var description: String
}

/// Draws a scene at one instant onto a renderer: clear to the background, then every ring
/// through the current rasterizer. Keeps its buffers between frames.
final class FrameDrawer {
  private(set) var rasterizer: any RingRasterizer
  private var angles: [Float] = []
  private var instances: [RingInstance] = []
  private var shape: DashedRing?
  private var shapeScale = 0.0

  init(rasterizer: any RingRasterizer) {
    self.rasterizer = rasterizer
  }

  /// Swaps in another backend (already built, so the next frame is drawn by it).
  func replaceRasterizer(with next: any RingRasterizer) {
    rasterizer = next
  }

  /// Draws `scene` at `t` (in its engine's `presentableTimes`) laid out by `layout` at
  /// `scale` pixels per point.
  func draw(
    _ scene: LoaderScene, at t: Double, layout: SceneLayout, scale: Double,
    on renderer: OpaquePointer
  ) throws(DrawFailure) {
    do {
      try scene.engine.presentationAngles(at: t, into: &angles)
    } catch {
      throw DrawFailure(description: error.description)
    }
    let total = layout.shapeScale * scale
    if shape == nil || shapeScale != total {
      shape = scene.ring.scaled(by: total)
      shapeScale = total
    }
    instances.removeAll(keepingCapacity: true)
    let offsets = layout.ringOffsets
    let colors = scene.ringColors
    for i in 0..<min(scene.count, layout.count) {
      let origin = layout.origin(ofLoader: i)
      let first = scene.firstRings[i]
      for r in offsets.indices {
        instances.append(
          RingInstance(
            centerX: Float((origin.x + offsets[r].x) * scale),
            centerY: Float((origin.y + offsets[r].y) * scale),
            angle: angles[first + r], color: colors[r]))
      }
    }
    let bg = scene.background
    SDL_SetRenderDrawColor(renderer, bg.r, bg.g, bg.b, 255)
    SDL_RenderClear(renderer)
    guard let shape else { return }
    do {
      try rasterizer.draw(instances, shape: shape, on: renderer)
    } catch {
      throw DrawFailure(description: error.description)
    }
  }
}
