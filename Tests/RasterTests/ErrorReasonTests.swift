import CSwiftLoaderSDL2
import LoaderCore
import LoaderPixels
import SwiftLoaderCanvas
import Testing

@testable import LoaderSDL

/// `LoaderField.Error.reason`: every public refusal reaches the caller with the kind of thing
/// that was wrong, through the public API, and every reason is reached by one of them.
@Suite struct ErrorReasonTests {
  static let row = LoaderRect(x: 0, y: 0, width: 390, height: 120)

  /// Runs `call`, which must throw a `LoaderField.Error`, and returns it.
  func refusal(_ what: String, _ call: () throws -> Void) -> LoaderField.Error? {
    do {
      try call()
      Issue.record("\(what) was accepted")
    } catch let e as LoaderField.Error {
      return e
    } catch {
      Issue.record("\(what) threw \(type(of: error)), not LoaderField.Error: \(error)")
    }
    return nil
  }

  /// A 2x2 premultiplied buffer over `words`.
  func buffer(_ words: UnsafeMutableRawBufferPointer, base: Bool = true) -> PixelBuffer {
    PixelBuffer(
      base: base ? words.baseAddress : nil, width: 2, height: 2, bytesPerRow: 8,
      format: .bgraPremultiplied, density: 1)
  }

  @Test func everyReasonIsReachedThroughThePublicAPI() throws {
    let canvas = try OffscreenCanvas(width: 390, height: 120)
    var words = [UInt32](repeating: 0, count: 390 * 120)
    var reached: [LoaderField.Error.Reason: [String]] = [:]
    func expect(
      _ reason: LoaderField.Error.Reason, _ what: String, _ has: String? = nil,
      _ call: () throws -> Void
    ) {
      guard let e = refusal(what, call) else { return }
      #expect(e.reason == reason, "\(what): \(e.reason), \(e)")
      if let has { #expect(e.description.contains(has), "\(what): \(e)") }
      reached[e.reason, default: []].append(what)
    }

    let closed = LoaderRenderer(canvas.renderer)
    closed.close()
    expect(.closed, "a draw on a closed renderer", "closed") {
      try LoaderView(isAnimating: true).draw(on: closed, in: SDL_FRect(Self.row), at: 0)
    }
    let view = LoaderView(isAnimating: true)
    try view.draw(on: canvas.loaderRenderer, in: SDL_FRect(Self.row), at: 1)
    expect(.time, "a time before the past", "past") {
      try view.draw(on: canvas.loaderRenderer, in: SDL_FRect(Self.row), at: 0.5)
    }
    expect(.time, "a time that is not finite") { try view.setSpeed(1, at: .infinity) }
    expect(.frame, "a container of no width", "0.0x120.0") {
      try view.draw(on: canvas.loaderRenderer, in: SDL_FRect(x: 0, y: 0, w: 0, h: 120), at: 2)
    }
    expect(.frame, "a render scale of 0", "scale") {
      SDL_RenderSetScale(canvas.renderer, 0, 0)
      defer { SDL_RenderSetScale(canvas.renderer, 1, 1) }
      try view.draw(on: canvas.loaderRenderer, in: SDL_FRect(Self.row), at: 2)
    }
    words.withUnsafeMutableBytes { raw in
      expect(.buffer, "a null buffer", "null") {
        try view.draw(into: buffer(raw, base: false), in: Self.row, at: 2)
      }
    }
    let field = try LoaderField(layout: .free)
    let id = try field.addLoader(isAnimating: true, at: 0)
    try field.remove(id)
    expect(.removedLoader, "a removed loader's handle") { try field.setOpacity(1, of: id) }
    expect(.outOfRange, "speed 0", "speed") { try view.setSpeed(0, at: 2) }
    expect(.outOfRange, "opacity 2", "opacity") {
      try field.setOpacity(2, of: try field.addLoader(isAnimating: true, at: 0))
    }
    expect(.outOfRange, "0 threads", "thread") { try field.setThreads(0) }
    expect(.outOfRange, "a negative count of loaders", "-5") {
      try field.addLoaders(-5, isAnimating: true, at: 0)
    }
    expect(.tooLarge, "more loaders than a field holds", "16777216") {
      try field.addLoaders(Int.max, isAnimating: true, at: 0)
    }
    var huge = LoaderStyle.seed
    huge.frameSize = 10_000
    huge.lineWidth = 40
    expect(.tooLarge, "a ring past the spans backend's limit", "limit") {
      let big = try LoaderView(isAnimating: true, style: huge)
      _ = try words.withUnsafeMutableBytes { raw in
        try big.draw(into: buffer(raw), in: Self.row, at: 0)
      }
    }
    expect(
      .unsupported, "gpu asked for on SDL's software renderer",
      "gpu backend: needs SDL's opengl or opengles2 renderer; this one is \"software\""
    ) {
      let gpu = try LoaderView(isAnimating: true, style: .seed, backend: .gpu)
      try gpu.draw(on: canvas.loaderRenderer, in: SDL_FRect(Self.row), at: 0)
    }
    // An SDL call that fails cannot be provoked on demand: the one mapping, directly.
    expect(.backendFailed, "a failed SDL call", "SDL_CreateTexture failed: Out of memory") {
      throw LoaderField.Error.failed(SDLError("SDL_CreateTexture", message: "Out of memory"))
    }
    #expect(
      Set(reached.keys) == Set(LoaderField.Error.Reason.allCases),
      "reasons never reached: \(Set(LoaderField.Error.Reason.allCases).subtracting(reached.keys))")
  }

