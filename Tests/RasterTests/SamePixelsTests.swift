import CSwiftLoaderSDL2
import LoaderCore
import SwiftLoaderCanvas
import SwiftLoaderSupport
import Testing

@testable import LoaderPixels
@testable import LoaderSDL

/// SPEC, "The same scene, the same pixels": a draw's bytes are a function of the scene, its
/// time and the buffer, never of what the cache built before. Each scene is drawn at `time`
/// fresh (a new process's state: a new cache, a new field) and after a history of frames in a
/// cache that keeps everything, in a 1 MiB cache, after `purge()`, beside other fields in one
/// cache, and at 1 and 2 threads; every frame must equal the fresh one byte for byte.
@Suite struct SamePixelsTests {
  static let (width, height) = (480, 270)
  static let time = 12.0

  /// A scene: a way to make its field, and the frame it is drawn in.
  struct Scene: CustomStringConvertible, Sendable {
    var description: String
    var density: Double
    var frame = LoaderRect(x: 0, y: 0, width: 480, height: 270)
    /// Makes the field with `threads`; its loaders' frames, in order, for the history's moves.
    var make: @Sendable (_ threads: Int) throws -> LoaderField
  }

  /// The seed's `LoaderView` (its field: one loader in a row), at density 2.
  static let seed = Scene(
    description: "the seed view at density 2", density: 2,
    frame: LoaderRect(x: 10, y: 20, width: 290, height: 50)
  ) { threads in
    let field = try LoaderField(threads: threads)
    try field.addLoader(isAnimating: true, at: 0)
    return field
  }

  /// A `.free` field of loaders 8-60 pt tall (in points: `density` pixels each) at seeded places, some translucent.
  static func free(_ name: String, count: Int, density: Double, seed: UInt64) -> Scene {
    Scene(description: name, density: density) { threads in
      var rng = SplitMix64(seed: seed)
      let field = try LoaderField(layout: .free, threads: threads)
      let (w, h) = (Float(width) / Float(density), Float(height) / Float(density))
      for i in 0..<count {
        let tall = 8 + (min(60, w / 5) - 8) * Float(rng.nextUnit())
        let r = LoaderRect(
          x: Float(rng.nextUnit()) * (w - tall * 5), y: Float(rng.nextUnit()) * (h - tall),
          width: tall * 5, height: tall)
        let id = try field.addLoader(isAnimating: true, at: rng.nextUnit(), frame: r)
        if i % 4 == 0 {
          try field.setColors([RGBAColor(r: 30, g: UInt8(i * 5 % 256), b: 200, a: 160)], of: id)
        }
      }
      return field
    }
  }

  static let scenes = [
    seed,
    free("a free field in motion", count: 30, density: 1, seed: 42),
    free("many sizes at density 2", count: 16, density: 2, seed: 43),
  ]

  /// `field` at `t` into `pixels` (white, opaque) with `cache`.
  static func draw(
    _ field: LoaderField, _ scene: Scene, into pixels: inout [UInt32], at t: Double,
    _ cache: LoaderPixelCache
  ) throws {
    _ = try pixels.withUnsafeMutableBytes { raw in
      try field.draw(
        into: PixelBuffer(
          bytes: raw, width: width, height: height, format: .bgraPremultiplied,
          density: scene.density),
        in: scene.frame, at: t, cache: cache)
    }
  }

  /// The frame at `time`, on a white buffer, after `history` frames drawn with the same
  /// cache (each moving a tenth of the loaders by a sub-pixel amount, all put back before
  /// `time`), with `others` drawn into the same cache between frames, and `purge` called
  /// just before.
  static func frame(
    _ scene: Scene, cache: LoaderPixelCache, threads: Int = 2, history: Int = 0,
    others: Bool = false, purge: Bool = false
  ) throws -> [UInt32] {
    let field = try scene.make(threads)
    let other = try free("other", count: 6, density: 1.5, seed: 7).make(1)
    var pixels = [UInt32](repeating: 0xFFFF_FFFF, count: width * height)
    var rng = SplitMix64(seed: 9)
    let homes = try field.loaders.map { try field.frame(of: $0) }
    for k in 0..<history {
      let t = time - 8 + 8 * Double(k) / Double(history)
      if scene.frame.width == Float(width) {
        for (i, id) in field.loaders.enumerated() where (i + k) % 10 == 0 {
          var r = homes[i]
          r.x += Float(rng.nextUnit() - 0.5)
          r.y += Float(rng.nextUnit() - 0.5)
          try field.setFrame(r, of: id)
        }
      }
      try draw(field, scene, into: &pixels, at: t, cache)
      if others { try draw(other, scene, into: &pixels, at: t, cache) }
    }
    if scene.frame.width == Float(width) {
      for (i, id) in field.loaders.enumerated() { try field.setFrame(homes[i], of: id) }
    }
    if purge { cache.purge() }
    pixels = [UInt32](repeating: 0xFFFF_FFFF, count: width * height)
    try draw(field, scene, into: &pixels, at: time, cache)
    return pixels
  }

