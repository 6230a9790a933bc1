import Foundation
import LoaderCore
import SwiftLoaderCanvas
import SwiftLoaderTestSupport
import Testing

@testable import LoaderSDL

/// What the backends do with shapes and scenes at the edges of what they take: an error
/// naming the backend for a shape they cannot draw (never a trap), large rings drawn, and
/// memory that does not follow the ring count.
@Suite struct RasterLimitTests {
  /// Every shipped backend that runs on the canvas's renderer (`gpu` on OpenGL only) through
  /// its `LoaderRenderer`, and the SDL2_gfx painter behind `gfx`'s atlas, each as its name and
  /// a draw of one shape.
  static func backends(on canvas: OffscreenCanvas) -> [(
    name: String, draw: ([RingInstance], DashedRing) throws(SDLError) -> Void
  )] {
    RingBackend.allCases.filter { $0 != .gpu || canvas.isOpenGL }.map { backend in
      let r = backend.makeRasterizer()
      return (
        r.name,
        { (rings, shape) throws(SDLError) in
          try canvas.loaderRenderer.draw(rings, shape: shape, with: r)
        }
      )
    } + [
      (
        "gfx-direct",
        { (rings, shape) throws(SDLError) in
          try GfxRingPainter().draw(rings, shape: shape, on: canvas.renderer)
        }
      )
    ]
  }

  @Test func badShapesAreRefusedWithAnError() throws {
    let canvas = try OffscreenCanvas(width: 64, height: 64)
    let ring = RingInstance(centerX: 32, centerY: 32, angle: 0, color: RGBAColor(hex: 0xFF3B30))
    let seed = DashedRing(style: .seed)
    let shapes: [(DashedRing, String)] = [
      (DashedRing(radius: .infinity, halfWidth: 2, cap: .round, dashes: seed.dashes), "not finite"),
      (DashedRing(radius: 23, halfWidth: .nan, cap: .butt, dashes: seed.dashes), "not finite"),
      (DashedRing(radius: -23, halfWidth: 2, cap: .round, dashes: seed.dashes), "negative"),
      (seed.scaled(by: 1e6), "exceeds the"),
    ]
    for backend in Self.backends(on: canvas) {
      for (shape, words) in shapes {
        do {
          try backend.draw([ring], shape)
          Issue.record("\(backend.name) drew radius \(shape.radius)")
        } catch {
          #expect(error.description.contains(words), "\(backend.name): \(error)")
          #expect(error.description.contains(backend.name), "\(backend.name): \(error)")
        }
      }
      // `demo --size 1x1 --zoom 16384`: past the spans backend's memory limit and the gfx
      // atlas's reach; the others draw it (clipped to the target).
      let limits = [
        "spans": "limit of 2048 px", "gfx": "limit of 1024 px", "gpu": "limit of 65536 px",
      ]
      do {
        try backend.draw([ring], seed.scaled(by: 16384))
        #expect(limits[backend.name] == nil, "\(backend.name) drew a 376832 px ring")
      } catch {
        let words = limits[backend.name]
        #expect(words.map { error.description.contains($0) } == true, "\(error)")
      }
      // Nothing to draw is no error.
      try backend.draw([ring], seed.scaled(by: 0))
    }
  }

  /// A ring whose mask holds more chunks than 16 bits count (density 23: 575 px) is drawn.
  @Test func aLargeRingIsDrawn() throws {
    let shape = DashedRing(style: .seed).scaled(by: 23)
    let side = 1200
    let canvas = try OffscreenCanvas(width: side, height: side)
    let color = RGBAColor(hex: 0x007AFF)
    canvas.clear(RGBAColor(hex: 0xFFFFFF))
    try canvas.loaderRenderer.draw(
      [RingInstance(centerX: 600, centerY: 600, angle: 0, color: color)], shape: shape,
      with: CoverageSpanRasterizer())
    let pixels = canvas.argbPixels()
    func at(angle: Double) -> UInt32 {
      let x = Int(600 + shape.radius * cos(angle))
      let y = Int(600 + shape.radius * sin(angle))
      return pixels[y * side + x] & 0xFF_FFFF
    }
    #expect(at(angle: 1 / 23) == 0x007AFF, "inside the first dash")
    #expect(at(angle: 21 / 23) == 0xFFFFFF, "the middle of the first 6-long gap")
  }
}
