import LoaderCore
import LoaderSDL
import Testing

/// `spans`' budget over every shape's masks (`totalBudgetBytes`): past it, masks of shapes the
/// draw does not use go, least recently drawn first; the masks of the shapes a draw uses stay
/// (each bounded by the per-shape budget), so a frame over the total is not rebuilt every draw.
@Suite struct SpanBudgetTests {
  static let seed = DashedRing(style: .seed)
  static let ring = [
    RingInstance(centerX: 60, centerY: 60, angle: 30, color: RGBAColor(hex: 0xFF3B30))
  ]

  /// A total budget smaller than one shape's key tables: drawing that shape again and again
  /// forgets nothing (before, every draw forgot its masks and built them anew).
  @Test func theShapesOfTheDrawKeepTheirMasks() throws {
    let canvas = try OffscreenCanvas(width: 120, height: 120)
    let backend = CoverageSpanRasterizer(totalBudgetBytes: 1)
    backend.attach(surface: canvas.surface)
    for _ in 0..<4 {
      try backend.draw(Self.ring, shape: Self.seed, on: canvas.renderer)
    }
    #expect(backend.forgottenMaskBytes == 0)
    #expect(backend.cachedBytes > 0)
  }

  /// Over the total, a held shape the draw does not use loses its masks.
  @Test func aShapeTheDrawDoesNotUseLosesItsMasks() throws {
    let canvas = try OffscreenCanvas(width: 120, height: 120)
    let backend = CoverageSpanRasterizer(totalBudgetBytes: 1)
    backend.attach(surface: canvas.surface)
    let other = Self.seed.scaled(by: 1.5)
    backend.retain(shape: Self.seed)
    defer { backend.release(shape: Self.seed) }
    try backend.draw(Self.ring, shape: Self.seed, on: canvas.renderer)
    #expect(backend.forgottenMaskBytes == 0)
    try backend.draw(Self.ring, shape: other, on: canvas.renderer)
    #expect(backend.forgottenMaskBytes > 0)
  }
}
