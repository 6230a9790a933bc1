import Foundation
import LoaderCore
import SwiftLoaderCairoReference
import SwiftLoaderCanvas
import SwiftLoaderSupport
import SwiftLoaderTestSupport
import Testing

@testable import LoaderPixels
@testable import LoaderSDL

/// `LoaderField`'s `.free` layout: loaders placed, sized, coloured, stacked, hidden and hit
/// at runtime, checked in pixels against Cairo and in the rings a draw hands the rasterizer.
@Suite struct LoaderFieldFreeTests {
  static let background = LoaderPalette.light.background

  /// What Cairo should show for `field` at `time` at `density`: every visible loader's rings
  /// in stacking order, where `ringFrames(of:)` puts them, at their colours and opacity.
  static func expected(_ field: LoaderField, density: Double, at time: Double) throws
    -> [StrokedRing]
  {
    var rings: [StrokedRing] = []
    for id in field.stackingOrder where !(try field.isHidden(id)) {
      let angles = try field.angles(of: id, at: time)
      let colors = try field.colors(of: id)
      let opacity = try field.opacity(of: id)
      for (r, f) in try field.ringFrames(of: id).enumerated() {
        var c = colors[r]
        c.a = UInt8((Double(c.a) * opacity).rounded())
        rings.append(
          StrokedRing(
            centerX: f.midX * density, centerY: f.midY * density,
            frameRadius: f.width / 2 * density, angle: angles[r], color: c))
      }
    }
    return rings
  }

  /// Draws `field` at `time` with `backend` on a fresh canvas at `density` and checks every
  /// ring that stands apart against Cairo (>= 30 dB); returns the frame.
  @discardableResult
  static func checkAgainstCairo(
    _ field: LoaderField, backend: RingBackend, size: (Int, Int), density: Double,
    at time: Double, _ what: String
  ) throws -> [UInt32] {
    let canvas = try OffscreenCanvas(width: size.0, height: size.1)
    SDL_RenderSetScale(canvas.renderer, Float(density), Float(density))
    field.backend = backend
    canvas.clear(background)
    try field.draw(on: canvas.loaderRenderer, at: time)
    canvas.flush()
    let pixels = canvas.argbPixels()
    let rings = try expected(field, density: density, at: time)
    let reference = try StrokedRings.cairo(
      rings, width: size.0, height: size.1, background: background)
    let apart = StrokedRings.apart(rings, width: size.0, height: size.1)
    #expect(!apart.isEmpty, "\(what): no ring stands apart")
    for i in apart {
      let db = ImageComparison.psnr(pixels, reference, width: size.0, rect: rings[i].crop)
      #expect(db >= 30, "\(what), \(backend), ring \(i) \(rings[i]): \(db) dB")
    }
    return pixels
  }

