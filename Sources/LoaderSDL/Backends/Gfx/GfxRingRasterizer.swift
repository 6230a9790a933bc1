import CSwiftLoaderSDL2
import Foundation
import LoaderPixels

/// Draws dashed rings painted by SDL2_gfx. On SDL's software renderer, one `SDL_RenderCopy` a
/// ring (a few, cut to the ink's strips): SDL2_gfx paints each rotation phase and sub-pixel
/// offset of the shape once, white, into a texture atlas (`GfxAtlas`, painted by
/// `GfxRingPainter`), and every ring is a copy of its cell, tinted by the texture's colour and
/// alpha modulation and blended source-over:
/// ```
/// dst = color * (coverage * alpha) + dst * (1 - coverage * alpha)
/// ```
/// Painting a ring directly costs one SDL2_gfx call per fringe pixel, each a trip through
/// SDL's render queue; a copy is one command. One atlas serves every colour, and departs from
/// the painter only by the quantizations `GfxAtlas` documents. Rings whose cell misses the
/// visible region are skipped; SDL clips the rest.
///
/// On an accelerated renderer a shape is one texture instead (`GfxShapeTexture`): the ring
/// painted once at angle 0 and twice its size, and every ring an upright square sampling it
/// turned back by the ring's angle, one `SDL_RenderGeometry` call per shape run. The GPU's
/// filtering does the rotation and sub-pixel position the atlas keeps cells for, and one small
/// texture stays in the GPU's caches where hundreds of cells would not.
///
/// Copies go to the renderer in batches of at most `batchCopies`, each handed over with
/// `SDL_RenderFlush`: a batching renderer (SDL's GL ones) would otherwise queue every copy
/// until `SDL_RenderPresent` and keep that queue's memory for good. Between batches
/// `draw(_:on:)` asks whether to stop.
package final class GfxRingRasterizer: RingRasterizer {
  package let name = "gfx"
  package let maximumReach = GfxAtlas.maximumReach
  package var cachesLiveOnRenderer: Bool { true }
  /// The atlas of each shape of the draw in progress, kept between draws for its capacity.
  private var frameAtlases: [GfxAtlas?] = []
  let subpixelSteps: Int
  /// `SDL_RenderCopy` calls between two flushes at most.
  let batchCopies: Int
  /// Bytes an atlas paints within whatever the store allows it (tests of recycling).
  let cellBudgetBytes: Int?
  /// The quads of the batch in progress (accelerated renderers), kept for their capacity.
  private var vertices: [SDL_Vertex] = []
  private var indices: [Int32] = []

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
    if !target.traits.isSoftware {
      return try GfxShapeTexture(
        shape: shape, renderer: target.renderer, traits: target.traits,
        fineBytes: cellBudgetBytes ?? GfxShapeTexture.fineBytes)
    }
    return try GfxAtlas(
      shape: shape, renderer: target.renderer, traits: target.traits,
      subpixelSteps: subpixelSteps, budgetBytes: budgetBytes,
      maximumBytes: cellBudgetBytes ?? .max)
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
    guard target.traits.isSoftware else {
      return try drawTurned(frame, on: target, stoppingWhen: shouldStop)
    }
    let finished = try copy(frame, atlases: atlases, on: target, stoppingWhen: shouldStop)
    SDL_RenderFlush(target.renderer)
    return finished
  }

  /// The software renderer: each ring's ink strips copied from its cell, tinted by the page's
  /// colour modulation.
  private func copy(
    _ frame: RasterFrame, atlases: [GfxAtlas?], on target: RasterTarget,
    stoppingWhen shouldStop: () -> Bool
  ) throws(SDLError) -> Bool {
    let renderer = target.renderer
    var copies = 0
    return try frame.forEachVisibleRing(caches: atlases, in: target.region) {
      (ring, atlas, _) throws(SDLError) in
      if copies >= batchCopies {
        SDL_RenderFlush(renderer)
        copies = 0
        if shouldStop() { return false }
      }
      let (ax, sx) = atlas.keys.anchor(ring.centerX)
      let (ay, sy) = atlas.keys.anchor(ring.centerY)
      let key = atlas.key(phase: atlas.phase(ofDegrees: ring.angle), sx: sx, sy: sy)
      let cell = try atlas.cell(key, now: frame.now)
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
  }

  /// A quad's texture corners and its two triangles, made once (not an array literal a ring).
  private static let quadCorners: [(Float, Float)] = [(0, 0), (1, 0), (1, 1), (0, 1)]
  private static let quadIndices: [Int32] = [0, 1, 2, 0, 2, 3]

  /// The shape textures of the draw in progress, kept for their capacity.
  private var frameTextures: [GfxShapeTexture?] = []

  /// An accelerated renderer: every ring an upright square over its shape's one texture
  /// (`GfxShapeTexture`), turned back by its angle, its colour the vertices' colour, one
  /// `SDL_RenderGeometry` call per run of rings of one shape.
  private func drawTurned(
    _ frame: RasterFrame, on target: RasterTarget, stoppingWhen shouldStop: () -> Bool
  ) throws(SDLError) -> Bool {
    let renderer = target.renderer
    var textures: [GfxShapeTexture?] = []
    swap(&textures, &frameTextures)
    var vertices: [SDL_Vertex] = []
    var indices: [Int32] = []
    swap(&vertices, &self.vertices)
    swap(&indices, &self.indices)
    defer {
      textures.removeAll(keepingCapacity: true)
      swap(&textures, &frameTextures)
      vertices.removeAll(keepingCapacity: true)
      indices.removeAll(keepingCapacity: true)
      swap(&vertices, &self.vertices)
      swap(&indices, &self.indices)
    }
    frame.caches(as: GfxShapeTexture.self, into: &textures)
    var batch: OpaquePointer?
    func flush() throws(SDLError) {
      let full = indices.count >= 6 * batchCopies
      defer {
        vertices.removeAll(keepingCapacity: true)
        indices.removeAll(keepingCapacity: true)
      }
      guard let texture = batch, !indices.isEmpty else { return }
      guard
        SDL_RenderGeometry(
          renderer, texture, vertices, Int32(vertices.count), indices, Int32(indices.count)) == 0
      else { throw SDLError("SDL_RenderGeometry") }
      if full { SDL_RenderFlush(renderer) }
    }
    let finished = try frame.forEachVisibleRing(caches: textures, in: target.region) {
      (ring, shapeTexture, _) throws(SDLError) in
      guard let texture = shapeTexture.texture else { return true }
      if texture != batch || indices.count >= 6 * batchCopies {
        if batch != nil {
          try flush()
          if shouldStop() { return false }
        }
        batch = texture
      }
      let radians = Double(ring.angle).truncatingRemainder(dividingBy: 360) * .pi / 180
      let (c, s) = (Float(cos(radians)), Float(sin(radians)))
      let h = shapeTexture.half
      let color = SDL_Color(r: ring.color.r, g: ring.color.g, b: ring.color.b, a: ring.color.a)
      let first = Int32(vertices.count)
      // The upright square (-h, -h), (h, -h), (h, h), (-h, h) about the centre, each corner
      // sampling the texture turned back by the angle (y down, clockwise).
      for (u, v) in Self.quadCorners {
        let (dx, dy) = ((2 * u - 1) * h, (2 * v - 1) * h)
        vertices.append(
          SDL_Vertex(
            position: SDL_FPoint(x: ring.centerX + dx, y: ring.centerY + dy), color: color,
            tex_coord: shapeTexture.textureCoordinate(dx: dx, dy: dy, cos: c, sin: s)))
      }
      for k in Self.quadIndices { indices.append(first + k) }
      return true
    }
    guard finished else { return false }
    try flush()
    return true
  }
}
