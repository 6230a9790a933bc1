import LoaderCore
import LoaderSDL
import SwiftLoaderCanvas
import Testing

@testable import SwiftLoaderBench

/// Whether this is an optimized build that counts allocations (`SteadyFrameAllocationTests`).
private let countsReleaseAllocations: Bool = {
  #if DEBUG
    false
  #else
    AllocationCounter.isCounting
  #endif
}()

/// A frame whose masks and atlas cells are all built allocates nothing on the way from
/// `LoaderField.draw` to the backend: the shape store finds each shape by its handle, the frame
/// builder and the backends reuse their buffers. Counted by the bench's allocation counter,
/// which this test target links. Release builds only (`swift test -c release --filter
/// SteadyFrameAllocationTests`): a debug build allocates in unspecialized generic code, and a
/// sanitizer build counts nothing; both skip, saying so. The bench's `allocs/frame` notes show
/// the same in every run. Serialized: the counter is the whole process's.
@Suite(.serialized, .enabled(if: countsReleaseAllocations, "release builds only"))
struct SteadyFrameAllocationTests {

  /// Draws `field` at one time until its caches are built, then counts the allocations of
  /// `draws` more draws at that time.
  static func allocations(
    _ field: LoaderField, on canvas: OffscreenCanvas, in frame: SDL_FRect, draws: Int = 20
  ) throws -> UInt64 {
    for _ in 0..<3 { try field.draw(on: canvas.loaderRenderer, in: frame, at: 0.4) }
    let before = AllocationCounter.count
    for _ in 0..<draws { try field.draw(on: canvas.loaderRenderer, in: frame, at: 0.4) }
    return AllocationCounter.count - before
  }

  @Test(
    // Not `gpu` here: it needs OpenGL, and Mesa's llvmpipe allocates inside the GL driver,
    // once a ring instance (the bench's `frame/gpu` counts them).
    arguments: [RingBackend.spans, .gfx])
  func aGridFrameAllocatesNothing(backend: RingBackend) throws {
    let canvas = try OffscreenCanvas(width: 640, height: 360)
    let field = try LoaderField(layout: .grid, backend: backend)
    try field.addLoaders(40, isAnimating: true, at: 0)
    let count = try Self.allocations(
      field, on: canvas, in: SDL_FRect(x: 0, y: 0, w: 640, h: 360))
    #expect(count == 0, "\(backend): \(count) allocations in 20 frames")
  }

  @Test func freelyPlacedLoadersOfManySizesAllocateNothing() throws {
    let canvas = try OffscreenCanvas(width: 640, height: 360)
    let field = try LoaderField(layout: .free, backend: .spans)
    for i in 0..<60 {
      let h = 10 + Float(i % 12) * 3
      try field.addLoader(
        isAnimating: true, at: 0,
        frame: SDL_FRect(x: Float(i % 6) * 100, y: Float(i / 6) * 34, w: h * 5.8, h: h))
    }
    let count = try Self.allocations(
      field, on: canvas, in: SDL_FRect(x: 0, y: 0, w: 640, h: 360))
    #expect(count == 0, "\(count) allocations in 20 frames")
  }

  @Test func aBufferFrameAllocatesNothing() throws {
    let field = try LoaderField(layout: .grid)
    try field.addLoaders(40, isAnimating: true, at: 0)
    var words = [UInt32](repeating: 0xFFFF_FFFF, count: 640 * 360)
    func draw() throws {
      _ = try words.withUnsafeMutableBytes { raw in
        try field.draw(
          into: PixelBuffer(
            base: raw.baseAddress, width: 640, height: 360, bytesPerRow: 640 * 4,
            format: .rgbaStraight),
          in: SDL_FRect(x: 0, y: 0, w: 640, h: 360), at: 0.4)
      }
    }
    for _ in 0..<3 { try draw() }
    let before = AllocationCounter.count
    for _ in 0..<20 { try draw() }
    let count = AllocationCounter.count - before
    #expect(count == 0, "\(count) allocations in 20 frames")
  }
}