  /// Loaders moved, resized and recoloured between frames show where, how large and in the
  /// colours they were given, on `spans` and `gfx`, at densities 1 and 2; where a loader was
  /// is background again.
  @Test(arguments: [RingBackend.spans, .gfx], [1.0, 2.0])
  func movedResizedAndRecolouredLoadersShowInPixels(backend: RingBackend, density: Double)
    throws
  {
    let field = try LoaderField(layout: .free)
    let a = try field.addLoader(
      isAnimating: true, at: 0, frame: SDL_FRect(x: 10, y: 10, w: 290, h: 50))
    let b = try field.addLoader(
      isAnimating: true, at: 0, frame: SDL_FRect(x: 20.5, y: 90.25, w: 145, h: 25))
    let c = try field.addLoader(
      isAnimating: false, at: 0, frame: SDL_FRect(x: 330, y: 20, w: 58, h: 10))
    let size = (Int(400 * density), Int(200 * density))
    let before = try Self.checkAgainstCairo(
      field, backend: backend, size: size, density: density, at: 0.4, "first frame")
    // Move a, shrink b, grow c, recolour b entirely and one ring of c.
    try field.setFrame(SDL_FRect(x: 60.3, y: 130.7, w: 290, h: 50), of: a)
    try field.setFrame(SDL_FRect(x: 20.5, y: 90.25, w: 72.5, h: 12.5), of: b)
    try field.setFrame(SDL_FRect(x: 250, y: 20, w: 145, h: 80), of: c)
    try field.setColors([RGBAColor(r: 20, g: 40, b: 200), RGBAColor(r: 0, g: 160, b: 60)], of: b)
    try field.setColor(RGBAColor(r: 120, g: 0, b: 140), ofRing: 3, of: c)
    let after = try Self.checkAgainstCairo(
      field, backend: backend, size: size, density: density, at: 0.9, "after the changes")
    #expect(try field.colors(of: b).map(\.b) == [200, 60, 200, 60, 200])
    // Where a's first ring was is background again.
    #expect(before != after)
    let emptied = (0..<Int(50 * density)).allSatisfy { dy in
      (0..<Int(50 * density)).allSatisfy { dx in
        RGBAColor(hex: after[(Int(10 * density) + dy) * size.0 + Int(10 * density) + dx])
          == Self.background
      }
    }
    #expect(emptied, "a's old first ring left ink behind")
  }

  /// A loader's row in `.free` layout is `.fittedRow`'s in a container of its frame.
  @Test func freeRowIsTheFittedRowOfItsFrame() throws {
    for frame in [
      SDL_FRect(x: 0, y: 0, w: 290, h: 50), SDL_FRect(x: 3.5, y: 7.25, w: 200, h: 60),
      SDL_FRect(x: -20, y: 5, w: 600, h: 30), SDL_FRect(x: 1, y: 2, w: 50, h: 200),
      SDL_FRect(x: 0, y: 0, w: 800, h: 120),
    ] {
      let free = try LoaderField(layout: .free)
      let id = try free.addLoader(isAnimating: true, at: 0, frame: frame)
      let fitted = try LoaderField(layout: .fittedRow)
      try fitted.addLoader(isAnimating: true, at: 0)
      for density in [1.0, 2.0] {
        let a = try free.rings(in: SDL_FRect(x: 0, y: 0, w: 1, h: 1), density: density, at: 0.5)
        let b = try fitted.rings(in: frame, density: density, at: 0.5)
        #expect(a.count == b.count)
        for (p, q) in zip(a, b) {
          #expect(abs(p.centerX - q.centerX) < 1e-3 && abs(p.centerY - q.centerY) < 1e-3)
          #expect(p.angle == q.angle && p.color == q.color)
        }
        let want = fitted.preparedShapes[0].radius
        let got = free.preparedShapes[Int(a[0].shape)].radius
        // Half a bucket step at most (1/8 px above a radius of 16 px).
        #expect(abs(got - want) <= 1.0 / 16, "\(frame) \(density)")
      }
      let frames = try free.ringFrames(of: id)
      #expect(frames.count == 5)
    }
  }