  /// Where two frames differ: how many pixels, and the first.
  static func difference(_ a: [UInt32], _ b: [UInt32]) -> String? {
    let off = zip(a, b).enumerated().filter { $0.element.0 != $0.element.1 }
    guard let first = off.first else { return nil }
    return "\(off.count) pixels differ, the first at (\(first.offset % width), "
      + "\(first.offset / width)): \(first.element.0) vs \(first.element.1)"
  }

  @Test(arguments: scenes)
  func aFrameIsTheSameWhateverCameBefore(_ scene: Scene) throws {
    let fresh = try Self.frame(scene, cache: LoaderPixelCache())
    #expect(fresh.contains { $0 != 0xFFFF_FFFF }, "the scene inks something")
    let cases: [(String, () throws -> [UInt32])] = [
      ("fresh at 1 thread", { try Self.frame(scene, cache: LoaderPixelCache(), threads: 1) }),
      ("after 60 frames", { try Self.frame(scene, cache: LoaderPixelCache(), history: 60) }),
      (
        "after 60 frames at 1 thread",
        { try Self.frame(scene, cache: LoaderPixelCache(), threads: 1, history: 60) }
      ),
      (
        "after 60 frames in 1 MiB",
        { try Self.frame(scene, cache: LoaderPixelCache(budgetBytes: 1 << 20), history: 60) }
      ),
      (
        "after 40 frames and purge()",
        { try Self.frame(scene, cache: LoaderPixelCache(), history: 40, purge: true) }
      ),
      (
        "after 40 frames beside another field",
        { try Self.frame(scene, cache: LoaderPixelCache(), history: 40, others: true) }
      ),
      (
        "after 40 frames beside another field in 1 MiB",
        {
          try Self.frame(
            scene, cache: LoaderPixelCache(budgetBytes: 1 << 20), history: 40, others: true)
        }
      ),
    ]
    for (name, make) in cases {
      let mine = try make()
      #expect(Self.difference(mine, fresh) == nil, "\(scene), \(name)")
    }
  }

  /// The same on an SDL software renderer with `spans` (`LoaderRenderer`): a fresh renderer
  /// and one that drew 60 frames of the field, in a 1 MiB budget, draw the same bytes.
  @Test func aRendererFrameIsTheSameWhateverCameBefore() throws {
    let scene = Self.free("a free field on a renderer", count: 20, density: 1, seed: 44)
    func frame(history: Int, budget: Int) throws -> [UInt32] {
      let canvas = try OffscreenCanvas(width: Self.width, height: Self.height)
      let loaders = LoaderRenderer(canvas.renderer, surface: canvas.surface, budgetBytes: budget)
      let field = try scene.make(2)
      field.backend = .spans
      for k in 0..<history {
        canvas.clear(RGBAColor(hex: 0xFFFFFF))
        try field.draw(
          on: loaders, in: SDL_FRect(x: 0, y: 0, w: 480, h: 270),
          at: Self.time - 4 + 4 * Double(k) / 60)
      }
      canvas.clear(RGBAColor(hex: 0xFFFFFF))
      try field.draw(on: loaders, in: SDL_FRect(x: 0, y: 0, w: 480, h: 270), at: Self.time)
      try canvas.finish()
      return canvas.argbPixels()
    }
    let fresh = try frame(history: 0, budget: 128 << 20)
    #expect(fresh.contains { $0 != 0xFFFF_FFFF })
    #expect(Self.difference(try frame(history: 60, budget: 1 << 20), fresh) == nil)
    #expect(Self.difference(try frame(history: 60, budget: 128 << 20), fresh) == nil)
  }
}
