import Foundation
import LoaderCore
import Synchronization

/// The antialiased coverage of one ring shape (pixel units) at every rotation phase and
/// sub-pixel offset, stored as runs of 8-bit coverage and built the first time a phase is
/// drawn. Only rotation and position change between rings of one shape, so a frame of many
/// rings is a frame of copies of a few masks.
///
/// A mask is keyed by `(phase, sx, sy)`:
/// ```
/// phase = round(angle / 2 pi * phases) mod phases,  phases = ceil(2 pi (r + w/2 + 1) / 0.2)
/// q     = round(center * S),  pixel = floor(q / S),  s = q - pixel * S      (S = 8)
/// key   = (sy * S + sx) << phaseBits | phase
/// ```
/// so the rotation moves the outermost ink by at most 0.1 px from the exact angle and the
/// centre by at most `1 / (2 S)` px from the exact position; rings under 8 pixels across take
/// `S = 4` (`defaultSubpixelSteps(for:)`). Finding a mask is one load in the common case: its
/// key's slot in a hash table of the masks held (`KeyTable`, 16 bytes a slot, at most half
/// full), so the keys cost what the masks held need, not `phases` entries for every sub-pixel
/// offset drawn (a ring turning visits a few dozen of its hundreds of phases). Masks past
/// `budgetBytes` are dropped between frames and rebuilt on demand; `bytes` counts every
/// buffer as allocated, and `shed()` hands all but the smallest back (`ShapeStore` calls it
/// when a draw's own shapes exceed its budget).
///
/// Coverage of a pixel is `DashedRing.DistanceTable.coverage(x:y:)` at its centre:
/// `DashedRing`'s rule, `clamp(min(1/2 - d, 2 h), 0, 1)` with `d` the signed distance from the
/// pixel's centre to the stroke (in pixels) and `h` its half width, averaged over the pixel's
/// four quarters for strokes under 2 pixels wide; rings under 8 pixels across keep the
/// one-pixel box (`DistanceTable.boxCoverage(x:y:)`). The box is exact for an edge along a
/// pixel axis, within a few percent of the box-filtered area elsewhere. Once a shape's masks
/// have cost as many exact evaluations as its `RingDistanceGrid`, later masks read the distance
/// from that grid instead (within 40 dB of the exact masks; `DistanceGridUse`). Building masks
/// is `RingCoverageAtlas+Masks.swift`; this file holds the store.
package final class RingCoverageAtlas {
  let shape: DashedRing
  let keys: RingAtlasKeys
  var phases: Int { keys.phases }
  var subpixelSteps: Int { keys.subpixelSteps }
  /// No chunk reaches further than this many pixels from the anchor pixel, in any direction:
  /// a ring is culled or clipped by its anchor alone.
  let reach: Int
  /// No chunk lies more than this many rows above or below the anchor pixel's row: a mask
  /// keeps the rows whose centre lies within `outer` (the ink's outer radius plus a pixel of
  /// fringe) of the ring's centre, so `ceil(outer + 1/2)` rows each way, far less than
  /// `reach` (which adds a chunk's width for the columns) for a small ring. The bands
  /// schedule and clip a ring by it, so fewer rings straddle two bands (Benchmarks/README.md,
  /// "Loaders anywhere").
  let rowReach: Int
  /// Stored masks stop growing past this many bytes: the next frame starts afresh.
  let budgetBytes: Int

  /// A chunk: four horizontally adjacent pixels starting `dx, dy` from the ring's anchor
  /// pixel, the blender's unit (one vector of four pixels), in one 8-byte record: its byte
  /// offset from the anchor pixel in a target `pitch` bytes a row (`dy * pitch + dx * 4`, so
  /// the address is one add; within a mask these ascend, and `dy, dx` read back from it
  /// (`Storage.position(_:)`), since a row spans under half of `pitch`: `use(pitch:)`) and
  /// its four pixels' coverage `c` (0...255), `c0 c1 c2 c3`,
  /// one byte each, which the blender turns into the weight `a = c + c >> 7` (0...256,
  /// `Storage.weights(_:)`) and doubles into its two 16-bit colour lanes.
  ///
  /// Together, a mask is one run of memory that the blender asks for whole a few rings
  /// ahead (`BandedFrame`): a frame of moving rings reads its masks from all over a store of
  /// tens of megabytes, so each mask should cost as few cache lines as it can.
  struct Blend {
    var offset: Int32
    var coverage: SIMD4<UInt8>
  }

  /// Every built mask's chunks, row by row (`dy` ascending), each mask contiguous.
  var blends: UnsafeMutablePointer<Blend>
  /// The row pitch the offsets in `blends` are for: the target's (`use(pitch:)`), or
  /// `ownPitch` before the first target and for a target too narrow or too wide for it.
  private(set) var pitch: Int
  /// The target's pitch, as `use(pitch:)` last gave it (0 before).
  private var targetPitch = 0
  /// Whether the offsets are at the target's pitch, so the unclipped blender may add them to
  /// an address (false for a target narrower than the ring or absurdly wide: those rings take
  /// the clipped path, which reads `dy, dx` back).
  private(set) var offsetsFit = false
  /// The smallest pitch the offsets are stored at: a row of the mask spans under half of it,
  /// so `dy, dx` can be read back from an offset (and within a mask offsets ascend).
  var ownPitch: Int { 8 * (reach + 2) }
  var chunkCapacity: Int
  var chunkCount = 0
  /// A slot of `KeyTable`: mask `key`'s chunks are `start ..< start + count` (`key` -1: the
  /// slot is empty). `stamp`: the atlas's `frame` when a draw last used it, with `freshBit` set
  /// while it has not been used again since it was built (a hit stores the bare `frame`;
  /// recycling ranks masks by both: `CacheAge`). Read and stamped in one cache line.
  struct MaskSpan {
    var key: Int32
    var start: Int32
    var count: Int32
    var stamp: UInt32
    static let empty = MaskSpan(key: -1, start: -1, count: 0, stamp: 0)
  }

  /// The masks held, by key: open addressing with linear probing, `wrap + 1` slots (a power of
  /// two, at most half of them used: `maskCount`), a key's first slot the top bits of its
  /// product with the golden ratio's 32 bits (Fibonacci hashing: keys of nearby phases and
  /// offsets spread over the table).
  struct KeyTable {
    let slots: UnsafeMutablePointer<MaskSpan>
    /// Slots minus one.
    let wrap: Int
    /// `32 - log2(slots)`.
    let shift: UInt32

    /// The slot a probe for `key` starts at.
    @inline(__always)
    func home(_ key: Int) -> Int {
      Int((UInt32(truncatingIfNeeded: key) &* 0x9E37_79B9) >> shift)
    }

    /// The slot holding `key`, or the empty slot where it would go.
    @inline(__always)
    func slot(_ key: Int) -> UnsafeMutablePointer<MaskSpan> {
      let k = Int32(truncatingIfNeeded: key)
      var i = home(key)
      while true {
        let held = slots[i].key
        if held == k || held < 0 { return slots + i }
        i = (i + 1) & wrap
      }
    }

    var capacity: Int { wrap + 1 }

    /// Stores `mask` in its key's slot (the key not held yet, or held and replaced).
    @inline(__always)
    func insert(_ mask: MaskSpan) { slot(Int(mask.key)).pointee = mask }

    /// An empty table of `capacity` slots (a power of two, at least 2).
    static func make(capacity: Int) -> KeyTable {
      let slots = PageMemory.allocate(MaskSpan.self, capacity: capacity)
      slots.initialize(repeating: .empty, count: capacity)
      return KeyTable(
        slots: slots, wrap: capacity - 1,
        shift: UInt32(32 - (Int.bitWidth - 1 - capacity.leadingZeroBitCount)))
    }

    func free() { PageMemory.deallocate(slots, capacity: capacity) }

    /// Slots for `masks` masks: a power of two at least twice as many, and `initialSlots`.
    static func capacity(for masks: Int) -> Int {
      let needed = max(initialSlots, 2 * masks)
      return 1 << (Int.bitWidth - (needed - 1).leadingZeroBitCount)
    }

    /// Slots a table starts with (1 KiB).
    static let initialSlots = 64
  }
  /// Frames this atlas has been drawn in (`beginFrame()`), modulo 2^31: the clock of the
  /// masks' stamps.
  private(set) var frame: UInt32 = 1
  /// A stamp's bit for a mask built and not drawn again since (above every `frame`).
  static let freshBit: UInt32 = 1 << 31
  /// The masks held, by key.
  var maskTable = KeyTable.make(capacity: KeyTable.initialSlots)
  /// Masks held (used slots of `maskTable`).
  var maskCount = 0

  /// Every run is a whole number of this many pixels (one vector of the blender).
  static let chunk = 4
  /// One row's coverage while a mask is built.
  var rowScratch: [UInt8]
  /// The shape's signed distance, for building masks.
  let table: DashedRing.DistanceTable
  /// How masks read the shape's distance (`distanceGridForNextMask()`).
  let gridUse: DistanceGridUse
  /// The shape's distance on a grid, once masks built the exact way have cost as much as
  /// making it (`distanceGridForNextMask()`); nil before, and for shapes too large for one.
  private(set) var grid: RingDistanceGrid?
  /// Exact evaluations of the distance masks have made since the grid was last dropped
  /// (a pixel of a box mask counts 1, of a quartered one 2).
  var exactSamples = 0
  /// What the grid would cost in exact evaluations; nil when the shape takes none.
  let gridCost: Int?

  /// When masks read the distance from a `RingDistanceGrid` instead of evaluating it.
  package enum DistanceGridUse: Sendable {
    /// Once the exact evaluations of this shape's masks have cost as much as the grid (a
    /// shape drawn a few times never pays for one; one drawn at many rotations pays once).
    case whenItPays
    /// From the first mask (tests).
    case always
    /// Never: every mask by the exact rule (tests' reference).
    case never
  }

  /// Sub-pixel steps a side for `shape`: 8, or 4 for a ring under 8 pixels across (outer
  /// radius under 4 px). Below that size no ring is held to Cairo's picture, and four times
  /// fewer masks keep a frame of many small moving rings (every offset drawn) in the caches:
  /// a centre then moves by up to 1/8 px instead of 1/16.
  static func defaultSubpixelSteps(for shape: DashedRing) -> Int {
    shape.radius + shape.halfWidth < smallRingRadius ? 4 : 8
  }

  /// Outer radius, pixels, under which a ring counts as small (`defaultSubpixelSteps(for:)`,
  /// `LoaderField.ShapeBuckets`).
  static let smallRingRadius = 4.0

  /// The widest ring the store takes, in pixels from centre to outer edge. Chunk offsets are
  /// 32-bit (`Blend.offset` at `ownPitch`), a key's phase fits in `phaseBits`; one mask at
  /// this size is about 11 MB.
  package static let maximumRadius = 2048.0

  /// `subpixelSteps`: nil for `defaultSubpixelSteps(for:)`.
  package init(
    shape: DashedRing, subpixelSteps: Int? = nil, budgetBytes: Int = 64 << 20,
    distanceGrid: DistanceGridUse = .whenItPays
  ) {
    let subpixelSteps = subpixelSteps ?? Self.defaultSubpixelSteps(for: shape)
    self.shape = shape
    let outer = shape.radius + shape.halfWidth + 1
    keys = RingAtlasKeys(reach: outer, subpixelSteps: subpixelSteps)
    reach = Int(outer.rounded(.up)) + 2 + Self.chunk
    rowReach = Int((outer + 0.5).rounded(.up))
    // A row and 8 bytes more: the grid writes whole fours and the chunk scan reads eights.
    rowScratch = [UInt8](repeating: 0, count: 2 * reach + 10)
    self.budgetBytes = budgetBytes
    precondition(
      keys.phases <= Self.phaseMask + 1 && subpixelSteps <= 8,
      "maximumRadius keeps a key in 32 bits")
    chunkCapacity = Self.initialChunkCapacity
    blends = PageMemory.allocate(Blend.self, capacity: chunkCapacity)
    pitch = 8 * (reach + 2)
    precondition(pitch * (rowReach + 1) <= Int(Int32.max), "maximumRadius keeps offsets in 32 bits")
    table = DashedRing.DistanceTable(shape)
    gridUse = distanceGrid
    gridCost = table.isEmpty ? nil : RingDistanceGrid.exactNodes(of: shape)
  }

  /// The grid the next mask reads its distances from: nil while the exact rule is cheaper
  /// (`DistanceGridUse`), made when it stops being.
  func distanceGridForNextMask() -> RingDistanceGrid.Reader? {
    if let grid { return grid.reader }
    guard let gridCost, gridUse != .never, gridUse == .always || exactSamples >= gridCost
    else { return nil }
    grid = RingDistanceGrid(shape, table: table)
    return grid?.reader
  }

  /// Drops the grid (`shed()`): it is made again once masks have paid for it again.
  func dropDistanceGrid() {
    grid = nil
    exactSamples = 0
  }

  deinit {
    maskTable.free()
    PageMemory.deallocate(blends, capacity: chunkCapacity)
  }

  /// Stores every chunk's offset at the pitch of a target `newPitch` bytes a row, when it is at
  /// least `ownPitch` and the offsets fit in 32 bits (`offsetsFit`), else at `ownPitch`: the
  /// offsets are recomputed when that changes (a new target size: rare, so its cost is paid
  /// once, not per frame).
  func use(pitch newPitch: Int) {
    guard newPitch != targetPitch else { return }
    targetPitch = newPitch
    offsetsFit = newPitch >= ownPitch && (rowReach + 1) * newPitch <= Int(Int32.max)
    let stored = offsetsFit ? newPitch : ownPitch
    guard stored != pitch else { return }
    let old = storage
    for k in 0..<chunkCount {
      let (dy, dx) = old.position(k)
      blends[k].offset = Int32(dy * stored + dx * 4)
    }
    pitch = stored
  }

  /// The stored masks' arrays as they are now, for a blender to read without a runtime
  /// exclusivity check per access (locals: see the README). Valid until the next mask is
  /// built or the store is trimmed.
  struct Storage {
    let blends: UnsafeMutablePointer<Blend>
    /// The pitch the offsets are at (the atlas's `pitch`).
    let pitch: Int
    /// The atlas's `reach`.
    let reach: Int
    /// The atlas's `rowReach`.
    let rowReach: Int

    /// Chunk `k`'s row and column from the anchor pixel, read back from its offset (a row's
    /// offsets lie within half a pitch of `dy * pitch`: `ownPitch`).
    @inline(__always)
    func position(_ k: Int) -> (dy: Int, dx: Int) {
      let o = Int(blends[k].offset)
      let t = o + pitch / 2
      let dy = t >= 0 ? t / pitch : -((pitch - 1 - t) / pitch)
      return (dy, (o - dy * pitch) / 4)
    }

    /// Chunk `k`'s four blend weights `a = c + c >> 7` (0...256) from its coverage `c`.
    @inline(__always)
    func weights(_ k: Int) -> SIMD4<UInt16> {
      let c = SIMD4<UInt16>(truncatingIfNeeded: blends[k].coverage)
      return c &+ (c &>> 7)
    }

    /// The first chunk of `range` (one mask) whose offset is at least `threshold`: offsets
    /// ascend within a mask, so a row boundary is a binary search away.
    @inline(__always)
    func firstChunk(in range: Range<Int>, offsetAtLeast threshold: Int) -> Int {
      var lo = range.lowerBound
      var hi = range.upperBound
      while lo < hi {
        let mid = (lo + hi) >> 1
        if Int(blends[mid].offset) < threshold { lo = mid + 1 } else { hi = mid }
      }
      return lo
    }
  }

  var storage: Storage {
    Storage(blends: blends, pitch: pitch, reach: reach, rowReach: rowReach)
  }

  /// Bytes allocated for masks: the chunk buffers' capacity (a `Blend` record a chunk), the
  /// key table, the build's scratch, the distance table and grid.
  var allocatedBytes: Int {
    chunkCapacity * Self.chunkBytes + maskTable.capacity * MemoryLayout<MaskSpan>.stride
      + rowScratch.capacity + table.bytes + (grid?.bytes ?? 0)
  }

  /// Starts a frame (between frames only: chunk indices handed out earlier may go stale):
  /// when the stored chunks pass `budgetBytes`, masks go in `CacheAge`'s order until about
  /// three quarters of it are left (`recycle(toFit:)`); then the stamp clock ticks.
  func beginFrame() {
    if chunkCount * Self.chunkBytes > budgetBytes { recycle(toFit: budgetBytes * 3 / 4) }
    frame = (frame &+ 1) & ~Self.freshBit
  }

  /// Bytes a stored chunk takes: its `Blend` record.
  static let chunkBytes = MemoryLayout<Blend>.stride

  /// Forgets every mask (between frames only, as `beginFrame()`); with
  /// `releasingStorage`, the chunk buffers and the key table go back to their first size, so
  /// the memory returns to the system.
  func forgetMasks(releasingStorage: Bool = true) {
    chunkCount = 0
    maskCount = 0
    replaceTable(capacity: releasingStorage ? KeyTable.initialSlots : maskTable.capacity)
    guard releasingStorage, chunkCapacity > Self.initialChunkCapacity else { return }
    PageMemory.deallocate(blends, capacity: chunkCapacity)
    chunkCapacity = Self.initialChunkCapacity
    blends = PageMemory.allocate(Blend.self, capacity: chunkCapacity)
  }

  /// An empty key table of `capacity` slots in place of the current one (whose masks are
  /// forgotten): the same one cleared when it has that many.
  private func replaceTable(capacity: Int) {
    guard capacity != maskTable.capacity else {
      maskTable.slots.update(repeating: .empty, count: capacity)
      return
    }
    maskTable.free()
    maskTable = KeyTable.make(capacity: capacity)
  }

  /// Bits of a key below its sub-pixel offset: a phase index fits (`maximumRadius`), and with
  /// at most 8 x 8 offsets a key fits in 23 bits.
  static let phaseBits = 17
  static let phaseMask = (1 << phaseBits) - 1

  /// Masks built so far by every atlas of the process (the bench's `frame/churn` reads it per
  /// frame).
  package static let masksBuilt = Atomic<Int>(0)

  /// Chunks the buffers start with: a few masks of a mid-sized ring, so a shape drawn once
  /// costs little.
  static let initialChunkCapacity = 1 << 9

  /// The phase index of `degrees` (any finite value).
  @inline(__always)
  func phase(ofDegrees degrees: Float) -> Int { keys.phase(ofDegrees: degrees) }

  /// Chunks of the mask for `key` (see `key(phase:sx:sy:)`), building it first if needed.
  @inline(__always)
  func mask(_ key: Int) -> (start: Int, count: Int) {
    let entry = maskTable.slot(key)
    let m = entry.pointee
    if m.key >= 0 {
      entry.pointee.stamp = frame
      return (Int(m.start), Int(m.count))
    }
    return buildMask(key)
  }

  @inline(__always)
  func key(phase: Int, sx: Int, sy: Int) -> Int {
    (sy * subpixelSteps + sx) << Self.phaseBits | phase
  }

  /// Records that `key`'s mask (not held yet) is chunks `start ..< start + count`, the key
  /// table doubled first when it would be more than half full.
  func setMask(_ key: Int, start: Int, count: Int) {
    if 2 * (maskCount + 1) > maskTable.capacity {
      let old = maskTable
      maskTable = KeyTable.make(capacity: 2 * old.capacity)
      for i in 0..<old.capacity where old.slots[i].key >= 0 { maskTable.insert(old.slots[i]) }
      old.free()
    }
    maskTable.insert(
      MaskSpan(
        key: Int32(key), start: Int32(start), count: Int32(count), stamp: frame | Self.freshBit))
    maskCount += 1
    Self.masksBuilt.wrappingAdd(1, ordering: .relaxed)
  }

  /// Makes room for `extra` more chunks past the last one (growing the buffers by half, so a
  /// run of masks moves them a few times only, and the room they hold unused stays within a
  /// third of them: the store counts it).
  func reserveChunks(_ extra: Int) {
    let needed = chunkCount + extra
    guard needed > chunkCapacity else { return }
    let capacity = max(needed, chunkCapacity + chunkCapacity / 2)
    let biggerBlends = PageMemory.allocate(Blend.self, capacity: capacity)
    biggerBlends.update(from: blends, count: chunkCount)
    PageMemory.deallocate(blends, capacity: chunkCapacity)
    blends = biggerBlends
    chunkCapacity = capacity
  }
}

extension RingCoverageAtlas: RingShapeCache {
  /// Every buffer as allocated (`allocatedBytes`).
  package var bytes: Int { allocatedBytes }
  package var cullingReach: Float { Float(reach) }
  /// Forgets every mask and frees the buffers beyond their first size.
  package func shed() {
    forgetMasks(releasingStorage: true)
    dropDistanceGrid()
  }
  package func addAges(into histogram: inout [Int]) { addMaskAges(into: &histogram) }
  package func recycle(keepingRanksBelow rank: Int) { keepMasks(rankedBelow: rank) }
}