  /// Hidden and fully transparent loaders get no rings; opacity scales alpha; loaders whose
  /// frame misses the visible region get none either.
  @Test func hiddenTransparentAndOffTargetLoadersGetNoRings() throws {
    let field = try LoaderField(layout: .free, backend: .spans)
    let ids = try (0..<6).map { i in
      try field.addLoader(
        isAnimating: true, at: 0, frame: SDL_FRect(x: Float(60 * i), y: 10, w: 58, h: 10))
    }
    let canvas = try OffscreenCanvas(width: 200, height: 100)
    func drawnSlots() throws -> Set<Int> {
      try field.draw(on: canvas.loaderRenderer, at: 0.2)
      return Set(field.frameRings.drawn.map(Int.init))
    }
    // Loaders 4 and 5 start at x = 240 and 300: off a 200-wide canvas.
    #expect(try drawnSlots() == Set(ids[0..<4].map(\.slot)))
    #expect(field.preparedRings.count == 20)
    try field.setHidden(true, of: ids[1])
    try field.setOpacity(0, of: ids[2])
    try field.setOpacity(0.5, of: ids[3])
    #expect(try drawnSlots() == [ids[0].slot, ids[3].slot])
    #expect(field.preparedRings.suffix(5).allSatisfy { $0.color.a == 128 })
    #expect(try field.isHidden(ids[1]) && field.opacity(of: ids[3]) == 0.5)
    // Moved on screen, an off-target loader draws; hidden ones are under no point.
    try field.setFrame(SDL_FRect(x: 100, y: 50, w: 58, h: 10), of: ids[5])
    #expect(try drawnSlots().contains(ids[5].slot))
    #expect(field.loader(at: SDL_FPoint(x: 65, y: 15)) == nil)
    #expect(field.loader(at: SDL_FPoint(x: 5, y: 15)) == ids[0])
    // A viewport that shows only the left half culls the loaders on the right.
    var viewport = SDL_Rect(x: 0, y: 0, w: 90, h: 100)
    SDL_RenderSetViewport(canvas.renderer, &viewport)
    #expect(try drawnSlots() == [ids[0].slot])
  }

  /// Later loaders cover earlier ones; `raise` puts one on top, in pixels and for
  /// `loader(at:)`; the stacking order survives many raises and removals.
  @Test func raiseStacksAndHitTestsTheTopmost() throws {
    let field = try LoaderField(layout: .free, backend: .spans)
    let red = RGBAColor(r: 255, g: 0, b: 0)
    let blue = RGBAColor(r: 0, g: 0, b: 255)
    let frame = SDL_FRect(x: 0, y: 0, w: 290, h: 50)
    let under = try field.addLoader(isAnimating: false, at: 0, frame: frame)
    let over = try field.addLoader(isAnimating: false, at: 0, frame: frame)
    try field.setColors([red], of: under)
    try field.setColors([blue], of: over)
    let canvas = try OffscreenCanvas(width: 300, height: 60)
    // Ring 0 at rest: its first dash starts at 3 o'clock, centre (33, 25), radius 23.
    func inkColor() throws -> RGBAColor {
      canvas.clear(Self.background)
      try field.draw(on: canvas.loaderRenderer, at: 0)
      canvas.flush()
      return RGBAColor(hex: canvas.argbPixels()[25 * 300 + 33 + 23] & 0xFF_FFFF)
    }
    #expect(try inkColor() == blue)
    #expect(field.loader(at: SDL_FPoint(x: 10, y: 10)) == over)
    try field.raise(under)
    #expect(try inkColor() == red)
    #expect(field.loader(at: SDL_FPoint(x: 10, y: 10)) == under)
    #expect(field.stackingOrder == [over, under])
    // Many loaders raised at random and removed: the order stays every live loader once,
    // the raised ones last in the order raised.
    var rng = SplitMix64(seed: 17)
    var live = [over, under]
    for _ in 0..<200 { live.append(try field.addLoader(isAnimating: false, at: 0, frame: frame)) }
    var expected = live
    for step in 0..<2000 {
      let i = Int(rng.next() % UInt64(live.count))
      if step % 7 == 0, live.count > 2 {
        try field.remove(live[i])
        expected.removeAll { $0 == live[i] }
        live.remove(at: i)
      } else {
        try field.raise(live[i])
        expected.removeAll { $0 == live[i] }
        expected.append(live[i])
      }
    }
    #expect(field.stackingOrder == expected)
    #expect(field.order.count <= 2 * live.count + 1)
    #expect(field.loader(at: SDL_FPoint(x: 10, y: 10)) == expected.last)
  }

