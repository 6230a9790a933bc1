import LoaderCore
import SwiftLoaderCanvas
import SwiftLoaderSupport
import Testing

@testable import LoaderPixels
@testable import LoaderSDL

/// The one byte budget of a shape store (`ShapeStore`, a `LoaderRenderer`'s or a
/// `LoaderPixelCache`'s): every cache and mask counted as allocated, within the budget after
/// every draw whatever the scene; past it what `CachePolicy` ranks last goes first (shapes
/// least recently drawn, masks not used again); the pixels never depend on it.
@Suite struct ShapeBudgetTests {
  static let seed = DashedRing(style: .seed)
  static let ring = [
    RingInstance(centerX: 60, centerY: 60, angle: 30, color: RGBAColor(hex: 0xFF3B30))
  ]

  /// A scene of many sizes in motion (`.free`, 10-120 pt, a third recoloured, a tenth moved by
  /// a random sub-pixel amount each frame) into a buffer, with a budget far below what its
  /// masks need: after every draw the cache holds at most its budget, counted as allocated,
  /// and the last frame is the same bytes as with a budget that never binds.
  @Test func theBudgetBoundsAChurningScene() throws {
    let budget = 4 << 20
    let tight = LoaderPixelCache(budgetBytes: budget)
    let roomy = LoaderPixelCache(budgetBytes: 1 << 30)
    let (w, h) = (640, 400)
    var rng = SplitMix64(seed: 35)
    let field = try LoaderField(layout: .free, threads: 2)
    var frames: [LoaderRect] = []
    for i in 0..<60 {
      let height = Float(10 + 110 * rng.nextUnit())
      let r = LoaderRect(
        x: Float(rng.nextUnit()) * (Float(w) - height * 5),
        y: Float(rng.nextUnit()) * (Float(h) - height), width: height * 5, height: height)
      frames.append(r)
      let id = try field.addLoader(isAnimating: true, at: rng.nextUnit(), frame: r)
      if i % 3 == 0 {
        try field.setColors([RGBAColor(r: 40, g: UInt8(i * 4), b: 200, a: 200)], of: id)
      }
    }
    /// The field at `t` into `pixels` with `cache`.
    func draw(into pixels: inout [UInt32], at t: Double, _ cache: LoaderPixelCache) throws {
      _ = try pixels.withUnsafeMutableBytes { raw in
        try field.draw(
          into: PixelBuffer(bytes: raw, width: w, height: h, format: .bgraPremultiplied),
          in: LoaderRect(x: 0, y: 0, width: 640, height: 400), at: t, cache: cache)
      }
    }
    var pixels = [UInt32](repeating: 0xFFFF_FFFF, count: w * h)
    var most = 0
    var t = 1.0
    for frame in 0..<90 {
      t += 1.0 / 60
      for i in stride(from: frame % 10, to: frames.count, by: 10) {
        frames[i].x += Float(rng.nextUnit() - 0.5)
        frames[i].y += Float(rng.nextUnit() - 0.5)
        try field.setFrame(frames[i], of: field.loaders[i])
      }
      try pixels.withUnsafeMutableBytes { raw in
        let buffer = PixelBuffer(
          base: raw.baseAddress, width: w, height: h, bytesPerRow: 4 * w,
          format: .bgraPremultiplied)
        try field.draw(
          into: buffer, in: LoaderRect(x: 0, y: 0, width: 640, height: 400), at: t, cache: tight)
      }
      let held = tight.cachedBytes
      most = max(most, held)
      #expect(held <= budget, "frame \(frame): \(held) bytes held")
      #expect(tight.withDrawer { $0.shapes.summedBytes } == held, "frame \(frame): the total")
    }
    let evicted = tight.withDrawer { $0.shapes.evictedBytes }
    #expect(evicted > 2 * budget, "the scene needed far more than the budget")
    // The same last frame with a cache that keeps everything.
    func lastFrame(_ cache: LoaderPixelCache) throws -> [UInt32] {
      var out = [UInt32](repeating: 0xFFFF_FFFF, count: w * h)
      try draw(into: &out, at: t, cache)
      return out
    }
    let reference = try lastFrame(roomy)
    let mine = try lastFrame(tight)
    // Bit for bit: a mask is a function of its shape and key alone.
    #expect(reference.contains { $0 != 0xFFFF_FFFF })
    #expect(mine == reference, "last frame against a cache that keeps everything")
    #expect(most > budget / 2)
  }

