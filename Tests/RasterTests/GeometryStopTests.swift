import CSwiftLoaderSDL2
import LoaderCore
import SwiftLoaderCanvas
import SwiftLoaderTestSupport
import Testing

@testable import LoaderSDL

/// A slow frame can be abandoned: the geometry and gfx backends ask between batches whether to stop,
/// and `LoaderField.draw` passes the answer on (the window asks "is input waiting?").
@Suite struct GeometryStopTests {
  /// 400 seed rings in a row on a white canvas, drawn in batches of 4096 vertices.
  static func rings() -> [RingInstance] {
    (0..<400).map { i in
      RingInstance(
        centerX: Float(30 + (i % 20) * 60), centerY: Float(30 + (i / 20) * 60),
        angle: Float(i), color: LoaderPalette.light.ringColors[i % 5])
    }
  }

  static let white = RGBAColor(r: 255, g: 255, b: 255)

  static func inkedPixels(_ canvas: OffscreenCanvas) -> Int {
    canvas.argbPixels().count { $0 & 0xFF_FFFF != 0xFF_FFFF }
  }

  @Test func aDrawStopsAtTheFirstBatchBoundaryAfterTheAnswerTurnsYes() throws {
    let shape = DashedRing(style: .seed)
    let rings = Self.rings()
    let whole = try OffscreenCanvas(width: 1200, height: 1200)
    whole.clear(Self.white)
    let all = GeometryRingRasterizer(maximumSagitta: 0.05, batchVertices: 4096)
    var asked = 0
    let finished = try rings.withUnsafeBufferPointer { buf in
      try whole.loaderRenderer.draw(buf, shape: shape, with: all) {
        asked += 1
        return false
      }
    }
    #expect(finished)
    #expect(asked > 3, "a batch of 4096 vertices holds a few seed rings, not 400")
    whole.flush()

    let part = try OffscreenCanvas(width: 1200, height: 1200)
    part.clear(Self.white)
    let stopping = GeometryRingRasterizer(maximumSagitta: 0.05, batchVertices: 4096)
    var questions = 0
    let completed = try rings.withUnsafeBufferPointer { buf in
      try part.loaderRenderer.draw(buf, shape: shape, with: stopping) {
        questions += 1
        return questions == 2
      }
    }
    part.flush()
    #expect(!completed)
    #expect(questions == 2, "no question after the answer was yes")
    let drawn = Self.inkedPixels(part)
    #expect(drawn > 0, "the first two batches are on the canvas")
    #expect(drawn * 3 < Self.inkedPixels(whole), "most rings were never drawn")
  }

  @Test func theFieldPassesTheQuestionOnAndReportsAnAbandonedFrame() throws {
    let canvas = try OffscreenCanvas(width: 640, height: 360)
    let field = try LoaderField(style: .seed, layout: .grid, backend: .geometry)
    try field.addLoaders(300, isAnimating: true, at: 0)
    let frame = SDL_FRect(x: 0, y: 0, w: 640, h: 360)
    var asked = 0
    let whole = try field.draw(on: canvas.loaderRenderer, in: frame, at: 0.1) {
      asked += 1
      return false
    }
    #expect(whole)
    #expect(asked > 0, "300 loaders take more than one batch")
    #expect(try field.draw(on: canvas.loaderRenderer, in: frame, at: 0.2) { true } == false)
  }

  /// The gfx backend flushes its copies in bounded batches (so a batching renderer's queue
  /// stays bounded) and asks between them: small batches draw the same pixels, and a yes
  /// stops the frame at the next boundary.
  @Test func gfxDrawsInBatchesThatCanStop() throws {
    let shape = DashedRing(style: .seed)
    let rings = Self.rings()
    func render(batch: Int, stopAt: Int?) throws -> (pixels: [UInt32], done: Bool, asked: Int) {
      let canvas = try OffscreenCanvas(width: 1200, height: 1200)
      canvas.clear(Self.white)
      let gfx = GfxRingRasterizer(subpixelSteps: 4, batchCopies: batch)
      var asked = 0
      let done = try rings.withUnsafeBufferPointer { buf in
        try canvas.loaderRenderer.draw(buf, shape: shape, with: gfx) {
          asked += 1
          return asked == stopAt
        }
      }
      canvas.flush()
      return (canvas.argbPixels(), done, asked)
    }
    let whole = try render(batch: 1 << 14, stopAt: nil)
    let small = try render(batch: 64, stopAt: nil)
    #expect(whole.done && small.done)
    #expect(small.asked > 10, "400 rings take many batches of 64 copies")
    #expect(small.pixels == whole.pixels)
    let part = try render(batch: 64, stopAt: 2)
    #expect(!part.done && part.asked == 2)
    let inked = { (p: [UInt32]) in p.count { $0 & 0xFF_FFFF != 0xFF_FFFF } }
    #expect(inked(part.pixels) > 0 && inked(part.pixels) * 3 < inked(whole.pixels))
  }

  /// A backend that draws in one piece (`spans`) never asks whether to stop: it draws every
  /// ring and says so.
  @Test func spansDrawsEverything() throws {
    let canvas = try OffscreenCanvas(width: 640, height: 360)
    let field = try LoaderField(style: .seed, layout: .grid, backend: .spans)
    try field.addLoaders(50, isAnimating: true, at: 0)
    let frame = SDL_FRect(x: 0, y: 0, w: 640, h: 360)
    #expect(try field.draw(on: canvas.loaderRenderer, in: frame, at: 0.1) { true })
  }
}
