import CSDL2
import LoaderCore
import LoaderSDL

/// Draws a scene at one instant onto a renderer: clear to the background, then every ring
/// through the chosen rasterizer. Keeps its buffers between frames.
final class FrameDrawer {
  let rasterizer: any RingRasterizer
  private(set) var rings: [SceneRing] = []
  private var instances: [RingInstance] = []
  private var shape: DashedRing?
  private var shapeScale = 0.0

  init(rasterizer: any RingRasterizer) {
    self.rasterizer = rasterizer
  }

  /// Draws `scene` at `t` in a container of `width` x `height` points at `scale` pixels per
  /// point; `rings` then holds what was drawn, in points.
  func draw(
    _ scene: some DemoScene, at t: Double, width: Double, height: Double, scale: Double,
    on renderer: OpaquePointer
  ) throws(SDLError) {
    scene.rings(at: t, width: width, height: height, into: &rings)
    if shape == nil || shapeScale != scale {
      shape = scene.ring.scaled(by: scale)
      shapeScale = scale
    }
    instances.removeAll(keepingCapacity: true)
    for r in rings {
      instances.append(
        RingInstance(
          centerX: Float(r.centerX * scale), centerY: Float(r.centerY * scale),
          angle: Float(r.angle.truncatingRemainder(dividingBy: 360)), color: r.color))
    }
    let bg = scene.background
    SDL_SetRenderDrawColor(renderer, bg.r, bg.g, bg.b, 255)
    SDL_RenderClear(renderer)
    guard let shape else { return }
    try rasterizer.draw(instances, shape: shape, on: renderer)
  }
}