  /// Two fields drawing each frame into one cache: under pressure the shapes of a field that
  /// stopped drawing go once they rank behind what the two draw (past `CachePolicy.horizon`
  /// draws), and what stays was drawn by one of the two.
  @Test func shapesOfAFieldThatStoppedGoFirst() throws {
    let budget = 1 << 20
    let cache = LoaderPixelCache(budgetBytes: budget)
    var rng = SplitMix64(seed: 36)
    func field(heights: [Float]) throws -> LoaderField {
      let f = try LoaderField(layout: .free, threads: 1)
      for (i, height) in heights.enumerated() {
        try f.addLoader(
          isAnimating: true, at: rng.nextUnit(),
          frame: LoaderRect(
            x: Float(i % 2) * 300, y: Float(i / 2) * 60, width: height * 5, height: height))
      }
      return f
    }
    let old = try field(heights: [12, 14, 16, 18])
    let a = try field(heights: [20, 22, 24, 26, 28, 30])
    let b = try field(heights: [40, 42, 44, 46, 48, 50])
    var pixels = [UInt32](repeating: 0, count: 600 * 200)
    func draw(_ f: LoaderField, at t: Double) throws {
      _ = try pixels.withUnsafeMutableBytes { raw in
        try f.draw(
          into: PixelBuffer(
            base: raw.baseAddress, width: 600, height: 200, bytesPerRow: 600 * 4,
            format: .rgbaPremultiplied), in: LoaderRect(x: 0, y: 0, width: 600, height: 200),
          at: t, cache: cache)
      }
    }
    /// Every loader of `f` moved by a random sub-pixel amount: new masks every frame.
    func jiggle(_ f: LoaderField) throws {
      for id in f.loaders {
        var r: LoaderRect = try f.frame(of: id)
        r.x += Float(rng.nextUnit() - 0.5)
        r.y = max(0, r.y + Float(rng.nextUnit() - 0.5))
        try f.setFrame(r, of: id)
      }
    }
    try draw(old, at: 0.5)
    let oldShapes = Set(old.frameRings.shapes)
    var t = 0.5
    var pressed = false
    for frame in 0..<(Int(CachePolicy.horizon) / 2 + 20) {
      t += 1.0 / 60
      try jiggle(a)
      try jiggle(b)
      try draw(a, at: t)
      try draw(b, at: t)
      let held = cache.withDrawer { Set($0.shapes.heldShapes) }
      let drawing = Set(a.frameRings.shapes + b.frameRings.shapes)
      #expect(held.isDisjoint(with: oldShapes) ? held.isSubset(of: drawing) : true)
      #expect(!held.isEmpty, "frame \(frame)")
      #expect(cache.cachedBytes <= budget, "frame \(frame)")
      pressed = pressed || held.isDisjoint(with: oldShapes)
    }
    #expect(oldShapes.isDisjoint(with: a.frameRings.shapes + b.frameRings.shapes))
    #expect(pressed, "the old field's shapes went")
    #expect(cache.withDrawer { $0.shapes.evictedBytes } > 2 * budget, "the budget bound")
  }

  /// `budgetBytes` is settable (at least 1 MiB) and `purge()` lets everything go.
  @Test func theBudgetIsSettableAndPurgeEmpties() throws {
    let cache = LoaderPixelCache(budgetBytes: 1)
    #expect(cache.budgetBytes == 1 << 20)
    cache.budgetBytes = 64 << 20
    #expect(cache.budgetBytes == 64 << 20)
    let view = LoaderView(isAnimating: true)
    var pixels = [UInt32](repeating: 0, count: 390 * 120)
    _ = try pixels.withUnsafeMutableBytes { raw in
      try view.draw(
        into: PixelBuffer(
          base: raw.baseAddress, width: 390, height: 120, bytesPerRow: 390 * 4,
          format: .rgbaPremultiplied), in: LoaderRect(x: 0, y: 0, width: 390, height: 120),
        at: 0.3, cache: cache)
    }
    #expect(cache.cachedBytes > 0)
    cache.purge()
    #expect(cache.cachedBytes == LoaderPixelCache().cachedBytes, "as empty as a new cache")
    #expect(cache.withDrawer { $0.shapes.heldShapes.isEmpty && $0.shapes.masks.maskCount == 0 })
  }

