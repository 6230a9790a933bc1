import CSwiftLoaderSDL2
import LoaderCore

/// One ring shape painted by SDL2_gfx at every rotation phase and sub-pixel offset it is
/// drawn at, as cells of white-coverage textures on one software renderer
/// (`GfxRingRasterizer`'s cache there; an accelerated renderer takes a `GfxShapeTexture`). A
/// cell is painted the first time a ring needs it, then copied as often as rings ask.
///
/// A ring's cell is keyed by `(phase, sx, sy)`:
/// ```
/// phase = round(angle / 360 * phases) mod phases,  phases = max(64, ceil(2 pi (r + w/2) / 0.2))
/// q     = round(center * S),  anchor = floor(q / S),  s = q - anchor * S      (S = 4)
/// ```
/// so the rotation moves the outermost ink at most 0.1 px from the exact angle and the centre
/// at most `1 / (2 S)` px from the exact position (rings at whole or half pixels land
/// exactly). The cell holds the ring centred at `(origin + sx / S, origin + sy / S)`, with
/// `origin` leaving room for the antialiased fringe at every offset
/// (`DashedRing.DistanceTable.fringeReach(halfWidth:)`); the cell's side is `2 origin + 1`.
///
/// Cells are painted on demand within the shape's share of the budget (`fit(toBytes:)`), in
/// textures one cell wide, so a cell's rows lie next to each other and its copy reads one
/// compact block. Rings on whole pixels need one offset's `phases` cells; free positions up to
/// `S^2` times as many. When every slot is taken, the cell `CachePolicy` ranks last is painted
/// over, so a frame needing more cells than fit is correct, only slower.
final class GfxAtlas: RingShapeCache {
  /// Where one painted cell lies in its page, and which of its rectangles (`GfxAtlasStrips`)
  /// hold its ink.
  struct Cell {
    var page: Int32
    /// The cell's top-left pixel in its page.
    var x: Int32
    var y: Int32
    /// Its rectangles are `rects[firstRect ..< firstRect + rectCount]`, `(x, y, w, h)` from
    /// the cell's top-left pixel; none when the ring left no ink.
    var firstRect: Int32
    var rectCount: Int32
  }

  let shape: DashedRing
  let renderer: OpaquePointer
  let keys: RingPoseKeys
  var phases: Int { keys.phases }
  var subpixelSteps: Int { keys.subpixelSteps }
  /// The ring's centre sits `origin + s / S` pixels from a cell's top-left corner.
  let origin: Int
  let cellSide: Int
  /// Cells of a page, stacked in one column.
  private(set) var cellsPerPage = 0
  /// How many cells it paints at most (at most one per key): its share of the budget now
  /// (`fit(toBytes:)`).
  private(set) var capacity = 0
  /// Bytes it paints within whatever its share (tests of recycling).
  let maximumBytes: Int
  /// The tallest page the renderer takes.
  private let maximumPageSide: Int

  private let painter: GfxAtlasCellPainter
  private var strips = GfxAtlasStrips()
  private var pages: [OpaquePointer] = []
  /// Per page, the colour (`0xAARRGGBB`) its modulation is set to, so a change costs two SDL
  /// calls and a repeat none.
  private var tints: [UInt32] = []
  private let keyCount: Int
  /// Per key, its slot, or -1 when not painted.
  private let slotOfKey: UnsafeMutablePointer<Int32>
  /// Per slot, the key it holds, or -1.
  private var keyOfSlot = UnsafeMutablePointer<Int32>.allocate(capacity: 0)
  private var cells = UnsafeMutablePointer<Cell>.allocate(capacity: 0)
  /// `maximumRects` per slot.
  private(set) var rects = UnsafeMutablePointer<SIMD4<Int32>>.allocate(capacity: 0)
  /// Per slot, the store's clock when a draw last used it (`CachePolicy.rank(_:now:)`).
  private var stamps = UnsafeMutablePointer<UInt32>.allocate(capacity: 0)
  /// Slots painted so far (at most `capacity`).
  private var usedSlots = 0

  /// The largest ring (centre to outer edge, pixels) an atlas takes.
  static let maximumReach = 1024.0

  /// A cell cut into more rectangles than this is copied whole (the ink's bounding box).
  static let maximumRects = 32
  /// What one more copy costs, in blended pixels: the software renderer sets up and clips
  /// each rectangle and blends pixel by pixel on the CPU, so skipping a cell's empty middle
  /// pays.
  static let copyOverheadPixels = 16