  /// Loaders of many sizes share shapes by bucket; the renderer's store holds the shapes
  /// drawn, and lets the unused ones go once they have been idle for `CachePolicy.idleDraws`
  /// draws.
  ///
  /// Counted, not compared as sets (a set would hide a shape held twice): 240 loaders of 40
  /// heights, each height five times and once more a thousandth of a point taller (another
  /// exact size, the same bucket), draw with 40 shapes, one entry and one cache each, and
  /// every loader's rings use its height's shape.
  @Test func shapesAreSharedByBucketAndLetGo() throws {
    let field = try LoaderField(layout: .free, backend: .spans)
    let canvas = try OffscreenCanvas(width: 800, height: 480)
    var ids: [LoaderID] = []
    var heights: [Int] = []
    for i in 0..<240 {
      let height = 8 + i % 40
      let h = Float(height) + (i >= 200 ? 0.001 : 0)
      heights.append(height)
      ids.append(
        try field.addLoader(
          isAnimating: true, at: 0,
          frame: SDL_FRect(x: Float(i % 10) * 75, y: Float(i / 10) * 18, w: h * 5.8, h: h)))
    }
    try field.draw(on: canvas.loaderRenderer, at: 0.5)
    let shapes = field.preparedShapes
    // 40 heights from 8 to 47 points: radius 23 h / 50 px, one bucket each (1/16 px steps).
    #expect(shapes.count == 40 && Set(shapes).count == 40)
    // Every loader is visible, so the rings are 5 a loader in the order added; a loader's rings
    // all use the shape of its height, and each height has one shape.
    let rings = field.preparedRings
    try #require(rings.count == 5 * ids.count)
    var shapeOfHeight: [Int: Int32] = [:]
    for (i, height) in heights.enumerated() {
      for r in 0..<5 {
        let shape = rings[5 * i + r].shape
        let first = shapeOfHeight[height, default: shape]
        shapeOfHeight[height] = first
        #expect(shape == first, "loader \(i) (height \(height)), ring \(r): shape \(shape)")
      }
    }
    #expect(Set(shapeOfHeight.values).count == 40, "heights share shapes")
    let store = canvas.loaderRenderer.shapes
    #expect(store.heldShapes.count == 40, "the store holds \(store.heldShapes.count) entries")
    #expect(Set(store.heldShapes) == Set(shapes))
    let spans = try canvas.loaderRenderer.rasterizer(.spans)
    let caches = shapes.compactMap { canvas.loaderRenderer.cache(of: $0, drawnWith: spans) }
    #expect(caches.count == 40)
    #expect(Set(caches.map { ObjectIdentifier($0) }).count == 40, "shapes share a cache")
    let held = canvas.loaderRenderer.cachedBytes
    #expect(held > 0)
    // A steady frame finds every shape by its handle: no new entry, nothing let go.
    try field.draw(on: canvas.loaderRenderer, at: 0.52)
    #expect(store.heldShapes.count == 40)
    #expect(Set(store.heldShapes) == Set(shapes))
    // All the same size now: one shape drawn; the others held while not idle for long.
    for id in ids { try field.setFrame(SDL_FRect(x: 10, y: 10, w: 290, h: 50), of: id) }
    try field.draw(on: canvas.loaderRenderer, at: 0.6)
    #expect(field.preparedShapes.count == 1)
    #expect(store.heldShapes.count == 41)
    // One loader left, at rest once its turns have ended (by 1.3 s): five masks from then on.
    for id in ids.dropFirst() { try field.remove(id) }
    try field.setAnimatingAll(false, at: 0.7)
    for k in 0..<(Int(CachePolicy.idleDraws) + 64) {
      try field.draw(on: canvas.loaderRenderer, at: 2 + Double(k) / 1000)
    }
    #expect(store.heldShapes == field.preparedShapes)
    let gone = shapes.filter { canvas.loaderRenderer.cache(of: $0, drawnWith: spans) != nil }
    #expect(gone.isEmpty, "\(gone.count) idle shapes kept their caches")
    #expect(canvas.loaderRenderer.cachedBytes < held)
  }