  /// Over the budget, shapes the draw does not use go, least recently drawn first, the
  /// caches of every backend counted together (the gfx atlas's textures and its painter's
  /// surface too): what stays is the most recently drawn, within the budget.
  @Test func shapesTheDrawDoesNotUseGoLeastRecentFirst() throws {
    let canvas = try OffscreenCanvas(width: 120, height: 120)
    let loaders = LoaderRenderer(canvas.renderer, surface: canvas.surface, budgetBytes: 4 << 20)
    let gfx = try loaders.rasterizer(.gfx)
    let spans = try loaders.rasterizer(.spans)
    let shapes = (0..<12).map { Self.seed.scaled(by: 1 + Double($0) / 4) }
    for (k, shape) in shapes.enumerated() {
      try loaders.draw(Self.ring, shape: shape, with: k % 2 == 0 ? gfx : spans)
      #expect(loaders.shapes.bytes <= loaders.budgetBytes, "draw \(k)")
      #expect(loaders.shapes.summedBytes == loaders.shapes.bytes, "draw \(k)")
    }
    let atlas = try #require(loaders.cache(of: shapes[10], drawnWith: gfx) as? GfxAtlas)
    #expect(atlas.bytes > atlas.textureBytes, "the painter's surface counts")
    let held = Set(loaders.shapes.heldShapes)
    #expect(loaders.shapes.evictedBytes > 0)
    #expect(held == Set(shapes.suffix(held.count)), "the most recently drawn stay")
    #expect(held.count < shapes.count && held.contains(shapes[11]))
  }

  /// Eight rings, ring `k` at `(x0 + dx k, y0 + dy k)`, each at a rotation no earlier `frame`
  /// drew (of `phases` a turn).
  static func rings(frame: Int, phases: Int, x0: Float, dx: Float, y0: Float, dy: Float)
    -> [RingInstance]
  {
    (0..<8).map { k in
      RingInstance(
        centerX: x0 + dx * Float(k), centerY: y0 + dy * Float(k),
        angle: Float(frame * 8 + k) * 360 / Float(phases), color: RGBAColor(hex: 0xFF3B30))
    }
  }

  /// `budgetBytes` lowered mid-run on SDL's software renderer drawn with `gfx`, which paints
  /// one cell per rotation into its shape's atlas: after every draw `cachedBytes` is within
  /// the new budget, and from the second draw after the change no draw ends holding more than
  /// it (what the draw let go at its end counted too: the atlas paints within its share of
  /// the budget now, not the one it was made with). The last frame is the same pixels as a
  /// renderer's that never ran short.
  @Test func aLoweredBudgetBoundsGfx() throws {
    let (w, h) = (480, 100)
    let canvas = try OffscreenCanvas(width: w, height: h)
    let loaders = LoaderRenderer(canvas.renderer, surface: canvas.surface, budgetBytes: 64 << 20)
    let phases = try GfxAtlas(shape: Self.seed, renderer: canvas.renderer).phases
    func draw(_ frame: Int, on canvas: OffscreenCanvas, _ loaders: LoaderRenderer) throws {
      canvas.clear(RGBAColor(hex: 0xFFFFFF))
      try loaders.draw(
        Self.rings(frame: frame, phases: phases, x0: 30, dx: 55, y0: 40, dy: 0), shape: Self.seed,
        with: try loaders.rasterizer(.gfx))
    }
    for frame in 0..<6 { try draw(frame, on: canvas, loaders) }
    #expect(loaders.cachedBytes > 3 << 20, "a page of 256 cells")
    let budget = 5 << 20
    loaders.budgetBytes = budget
    for frame in 6..<46 {
      let evicted = loaders.shapes.evictedBytes
      try draw(frame, on: canvas, loaders)
      let held = loaders.cachedBytes
      #expect(held <= budget, "frame \(frame): \(held) bytes held")
      #expect(loaders.shapes.summedBytes == held, "frame \(frame): the running total")
      let atEnd = held + loaders.shapes.evictedBytes - evicted
      #expect(frame == 6 || atEnd <= budget, "frame \(frame): \(atEnd) bytes at the draw's end")
    }
    let last = canvas.argbPixels()
    let roomy = try OffscreenCanvas(width: w, height: h)
    try draw(45, on: roomy, roomy.loaderRenderer)
    let same = last == roomy.argbPixels()
    #expect(last.contains { $0 != 0xFFFF_FFFF })
    #expect(same, "the last frame against a roomy renderer's")
  }

