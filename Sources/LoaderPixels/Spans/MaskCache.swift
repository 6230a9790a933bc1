import Synchronization

/// Every coverage mask of one store's `spans` draws (a `LoaderRenderer`'s or a
/// `LoaderPixelCache`'s): one table keyed by shape, phase and sub-pixel offset over one arena
/// of chunks, stamped by the store's clock and trimmed by its policy (`CachePolicy`). The
/// Performance article and LoaderPixels' README describe the design.
///
/// - **Key**: `RingMaskShape.cacheKey(_:)`, the shape's serial above its `RingAtlasKeys` key.
/// - **Table**: open addressing with linear probing, a power of two of 24-byte slots at most
///   half full; a key's first slot is the top bits of its product with 2^64 over the golden
///   ratio (Fibonacci hashing).
/// - **Arena**: every mask's chunks, each mask contiguous, in one buffer that grows by half.
/// - **Grids**: the `RingDistanceGrid`s masks are built from, one per unit ring
///   (`RingDistanceGrid.unit(of:)`), stamped when a draw builds from them.
/// - **Clock and policy**: a slot's stamp is the draw that last used it, with
///   `CachePolicy.reusedBit` once a later draw used it again; `evict(ranksFrom:now:)` keeps
///   the masks and grids ranked before a cutoff, the masks moved into an arena and a table
///   sized to them.
package final class MaskCache {
  /// A chunk: four horizontally adjacent pixels' coverage (0...255 each, pixel 0 lowest) and
  /// their byte offset from the anchor pixel at the mask's pitch, `dy * pitch + dx * 4`; within
  /// a mask offsets ascend, and a row spans under half a pitch (`RingMaskShape.ownPitch`), so
  /// `(dy, dx)` read back from it (`position(_:pitch:)`).
  struct Chunk {
    var offset: Int32
    var coverage: SIMD4<UInt8>
  }

  /// Mask `key`'s chunks are `start ..< start + count` at `pitch`; `key` `empty`: no mask.
  /// While a draw builds it, `start` is -1 and `count` the index of its build.
  struct Slot {
    var key: UInt64
    var start: Int32
    var count: Int32
    var stamp: UInt32
    var pitch: Int32
  }

  static let empty = UInt64.max
  /// Pixels a chunk covers: one vector of the blender.
  static let chunk = 4
  static let chunkBytes = MemoryLayout<Chunk>.stride

  private(set) var slots: UnsafeMutablePointer<Slot>
  private(set) var shift: UInt64
  private(set) var slotCount: Int
  private(set) var maskCount = 0
  private(set) var chunks: UnsafeMutablePointer<Chunk>
  private(set) var chunkCapacity: Int
  private(set) var chunkCount = 0
  /// The grids masks are built from, by unit ring, with their stamps.
  var grids: [DashedRing: (grid: RingDistanceGrid, stamp: UInt32)] = [:]
  static let initialSlots = 64
  static let initialChunks = 1 << 9

  /// Masks built so far by every cache of the process (the bench's `frame/churn`).
  package static let masksBuilt = Atomic<Int>(0)

  init() {
    (slots, shift, slotCount) = Self.makeTable(Self.initialSlots)
    chunkCapacity = Self.initialChunks
    chunks = PageMemory.allocate(Chunk.self, capacity: chunkCapacity)
  }

  deinit {
    PageMemory.deallocate(slots, capacity: slotCount)
    PageMemory.deallocate(chunks, capacity: chunkCapacity)
  }

  private static func makeTable(_ count: Int) -> (UnsafeMutablePointer<Slot>, UInt64, Int) {
    let s = PageMemory.allocate(Slot.self, capacity: count)
    s.initialize(repeating: Slot(key: empty, start: 0, count: 0, stamp: 0, pitch: 0), count: count)
    return (s, UInt64(64 - count.trailingZeroBitCount), count)
  }

  /// The table as plain values, for a lookup loop (valid until a slot is added).
  struct Table {
    let slots: UnsafeMutablePointer<Slot>
    let shift: UInt64
    let wrap: Int

    @inline(__always)
    func home(_ key: UInt64) -> Int {
      Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The slot holding `key`, or the empty slot where it goes.
    @inline(__always)
    func slot(_ key: UInt64) -> UnsafeMutablePointer<Slot> {
      var i = home(key)
      while slots[i].key != key && slots[i].key != empty { i = (i + 1) & wrap }
      return slots + i
    }
  }

  var table: Table { Table(slots: slots, shift: shift, wrap: slotCount - 1) }

  /// Stores `slot` (its key not held), the table doubled first when it would be over half full.
  func add(_ slot: Slot) {
    if 2 * (maskCount + 1) > slotCount { rehash(into: 2 * slotCount, keeping: { _ in true }) }
    table.slot(slot.key).pointee = slot
    maskCount += 1
  }

  /// Appends `count` chunks from `source` to the arena at `pitch`: their start.
  func append(_ source: UnsafePointer<Chunk>, count: Int) -> Int {
    if chunkCount + count > chunkCapacity {
      let capacity = max(chunkCount + count, chunkCapacity + chunkCapacity / 2)
      let bigger = PageMemory.allocate(Chunk.self, capacity: capacity)
      bigger.update(from: chunks, count: chunkCount)
      PageMemory.deallocate(chunks, capacity: chunkCapacity)
      (chunks, chunkCapacity) = (bigger, capacity)
    }
    (chunks + chunkCount).update(from: source, count: count)
    chunkCount += count
    return chunkCount - count
  }

  /// Chunk offset `o`'s row and column from the anchor pixel, at `pitch`.
  @inline(__always)
  static func position(_ o: Int32, pitch: Int) -> (dy: Int, dx: Int) {
    let t = Int(o) + pitch / 2
    let dy = t >= 0 ? t / pitch : -((pitch - 1 - t) / pitch)
    return (dy, (Int(o) - dy * pitch) / 4)
  }

  /// Stores the chunks of `slot`'s mask at `pitch` instead (a target of another width).
  func repitch(_ slot: UnsafeMutablePointer<Slot>, to pitch: Int) {
    let old = Int(slot.pointee.pitch)
    let start = Int(slot.pointee.start)
    for k in start..<(start + Int(slot.pointee.count)) {
      let (dy, dx) = Self.position(chunks[k].offset, pitch: old)
      chunks[k].offset = Int32(dy * pitch + dx * 4)
    }
    slot.pointee.pitch = Int32(pitch)
  }

  /// Arena, table and grids, as allocated.
  var bytes: Int {
    grids.values.reduce(chunkCapacity * Self.chunkBytes + slotCount * MemoryLayout<Slot>.stride) {
      $0 + $1.grid.bytes
    }
  }

  /// Adds each mask's and grid's bytes to `histogram` at its rank (`CachePolicy.rank(_:now:)`).
  func addRanks(into histogram: inout [Int], now: UInt32) {
    for g in grids.values { histogram[CachePolicy.rank(g.stamp, now: now)] += g.grid.bytes }
    for i in 0..<slotCount where slots[i].key != Self.empty {
      histogram[CachePolicy.rank(slots[i].stamp, now: now)] += Int(slots[i].count) * Self.chunkBytes
    }
  }

  /// Keeps the masks and grids ranked before `cutoff`, the masks in an arena and a table sized
  /// to them.
  func evict(ranksFrom cutoff: Int, now: UInt32) {
    grids = grids.filter { CachePolicy.rank($0.value.stamp, now: now) < cutoff }
    let keep = { (s: Slot) in CachePolicy.rank(s.stamp, now: now) < cutoff }
    var (kept, masks) = (0, 0)
    for i in 0..<slotCount where slots[i].key != Self.empty && keep(slots[i]) {
      kept += Int(slots[i].count)
      masks += 1
    }
    let old = (chunks, chunkCapacity)
    chunkCapacity = max(Self.initialChunks, kept + kept / 8)
    chunks = PageMemory.allocate(Chunk.self, capacity: chunkCapacity)
    chunkCount = 0
    var table = Self.initialSlots
    while table < 2 * masks { table *= 2 }
    rehash(into: table) { s in
      guard keep(s) else { return false }
      s.start = Int32(self.append(old.0 + Int(s.start), count: Int(s.count)))
      return true
    }
    PageMemory.deallocate(old.0, capacity: old.1)
  }

  /// A table of `count` slots holding the masks `keep` says (it may move their chunks).
  private func rehash(into count: Int, keeping keep: (inout Slot) -> Bool) {
    let (old, oldCount) = (slots, slotCount)
    (slots, shift, slotCount) = Self.makeTable(count)
    maskCount = 0
    for i in 0..<oldCount where old[i].key != Self.empty {
      var s = old[i]
      guard keep(&s) else { continue }
      table.slot(s.key).pointee = s
      maskCount += 1
    }
    PageMemory.deallocate(old, capacity: oldCount)
  }
}

/// One shape's masks as the blender reads them in a draw: the arena, the pitch the shape's
/// offsets are at, and how far its masks reach. Plain values, so no exclusivity check runs
/// per access; valid until the next mask is built or the cache is trimmed.
struct ShapeMasks {
  let chunks: UnsafeMutablePointer<MaskCache.Chunk>
  let pitch: Int
  /// The shape's `reach` and `rowReach` (`RingMaskShape`).
  let reach: Int
  let rowReach: Int

  /// Chunk `k`'s row and column from the anchor pixel.
  @inline(__always)
  func position(_ k: Int) -> (dy: Int, dx: Int) {
    MaskCache.position(chunks[k].offset, pitch: pitch)
  }

  /// Chunk `k`'s four blend weights `a = c + c >> 7` (0...256) from its coverage `c`.
  @inline(__always)
  func weights(_ k: Int) -> SIMD4<UInt16> {
    let c = SIMD4<UInt16>(truncatingIfNeeded: chunks[k].coverage)
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
      if Int(chunks[mid].offset) < threshold { lo = mid + 1 } else { hi = mid }
    }
    return lo
  }
}
