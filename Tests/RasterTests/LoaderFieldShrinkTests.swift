import CSwiftLoaderSDL2
import LoaderCore
import SwiftLoaderCanvas
import Testing

@testable import LoaderSDL

/// A field shrunk from many loaders to one holds what one needs (issue 11: the demo's grid
/// shrunk from a million to one kept 1.7 GB) and draws exactly what a field that only ever
/// had that one loader draws.
@Suite struct LoaderFieldShrinkTests {
  static let frame = SDL_FRect(x: 0, y: 0, w: 320, h: 200)

  func draw(_ field: LoaderField, on canvas: OffscreenCanvas, at t: Double) throws -> [UInt32] {
    canvas.clear(LoaderPalette.light.background)
    try field.draw(on: canvas.loaderRenderer, in: Self.frame, at: t)
    canvas.flush()
    return canvas.argbPixels()
  }

  @Test func aShrunkGridDrawsAndHoldsWhatItsLoadersNeed() throws {
    let canvas = try OffscreenCanvas(width: Int(Self.frame.w), height: Int(Self.frame.h))
    let field = try LoaderField(style: .seed, layout: .grid, backend: .spans, threads: 1)
    try field.addLoaders(50_000, isAnimating: true, at: 0)
    _ = try draw(field, on: canvas, at: 1)
    let peak = field.engine.storageBytes
    while field.count > 1, let last = field.loaders.last { try field.remove(last) }
    let shrunk = try draw(field, on: canvas, at: 2.3)

    let alone = try LoaderField(style: .seed, layout: .grid, backend: .spans, threads: 1)
    try alone.addLoader(isAnimating: true, at: 0)
    _ = try draw(alone, on: canvas, at: 1)
    let expected = try draw(alone, on: canvas, at: 2.3)
    #expect(shrunk == expected)
    #expect(expected.contains { $0 != expected[0] }, "the frame shows rings")

    #expect(peak > 50_000 * 200, "peak engine storage \(peak) bytes")
    #expect(field.engine.storageBytes < 100_000, "\(field.engine.storageBytes) bytes")
    #expect(field.engine.ringSlotCount == 5)
    #expect(
      field.frameRings.instances.capacity < 1 << 14,
      "instances hold \(field.frameRings.instances.capacity)")
  }
}
