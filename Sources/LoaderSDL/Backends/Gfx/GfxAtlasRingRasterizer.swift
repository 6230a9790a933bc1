import CSwiftLoaderSDL2
import LoaderCore

/// Draws dashed rings through SDL2_gfx at one `SDL_RenderCopy` a ring: SDL2_gfx paints each
/// rotation phase and sub-pixel offset of the shape once, white, into a texture atlas
/// (`GfxAtlas`, painted by `GfxDirectRingRasterizer`), and every ring is a copy of its cell,
/// tinted by the texture's colour and alpha modulation and blended source-over:
/// ```
/// dst = color * (coverage * alpha) + dst * (1 - coverage * alpha)
/// ```
/// Painting a ring directly costs one SDL2_gfx call per antialiased fringe pixel (about 400
/// a ring, each a trip through SDL's render queue); a copy is one command whose pixels the
/// renderer blends in one pass. One atlas serves every colour.
///
/// The cell is the ring at its phase and offset exactly as `GfxDirectRingRasterizer` draws it, so
/// the only departures from that backend are the quantizations `GfxAtlas` documents: at
/// most 0.1 px of rotation at the outer edge and 0.125 px of position.
///
/// An atlas lives on the renderer it was made for, one per shape while a field holds it, and
/// is remade when `draw` is given another renderer or after `renderTargetsDidReset`. Once
/// every cell a scene needs is painted, drawing allocates nothing. Rings whose cell misses the
/// visible region are skipped; SDL clips the rest to the viewport and clip rect.
///
/// Copies go to the renderer in batches of at most `batchCopies`, each handed over with
/// `SDL_RenderFlush`: a batching renderer (SDL's GL ones) would otherwise queue a command
/// and its vertices per copy until `SDL_RenderPresent`, and keep that queue's memory for
/// good, so the process would grow with the largest frame's ring count (about 1.2 KB a
/// loader). Between batches `draw(_:shapes:on:region:threads:stoppingWhen:)` asks whether to
/// stop.
package final class GfxAtlasRingRasterizer: RingRasterizer {
  package let name = "gfx"
  private var atlases = ShapeCaches<GfxAtlas>()
  /// The renderer every atlas in `atlases` paints on.
  private var atlasRenderer: OpaquePointer?
  /// The atlas of each shape of the draw in progress, kept between draws for its capacity.
  private var frameAtlases: [GfxAtlas?] = []
  let subpixelSteps: Int
  let budgetBytes: Int
  /// `SDL_RenderCopy` calls between two flushes at most.
  let batchCopies: Int

  package convenience init(budgetBytes: Int = 32 << 20) {
    self.init(subpixelSteps: 4, budgetBytes: budgetBytes)
  }

  init(subpixelSteps: Int, budgetBytes: Int, batchCopies: Int = 1 << 14) {
    self.subpixelSteps = subpixelSteps
    self.budgetBytes = budgetBytes
    self.batchCopies = max(1, batchCopies)
  }

  package func renderTargetsDidReset(on renderer: OpaquePointer) {
    // The page textures may be gone with their contents: paint every cell again on demand.
    atlases.dropValues()
  }

  package func close() {
    atlases.forEachValue { $0.close() }
    atlases.dropValues()
  }

  package func retain(shape: DashedRing) { atlases.retain(shape) }
  package func release(shape: DashedRing) { atlases.release(shape)?.close() }

  package var cachedBytes: Int {
    var total = 0
    atlases.forEachValue { total += $0.textureBytes }
    return total
  }

  /// The atlas of `shape` the last `draw` used, for tests.
  func atlas(of shape: DashedRing) -> GfxAtlas? {
    var found: GfxAtlas?
    atlases.forEachValue { if $0.shape == shape { found = $0 } }
    return found
  }

  package func draw(
    _ rings: UnsafeBufferPointer<RingInstance>, shapes: UnsafeBufferPointer<DashedRing>,
    on renderer: OpaquePointer, region: PixelRegion, threads: Int,
    stoppingWhen shouldStop: () -> Bool
  ) throws(SDLError) -> Bool {
    guard !rings.isEmpty, !region.isEmpty else { return true }
    if renderer != atlasRenderer {
      // Drawn on another renderer than the textures': paint them there.
      atlases.dropValues()
      atlasRenderer = renderer
    }
    for dropped in atlases.beginDraw() { dropped.close() }
    var frame: [GfxAtlas?] = []
    swap(&frame, &frameAtlases)
    defer {
      frame.removeAll(keepingCapacity: true)
      swap(&frame, &frameAtlases)
    }
    let (subpixels, budget) = (subpixelSteps, budgetBytes)
    let name = self.name
    // Refuses what the other backends refuse (a non-finite, negative or too large shape).
    try atlases.values(
      for: shapes, into: &frame,
      drawable: { (shape) throws(SDLError) in
        try shape.isDrawable(by: name, limit: GfxAtlas.maximumReach)
      },
      make: { (shape) throws(SDLError) in
        try GfxAtlas(
          shape: shape, renderer: renderer, subpixelSteps: subpixels, budgetBytes: budget)
      })
    // Centres past this many pixels can land on no target (SDL's are at most 16384 wide) and
    // would overflow the 32-bit rectangles below.
    let limit = Double(1 << 24)
    var copies = 0
    var current = Int32(-1)
    var atlas: GfxAtlas?
    for ring in rings {
      if copies >= batchCopies {
        SDL_RenderFlush(renderer)
        copies = 0
        if shouldStop() { return false }
      }
      if ring.shape != current {
        current = ring.shape
        atlas = current >= 0 && Int(current) < frame.count ? frame[Int(current)] : nil
      }
      guard let atlas, ring.angle.isFinite, ring.color.a > 0 else { continue }
      let s = atlas.subpixelSteps
      let steps = Double(s)
      let qx = (Double(ring.centerX) * steps).rounded()
      let qy = (Double(ring.centerY) * steps).rounded()
      guard abs(qx) < limit * steps, abs(qy) < limit * steps else { continue }
      let (ax, sx) = Self.floorDivide(Int(qx), by: s)
      let (ay, sy) = Self.floorDivide(Int(qy), by: s)
      // The cell's top-left pixel lands `origin` pixels up and left of the anchor.
      let left = Int32(ax - atlas.origin)
      let top = Int32(ay - atlas.origin)
      let side = Int32(atlas.cellSide)
      guard left + side > Int32(region.x), top + side > Int32(region.y),
        left < Int32(region.x + region.width), top < Int32(region.y + region.height)
      else { continue }
      let key = atlas.key(phase: atlas.phase(ofDegrees: ring.angle), sx: sx, sy: sy)
      let cell = try atlas.cell(key)
      guard cell.rectCount > 0 else { continue }
      let texture = atlas.page(of: cell, tintedTo: ring.color)
      let rects = atlas.rects
      for k in Int(cell.firstRect)..<Int(cell.firstRect + cell.rectCount) {
        let r = rects[k]
        var source = SDL_Rect(x: cell.x + r[0], y: cell.y + r[1], w: r[2], h: r[3])
        var destination = SDL_Rect(x: left + r[0], y: top + r[1], w: r[2], h: r[3])
        guard SDL_RenderCopy(renderer, texture, &source, &destination) == 0 else {
          throw SDLError("SDL_RenderCopy")
        }
      }
      copies += Int(cell.rectCount)
    }
    SDL_RenderFlush(renderer)
    return true
  }

  /// `(floor(q / s), q - s * floor(q / s))`: the anchor pixel and the sub-pixel step, the
  /// step in `0..<s` for negative `q` too.
  @inline(__always)
  static func floorDivide(_ q: Int, by s: Int) -> (Int, Int) {
    var a = q / s
    if a * s > q { a -= 1 }
    return (a, q - a * s)
  }
}
