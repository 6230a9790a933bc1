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
/// An atlas is a shape's cache in its renderer's `ShapeStore`, painted again after a reset of
/// the renderer's textures. Once every cell a scene needs is painted, drawing allocates
/// nothing. Rings whose cell misses the visible region are skipped; SDL clips the rest to the
/// viewport and clip rect.
///
/// Copies go to the renderer in batches of at most `batchCopies`, each handed over with
/// `SDL_RenderFlush`: a batching renderer (SDL's GL ones) would otherwise queue a command
/// and its vertices per copy until `SDL_RenderPresent`, and keep that queue's memory for
/// good, so the process would grow with the largest frame's ring count (about 1.2 KB a
/// loader). Between batches `draw(_:on:)` asks whether to stop.
package final class GfxAtlasRingRasterizer: RingRasterizer {
  package let name = "gfx"
  package let maximumReach = GfxAtlas.maximumReach
  package var cachesLiveOnRenderer: Bool { true }
  /// The atlas of each shape of the draw in progress, kept between draws for its capacity.
  private var frameAtlases: [GfxAtlas?] = []
  let subpixelSteps: Int
  /// `SDL_RenderCopy` calls between two flushes at most.
  let batchCopies: Int
  /// Bytes an atlas keeps at most below what the store allows it (tests of eviction).
  let cellBudgetBytes: Int?

  package convenience init() {
    self.init(subpixelSteps: 4)
  }

  init(subpixelSteps: Int, batchCopies: Int = 1 << 14, cellBudgetBytes: Int? = nil) {
    self.subpixelSteps = subpixelSteps
    self.batchCopies = max(1, batchCopies)
    self.cellBudgetBytes = cellBudgetBytes
  }

  package func makeCache(for shape: DashedRing, on target: RasterTarget, budgetBytes: Int)
    throws(SDLError) -> any RingShapeCache
  {
    try GfxAtlas(
      shape: shape, renderer: target.renderer, traits: target.traits,
      subpixelSteps: subpixelSteps, budgetBytes: min(budgetBytes, cellBudgetBytes ?? budgetBytes))
  }

  package func draw(
    _ frame: RasterFrame, on target: RasterTarget, stoppingWhen shouldStop: () -> Bool
  ) throws(SDLError) -> Bool {
    var atlases: [GfxAtlas?] = []
    swap(&atlases, &frameAtlases)
    defer {
      atlases.removeAll(keepingCapacity: true)
      swap(&atlases, &frameAtlases)
    }
    frame.caches(as: GfxAtlas.self, into: &atlases)
    let renderer = target.renderer
    var copies = 0
    let finished = try frame.forEachVisibleRing(caches: atlases, in: target.region) {
      (ring, atlas, _) throws(SDLError) in
      if copies >= batchCopies {
        SDL_RenderFlush(renderer)
        copies = 0
        if shouldStop() { return false }
      }
      let (ax, sx) = atlas.keys.anchor(ring.centerX)
      let (ay, sy) = atlas.keys.anchor(ring.centerY)
      let key = atlas.key(phase: atlas.phase(ofDegrees: ring.angle), sx: sx, sy: sy)
      let cell = try atlas.cell(key)
      guard cell.rectCount > 0 else { return true }
      // The cell's top-left pixel lands `origin` pixels up and left of the anchor.
      let left = Int32(ax - atlas.origin)
      let top = Int32(ay - atlas.origin)
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
      return true
    }
    SDL_RenderFlush(renderer)
    return finished
  }
}
