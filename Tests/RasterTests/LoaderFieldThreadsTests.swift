import CSwiftLoaderSDL2
import Foundation
import LoaderCore
import SwiftLoaderCanvas
import Testing

@testable import LoaderSDL

/// `LoaderField(threads:)` reaches both halves of the field's CPU work, and no thread count
/// changes a pixel.
@Suite struct LoaderFieldThreadsTests {
  static let frame = SDL_FRect(x: 0, y: 0, w: 640, h: 360)

  /// A grid of 400 loaders (2000 rings, past the span backend's threshold for bands on
  /// threads), drawn at one time by fields on 1, 2 and 5 threads.
  func render(threads: Int) throws -> (
    pixels: [UInt32], field: LoaderField, canvas: OffscreenCanvas
  ) {
    let field = try LoaderField(style: .seed, layout: .grid, backend: .spans, threads: threads)
    for i in 0..<400 { try field.addLoader(isAnimating: true, at: Double(i % 7) * 0.1) }
    let canvas = try OffscreenCanvas(width: Int(Self.frame.w), height: Int(Self.frame.h))
    canvas.clear(LoaderPalette.light.background)
    try field.draw(on: canvas.loaderRenderer, in: Self.frame, at: 1.37)
    canvas.flush()
    return (canvas.argbPixels(), field, canvas)
  }

  /// The threads the spans rasterizer was last given on `canvas`.
  func spanThreads(_ canvas: OffscreenCanvas) throws -> Int? {
    (try canvas.loaderRenderer.rasterizer(.spans) as? CoverageSpanRasterizer)?.threadsOfLastFrame
  }

  /// One setting reaches the engine and the blending, also when it changes after the first
  /// draw (the demo's `--threads 1` once set one and the backend read the other).
  @Test func threadsReachTheEngineAndTheSpanRasterizer() throws {
    for threads in [1, 2, 5] {
      let (_, field, canvas) = try render(threads: threads)
      #expect(field.threads == threads)
      #expect(field.engine.threadCount == threads)
      #expect(try spanThreads(canvas) == threads)
    }
    let (_, field, canvas) = try render(threads: 1)
    try field.setThreads(3)
    #expect(field.engine.threadCount == 3)
    try field.draw(on: canvas.loaderRenderer, in: Self.frame, at: 1.5)
    #expect(try spanThreads(canvas) == 3)
  }

  /// Pieces of `work`'s pool calls that ran on another thread than this one: `work` is run
  /// at least `tries` times and for up to `seconds`, until some did. A worker woken late may
  /// find every piece taken, and while another test's call holds the shared pool (one call
  /// at a time: a mask build of a churning scene on 2 threads holds it for most of a debug
  /// frame) this thread's calls run all their pieces themselves.
  static func piecesRunElsewhere(
    tries: Int = 10, seconds: Double = 60, _ work: () throws -> Void
  ) throws -> Int {
    let start = DispatchTime.now().uptimeNanoseconds
    var attempt = 0
    while attempt < tries
      || Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9 < seconds
    {
      attempt += 1
      let pieces = try WorkerPool.countingPiecesRunElsewhere { try work() }.pieces
      if pieces > 0 { return pieces }
    }
    return 0
  }

  /// Two threads really share the work, which equal pixels cannot tell from one thread doing
  /// it all: at `threads: 2` the pool's other thread runs pieces of the engine's passes
  /// (70,000 rings, past `minimumRingsPerThread` twice) and of the spans blending (2000 rings);
  /// at `threads: 1`, none.
  @Test(.enabled(if: RotationEngine.availableCores > 1, "one core: no second thread to see"))
  func twoThreadsBothWork() throws {
    for threads in [1, 2] {
      let big = try LoaderField(style: .seed, layout: .grid, threads: threads)
      try big.addLoaders(14_000, isAnimating: true, at: 0)
      #expect(big.count * 5 >= 2 * RotationEngine.minimumRingsPerThread)
      var t = 0.0
      // One thread must show none, however long it is watched: watched 10 tries only.
      let seconds = threads == 1 ? 0.0 : 60
      let engine = try Self.piecesRunElsewhere(seconds: seconds) {
        t += 0.05
        _ = try big.rings(in: SDL_FRect(x: 0, y: 0, w: 1920, h: 1080), at: t)
      }
      let spans = try Self.piecesRunElsewhere(seconds: seconds) { _ = try render(threads: threads) }
      if threads == 1 {
        #expect(engine == 0 && spans == 0, "1 thread, yet \(engine) + \(spans) pieces elsewhere")
      } else {
        #expect(engine > 0, "the engine's passes ran on one thread")
        #expect(spans > 0, "the spans blending ran on one thread")
      }
    }
  }

  @Test func defaultIsEveryCore() throws {
    let field = try LoaderField()
    #expect(field.threads == RotationEngine.availableCores)
    #expect(field.engine.threadCount == RotationEngine.availableCores)
  }

  @Test func everyThreadCountDrawsTheSameBytes() throws {
    let one = try render(threads: 1).pixels
    #expect(one.contains { $0 != one[0] }, "the frame shows rings")
    for threads in [2, 5] {
      #expect(try render(threads: threads).pixels == one, "\(threads) threads")
    }
  }

  @Test func aThreadCountOutsideItsRangeIsRefused() throws {
    #expect(throws: LoaderField.Error.self) { try LoaderField(threads: 0) }
    #expect(throws: LoaderField.Error.self) { try LoaderField(threads: 257) }
    let field = try LoaderField(threads: 2)
    for n in [0, 257, 100_000] {
      do {
        try field.setThreads(n)
        Issue.record("setThreads(\(n)) was accepted")
      } catch {
        #expect(error.description == "thread count must be 1...256, got \(n)")
        #expect(error.reason == .outOfRange)
      }
    }
    #expect(field.threads == 2)
    #expect(field.engine.threadCount == 2)
    try field.setThreads(LoaderField.maximumThreads)
    #expect(field.engine.threadCount == 256)
  }
}