  /// `budgetBytes` lowered mid-run with `spans` drawing through its overlay texture (a renderer
  /// without its surface): a frame across the canvas grew the texture past the new budget, and
  /// after every draw `cachedBytes`, the texture counted, is within the new budget, from the
  /// second draw after the change what the draw let go at its end counted too. The last frame
  /// is the same pixels as a renderer's that never ran short.
  @Test func aLoweredBudgetBoundsSpans() throws {
    let (w, h) = (800, 600)
    func drawn(_ frame: Int, on canvas: OffscreenCanvas, _ loaders: LoaderRenderer) throws {
      canvas.clear(RGBAColor(hex: 0xFFFFFF))
      let across = frame < 3
      try loaders.draw(
        Self.rings(
          frame: frame, phases: 360, x0: across ? 40 : 30, dx: across ? 100 : 12,
          y0: across ? 40 : 30, dy: across ? 70 : 4), shape: Self.seed.scaled(by: 0.5),
        with: try loaders.rasterizer(.spans))
    }
    let canvas = try OffscreenCanvas(width: w, height: h)
    let loaders = LoaderRenderer(canvas.renderer)
    for frame in 0..<3 { try drawn(frame, on: canvas, loaders) }
    #expect(loaders.cachedBytes > 2 << 20, "the overlay of a frame across the canvas")
    let budget = 1 << 20
    loaders.budgetBytes = budget
    for frame in 3..<13 {
      let evicted = loaders.shapes.evictedBytes
      try drawn(frame, on: canvas, loaders)
      let held = loaders.cachedBytes
      #expect(held <= budget, "frame \(frame): \(held) bytes held")
      #expect(loaders.shapes.summedBytes == held, "frame \(frame): the running total")
      let atEnd = held + loaders.shapes.evictedBytes - evicted
      #expect(frame == 3 || atEnd <= budget, "frame \(frame): \(atEnd) bytes at the draw's end")
    }
    let last = canvas.argbPixels()
    let roomy = try OffscreenCanvas(width: w, height: h)
    try drawn(12, on: roomy, LoaderRenderer(roomy.renderer))
    let same = last == roomy.argbPixels()
    #expect(last.contains { $0 != 0xFFFF_FFFF })
    #expect(same, "the last frame against a roomy renderer's")
  }

  /// `budgetBytes` lowered mid-run with `gpu` on OpenGL, after a frame of many rings grew its
  /// instance buffers past the new budget: after every draw `cachedBytes`, the buffers
  /// counted, is within the new budget (`trimOwnMemory(toBytes:)` gives the buffers' storage
  /// back), and the frame drawn after it is the picture (`spans`' of the same rings).
  @Test(
    .enabled(
      if: OffscreenCanvas.openGLAvailable, "no OpenGL renderer on SDL's offscreen driver here"))
  func aLoweredBudgetBoundsGPU() throws {
    let canvas = try OffscreenCanvas.openGL(width: 400, height: 300)
    let loaders = LoaderRenderer(canvas.renderer)
    let gpu = GPURingRasterizer()
    let shape = Self.seed.scaled(by: 0.5)
    let many = (0..<20_000).map { (k: Int) -> RingInstance in
      let (x, y) = (Float(k % 400), Float(k / 400 % 300))
      return RingInstance(centerX: x, centerY: y, angle: Float(k), color: RGBAColor(hex: 0xFF3B30))
    }
    try loaders.draw(many, shape: shape, with: gpu)
    #expect(loaders.cachedBytes > 1 << 20, "the buffers of 20,000 rings")
    let budget = 1 << 20
    loaders.budgetBytes = budget
    for frame in 0..<5 {
      canvas.clear(RGBAColor(hex: 0xFFFFFF))
      try loaders.draw(
        Self.rings(frame: frame, phases: 360, x0: 30, dx: 40, y0: 30, dy: 0), shape: shape,
        with: gpu)
      let held = loaders.cachedBytes
      #expect(held <= budget, "frame \(frame): \(held) bytes held")
    }
    // What was let go is made again: the last frame is the picture.
    let drawn = canvas.argbPixels()
    canvas.clear(RGBAColor(hex: 0xFFFFFF))
    try loaders.draw(
      Self.rings(frame: 4, phases: 360, x0: 30, dx: 40, y0: 30, dy: 0), shape: shape,
      with: CoverageSpanRasterizer())
    let db = ImageComparison.psnr(drawn, canvas.argbPixels(), width: 400)
    #expect(db >= 30, "after the trim: \(db) dB against spans")
  }
}
