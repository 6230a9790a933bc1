import LoaderCore
import LoaderSDL
import SwiftLoaderCairoReference
import SwiftLoaderSupport

/// What a row drawn under a `HostRenderStateCase` must look like: Cairo's rings at the place
/// the state maps the frame to, crisp at its density, and nothing but background elsewhere.
package struct HostDrawingCheck {
  package let state: HostRenderStateCase
  /// The Cairo reference scene: the row's rings at their expected pixel centres.
  package let scene: RasterScene
  package let reference: [UInt32]

  package init(_ state: HostRenderStateCase) throws {
    self.state = state
    let m = state.mapping
    let f = state.frame
    let timeline = LoaderTimeline(style: .seed, animatingFrom: 0)
    let angles = timeline.angles(at: HostRenderStateCase.time)
    let frames = RowLayout.frames(width: Double(f.w), height: Double(f.h))
    let rings = frames.enumerated().map { i, r in
      RingInstance(
        centerX: Float(m.originX + (Double(f.x) + r.midX) * m.scale),
        centerY: Float(m.originY + (Double(f.y) + r.midY) * m.scale), angle: Float(angles[i]),
        color: LoaderPalette.light.ringColors[i])
    }
    scene = RasterScene(
      width: HostRenderStateCase.canvasWidth, height: HostRenderStateCase.canvasHeight,
      density: m.scale, palette: .light, rings: rings)
    reference = try scene.renderCairo()
  }

  /// Every problem with `pixels` (`0xAARRGGBB` rows of the whole target), one line each: a
  /// visible ring under 30 dB against Cairo, a cut ring that shows, or ink off the rings.
  package func problems(in pixels: [UInt32]) -> [String] {
    var found: [String] = []
    let w = scene.width
    let white: UInt32 = 0xFF_FFFF
    for i in scene.rings.indices {
      let crop = scene.crop(ofRing: i)
      if state.visibleRings.contains(i) {
        let db = ImageComparison.psnr(pixels, reference, width: w, rect: crop)
        if db < 30 { found.append("ring \(i): \(String(format: "%.1f", db)) dB against Cairo") }
      }
    }
    // Nothing but background off the visible rings (their crops grown by 2 pixels).
    let boxes = scene.rings.indices.filter { state.visibleRings.contains($0) }.map {
      scene.crop(ofRing: $0)
    }
    var stray = 0
    for y in 0..<scene.height {
      for x in 0..<w where pixels[y * w + x] & white != white {
        let inside = boxes.contains {
          x >= $0.x - 2 && x < $0.x + $0.width + 2 && y >= $0.y - 2 && y < $0.y + $0.height + 2
        }
        if !inside { stray += 1 }
      }
    }
    if stray > 0 { found.append("\(stray) pixels inked off the rings") }
    return found
  }
}