  init(
    shape: DashedRing, renderer: OpaquePointer, traits: RendererTraits? = nil,
    subpixelSteps: Int = 4, budgetBytes: Int = 64 << 20, maximumBytes: Int = .max
  ) throws(SDLError) {
    let traits = traits ?? RendererTraits(of: renderer)
    let reach = shape.radius + shape.halfWidth
    // A cell is `2 ceil(reach + 1/2) + 1` pixels a side, painted on the CPU in a surface of
    // its own: at `maximumReach` that is 2051 pixels, 16 MiB, a bounded paint.
    guard reach.isFinite, reach > 0, reach <= Self.maximumReach else {
      throw SDLError(
        "gfx backend",
        message: "ring radius \(reach) px exceeds the gfx backend's limit of"
          + " \(Int(Self.maximumReach)) px", reason: .tooLarge)
    }
    self.shape = shape
    self.renderer = renderer
    self.maximumBytes = maximumBytes
    keys = RingPoseKeys(reach: reach, subpixelSteps: subpixelSteps)
    let fringe = DashedRing.DistanceTable.fringeReach(halfWidth: shape.halfWidth)
    origin = Int((reach + fringe).rounded(.up))
    cellSide = 2 * origin + 1
    // The software renderer reports no limit (0); columns of 256 cells stay modest.
    let reported = traits.maximumTextureSide
    let maxSide = reported > 0 ? reported : 256 * cellSide
    guard cellSide <= maxSide else {
      throw SDLError(
        "GfxAtlas", message: "cell of \(cellSide) px exceeds the renderer's \(maxSide) px textures",
        reason: .tooLarge)
    }
    maximumPageSide = maxSide
    keyCount = keys.count
    painter = try GfxAtlasCellPainter(side: cellSide)
    slotOfKey = .allocate(capacity: keyCount)
    slotOfKey.initialize(repeating: -1, count: keyCount)
    fit(toBytes: budgetBytes)
  }

  /// Paints within `bytes` of cells from now on (and `maximumBytes`; one cell at least, one a
  /// key at most). A new capacity lets every painted cell go: rings paint them again.
  func fit(toBytes bytes: Int) {
    let cells = min(keyCount, max(1, min(bytes, maximumBytes) / (cellSide * cellSide * 4)))
    guard cells != capacity else { return }
    close()
    deallocateSlots()
    capacity = cells
    // A page holds no more cells than the atlas may keep.
    cellsPerPage = min(256, maximumPageSide / cellSide, capacity)
    keyOfSlot = .allocate(capacity: capacity)
    keyOfSlot.initialize(repeating: -1, count: capacity)
    self.cells = .allocate(capacity: capacity)
    stamps = .allocate(capacity: capacity)
    rects = .allocate(capacity: capacity * Self.maximumRects)
  }

  private func deallocateSlots() {
    keyOfSlot.deallocate()
    cells.deallocate()
    stamps.deallocate()
    rects.deallocate()
  }

  /// Destroys the page textures now (their renderer is going); painting starts afresh if the
  /// atlas is used again.
  func close() {
    for p in pages { SDL_DestroyTexture(p) }
    pages.removeAll()
    tints.removeAll()
    slotOfKey.update(repeating: -1, count: keyCount)
    keyOfSlot.update(repeating: -1, count: capacity)
    usedSlots = 0
  }

  deinit {
    for p in pages { SDL_DestroyTexture(p) }
    slotOfKey.deallocate()
    deallocateSlots()
  }

  /// Bytes of texture held now.
  var textureBytes: Int { pages.count * cellsPerPage * cellSide * cellSide * 4 }

  /// Textures, the painter's surface and the cell tables.
  var bytes: Int {
    textureBytes + painter.bytes + keyCount * 4
      + capacity * (4 + MemoryLayout<Cell>.stride + Self.maximumRects * 16)
  }

  /// The cell's box reaches `origin + 1` pixels from the centre at most.
  var cullingReach: Float { Float(origin + 1) }

  /// The phase index of `degrees` (any finite value).
  @inline(__always)
  func phase(ofDegrees degrees: Float) -> Int { keys.phase(ofDegrees: degrees) }