  /// The limits the documentation gives: `maximumCount` 2^24 for the seed, fewer for a style
  /// of many rings (its tables stop at 8 GiB, about 490 bytes a seed loader), and 256 threads
  /// (the demo's `--threads` limit too, read from the same constant).
  @Test func theLimitsAreTheDocumentedOnes() throws {
    #expect(try LoaderField().maximumCount == 1 << 24)
    #expect(LoaderField.maximumThreads == 256)
    let seedBytes = LoaderField.bytesPerLoader(ringCount: LoaderStyle.seed.ringCount)
    #expect((400...540).contains(seedBytes), "\(seedBytes) bytes a seed loader")
    #expect(LoaderField.maximumStorageBytes / seedBytes > 1 << 24, "the seed's cap is its own")
    var many = LoaderStyle.seed
    many.ringCount = 1024
    let manyLimit = try LoaderField(style: many).maximumCount
    #expect((120_000...160_000).contains(manyLimit), "\(manyLimit) loaders of 1,024 rings")
    // The count that passes it is refused before anything is reserved; the one below is taken.
    let field = try LoaderField(style: many, threads: 1)
    #expect(throws: LoaderField.Error.self) {
      try field.addLoaders(manyLimit + 1, isAnimating: true, at: 0)
    }
    #expect(throws: LoaderField.Error.self) {
      _ = try LoaderField(style: many, capacity: manyLimit + 1)
    }
    #expect(field.count == 0)
  }

  /// Times in errors read to the millisecond: the earliest time of the past (a step of 1/120 s
  /// back from the last drawn time) is no longer printed with 16 digits.
  @Test func timesInErrorsReadToTheMillisecond() throws {
    var words = [UInt32](repeating: 0, count: 4)
    let view = LoaderView(isAnimating: true)
    try words.withUnsafeMutableBytes { raw in
      try view.draw(into: buffer(raw), in: Self.row, at: 1)
      let e = refusal("a time before the past") {
        try view.draw(into: buffer(raw), in: Self.row, at: 0.5)
      }
      #expect(
        e?.description
          == "time 0.500 is before the loaders' past (the earliest time they can show is"
          + " 0.992); make a new one to go back")
    }
    #expect(millisecondText(1.0 / 120, rounding: .up) == "0.009")
    #expect(millisecondText(-1) == "-1.000")
    #expect(millisecondText(-0.0004) == "0.000")
    #expect(millisecondText(86_400.25) == "86400.250")
    #expect(millisecondText(1e300) == "1e+300")
    #expect(millisecondText(.infinity) == "inf")
  }

  /// A frame whose origin is not finite is refused naming the origin, not the size it has.
  @Test func aFrameOriginThatIsNotFiniteIsNamed() throws {
    let canvas = try OffscreenCanvas(width: 40, height: 40)
    var words = [UInt32](repeating: 0, count: 4)
    let view = LoaderView(isAnimating: true)
    for (x, y) in [(Float.nan, Float(0)), (0, -.infinity)] {
      let sdl = refusal("origin (\(x), \(y)) on a renderer") {
        try view.draw(on: canvas.loaderRenderer, in: SDL_FRect(x: x, y: y, w: 30, h: 30), at: 0)
      }
      let pixels = refusal("origin (\(x), \(y)) into a buffer") {
        _ = try words.withUnsafeMutableBytes { raw in
          try view.draw(
            into: buffer(raw), in: LoaderRect(x: x, y: y, width: 30, height: 30), at: 0)
        }
      }
      for e in [sdl, pixels] {
        #expect(e?.reason == .frame)
        #expect(e?.description == "frame must have a finite origin, got (\(x), \(y))")
      }
    }
  }

  /// A refusal and an SDL failure read differently; both keep the call's name.
  @Test func aRasterErrorKeepsItsReasonAndWording() {
    let refused = RasterError("spans backend", message: "too big", reason: .tooLarge)
    #expect(LoaderField.Error.failed(refused).reason == .tooLarge)
    #expect(LoaderField.Error.failed(refused).description == "spans backend: too big")
    let failed = SDLError("SDL_RenderCopy", message: "lost")
    #expect(failed.reason == .backendFailed)
    #expect(LoaderField.Error.failed(failed).description == "SDL_RenderCopy failed: lost")
  }
}