  /// Bad frames, opacities and rings are refused; stale ids too; nothing changes.
  @Test func badInputIsRefused() throws {
    let field = try LoaderField(layout: .free)
    let id = try field.addLoader(
      isAnimating: true, at: 0, frame: SDL_FRect(x: 1, y: 2, w: 3, h: 4))
    for bad in [
      SDL_FRect(x: .nan, y: 0, w: 1, h: 1), SDL_FRect(x: 0, y: .infinity, w: 1, h: 1),
      SDL_FRect(x: 0, y: 0, w: -1, h: 1), SDL_FRect(x: 0, y: 0, w: 1, h: .nan),
    ] {
      #expect(throws: LoaderField.Error.self) { try field.setFrame(bad, of: id) }
      #expect(throws: LoaderField.Error.self) {
        try field.addLoader(isAnimating: true, at: 0, frame: bad)
      }
    }
    #expect(try field.frame(of: id).w == 3 && field.count == 1)
    for bad in [-0.1, 1.01, .nan] {
      #expect(throws: LoaderField.Error.self) { try field.setOpacity(bad, of: id) }
    }
    for ring in [-1, 5] {
      #expect(throws: LoaderField.Error.self) {
        try field.setColor(RGBAColor(hex: 0), ofRing: ring, of: id)
      }
    }
    // An empty frame is allowed and draws nothing.
    try field.setFrame(SDL_FRect(x: 5, y: 5, w: 0, h: 10), of: id)
    #expect(try field.rings(in: SDL_FRect(x: 0, y: 0, w: 1, h: 1), at: 0.1).isEmpty)
    try field.remove(id)
    #expect(throws: LoaderField.Error.self) { try field.setFrame(SDL_FRect(), of: id) }
    #expect(throws: LoaderField.Error.self) { try field.raise(id) }
    #expect(throws: LoaderField.Error.self) { try field.setHidden(true, of: id) }
    #expect(field.stackingOrder.isEmpty)
  }

  /// Appearance works in every layout: a hidden grid cell is empty and not under a point,
  /// recoloured and translucent loaders draw so; the grid's hit test is the cell's.
  @Test func appearanceAndHitTestingInTheGrid() throws {
    let field = try LoaderField(layout: .grid, backend: .spans)
    try field.setGutter(0)
    try field.addLoaders(4, isAnimating: true, at: 0)
    let ids = field.loaders
    try field.setHidden(true, of: ids[1])
    try field.setColors([RGBAColor(r: 1, g: 2, b: 3)], of: ids[2])
    try field.setOpacity(0.25, of: ids[3])
    let canvas = try OffscreenCanvas(width: 580, height: 100)
    try field.draw(on: canvas.loaderRenderer, in: SDL_FRect(x: 0, y: 0, w: 580, h: 100), at: 0.3)
    let rings = field.preparedRings
    #expect(rings.count == 15)
    #expect(rings[5..<10].allSatisfy { $0.color == RGBAColor(r: 1, g: 2, b: 3) })
    #expect(rings[10..<15].allSatisfy { $0.color.a == 64 })
    // 2x2 cells of 290x50.
    #expect(field.loader(at: SDL_FPoint(x: 10, y: 10)) == ids[0])
    #expect(field.loader(at: SDL_FPoint(x: 300, y: 10)) == nil)
    #expect(field.loader(at: SDL_FPoint(x: 300, y: 60)) == ids[3])
    #expect(field.loader(at: SDL_FPoint(x: 600, y: 60)) == nil)
    // Reduced motion maps rings to the loaders drawn, hidden ones left out.
    try field.setMotion(.pulse)
    try field.draw(on: canvas.loaderRenderer, in: SDL_FRect(x: 0, y: 0, w: 580, h: 100), at: 0.3)
    #expect(field.preparedRings.count == 15 && field.preparedRings.allSatisfy { $0.angle == 0 })
  }
}