  @inline(__always)
  func key(phase: Int, sx: Int, sy: Int) -> Int { keys.key(phase: phase, sx: sx, sy: sy) }

  /// The cell for `key`, painting it first if it is not in the atlas, stamped `now`.
  @inline(__always)
  func cell(_ key: Int, now: UInt32) throws(SDLError) -> Cell {
    let slot = Int(slotOfKey[key])
    guard slot >= 0 else { return try paint(key, now: now) }
    stamps[slot] = CachePolicy.used(stamps[slot], at: now)
    return cells[slot]
  }

  /// The slot a new cell takes: a free one, else the one `CachePolicy` ranks last.
  private func freeSlot(now: UInt32) -> Int {
    guard usedSlots == capacity else {
      usedSlots += 1
      return usedSlots - 1
    }
    var (worst, rank) = (0, -1)
    for s in 0..<capacity where CachePolicy.rank(stamps[s], now: now) > rank {
      (worst, rank) = (s, CachePolicy.rank(stamps[s], now: now))
    }
    return worst
  }

  /// The page texture `cell` lives in, its modulation set to `color`.
  @inline(__always)
  func page(of cell: Cell, tintedTo color: RGBAColor) -> OpaquePointer {
    let p = Int(cell.page)
    let texture = pages[p]
    let argb =
      UInt32(color.a) << 24 | UInt32(color.r) << 16 | UInt32(color.g) << 8 | UInt32(color.b)
    if tints[p] != argb {
      tints[p] = argb
      SDL_SetTextureColorMod(texture, color.r, color.g, color.b)
      SDL_SetTextureAlphaMod(texture, color.a)
    }
    return texture
  }

  private func paint(_ key: Int, now: UInt32) throws(SDLError) -> Cell {
    let s = subpixelSteps
    let (phase, sx, sy) = keys.decode(key)
    let slot = freeSlot(now: now)
    stamps[slot] = now
    if keyOfSlot[slot] >= 0 { slotOfKey[Int(keyOfSlot[slot])] = -1 }
    let perPage = cellsPerPage
    let page = slot / perPage
    while pages.count <= page { try addPage() }
    let degrees = Float(Double(phase) * 360 / Double(phases))
    let painting = try painter.paint(
      shape, degrees: degrees, centerX: Float(origin) + Float(sx) / Float(s),
      centerY: Float(origin) + Float(sy) / Float(s))
    let inPage = slot % perPage
    let x0: Int32 = 0
    let y0 = Int32(inPage * cellSide)
    var whole = SDL_Rect(x: x0, y: y0, w: Int32(cellSide), h: Int32(cellSide))
    guard SDL_UpdateTexture(pages[page], &whole, painting.pixels, Int32(painting.pitch)) == 0
    else { throw SDLError("SDL_UpdateTexture") }
    strips.cover(
      painting.pixels, pitch: painting.pitch, ink: painting.ink,
      overhead: Self.copyOverheadPixels)
    let first = slot * Self.maximumRects
    var count = 0
    if strips.rects.count > Self.maximumRects {
      let r = painting.ink
      rects[first] = SIMD4(r.x, r.y, r.w, r.h)
      count = 1
    } else {
      for r in strips.rects {
        rects[first + count] = SIMD4(r.x, r.y, r.w, r.h)
        count += 1
      }
    }
    let cell = Cell(
      page: Int32(page), x: x0, y: y0, firstRect: Int32(first), rectCount: Int32(count))
    cells[slot] = cell
    keyOfSlot[slot] = Int32(key)
    slotOfKey[key] = Int32(slot)
    return cell
  }

  private func addPage() throws(SDLError) {
    let side = Int32(cellSide)
    let height = Int32(cellsPerPage * cellSide)
    guard
      let t = SDL_CreateTexture(
        renderer, SDL_PIXELFORMAT_ARGB8888.rawValue, Int32(SDL_TEXTUREACCESS_STATIC.rawValue),
        side, height)
    else { throw SDLError("SDL_CreateTexture(\(side)x\(height))") }
    // Copies are 1:1 onto whole pixels; nearest sampling keeps a GPU from blurring them.
    SDL_SetTextureScaleMode(t, SDL_ScaleModeNearest)
    SDL_SetTextureBlendMode(t, SDL_BLENDMODE_BLEND)
    pages.append(t)
    tints.append(0xFFFF_FFFF)
  }
}
