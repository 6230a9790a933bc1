import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every mask of one `ShapeStore`: one table keyed by shape and mask key
/// (`RingMaskShape.cacheKey(_:)`; open addressing, linear probing, Fibonacci hashing, at most
/// half full) over one arena of chunks (mapped pages, doubled when full, compacted in place;
/// `bytes` counts the pages touched), and the distance grids masks are built from. Slots and
/// grids are stamped with the store's clock; `evict(ranksFrom:now:)` applies its policy.
/// LoaderPixels' README, "The cache", has the design.
package final class MaskCache {
  /// A chunk: four horizontally adjacent pixels' coverage (0...255 each, pixel 0 lowest) and
  /// their byte offset from the anchor pixel at the mask's pitch, `dy * pitch + dx * 4`; within
  /// a mask offsets ascend, and a row spans under half a pitch (`RingMaskShape.ownPitch`), so
  /// `(dy, dx)` read back from it (`position(_:pitch:)`).
  struct Chunk {
    var offset: Int32
    var coverage: SIMD4<UInt8>
  }

  /// Mask `key`'s chunks are `start ..< start + count` at `pitch` (`key` `empty`: no mask;
  /// `start` -1 while a draw builds it, `count` then the index of its build).
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
  /// The most chunks used since the arena was last compacted: the pages touched.
  private(set) var chunkHighWater = 0
  var grids: [DashedRing: (grid: RingDistanceGrid, stamp: UInt32)] = [:]
  static let initialSlots = 64
  static let initialChunks = 1 << 9

  /// Masks built so far by every cache of the process (the bench's `frame/churn`).
  package static let masksBuilt = Atomic<Int>(0)
  /// Chunks those masks hold (four pixels each), and the CPU time the threads that built them
  /// spent on it, nanoseconds, summed (the bench's cost per mask and per mask pixel).
  package static let maskChunksBuilt = Atomic<Int>(0)
  package static let maskBuildNanoseconds = Atomic<Int>(0)

  /// The calling thread's CPU time, nanoseconds (`maskBuildNanoseconds`): unlike a wall clock,
  /// it does not count the time the thread waited for a core.
  static func nanoseconds() -> Int {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return ts.tv_sec * 1_000_000_000 + ts.tv_nsec
  }

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
  /// - Returns: where it went (valid until the next slot is added).
  @discardableResult
  func add(_ slot: Slot) -> UnsafeMutablePointer<Slot> {
    if 2 * (maskCount + 1) > slotCount { rehash(into: 2 * slotCount, keeping: { _ in true }) }
    let at = table.slot(slot.key)
    at.pointee = slot
    maskCount += 1
    return at
  }

  /// Appends `count` chunks from `source` to the arena: their start.
  func append(_ source: UnsafePointer<Chunk>, count: Int) -> Int {
    if chunkCount + count > chunkCapacity {
      let capacity = max(chunkCount + count, 2 * chunkCapacity)
      let bigger = PageMemory.allocate(Chunk.self, capacity: capacity)
      bigger.update(from: chunks, count: chunkCount)
      PageMemory.deallocate(chunks, capacity: chunkCapacity)
      (chunks, chunkCapacity) = (bigger, capacity)
    }
    (chunks + chunkCount).update(from: source, count: count)
    chunkCount += count
    chunkHighWater = max(chunkHighWater, chunkCount)
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

  /// The arena's pages touched, the table and the grids, as allocated.
  var bytes: Int {
    let arena = (chunkHighWater * Self.chunkBytes + 4095) / 4096 * 4096
    return grids.values.reduce(arena + slotCount * MemoryLayout<Slot>.stride) {
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

  /// Keeps the masks and grids ranked before `cutoff`: the masks moved down the arena in
  /// order (the pages past them given back), in a table sized to them.
  ///
  /// One pass over the table copies the kept slots out, a radix sort puts them in arena
  /// order, and the moves and the new table read them in turn: a kept mask's slot is never
  /// looked for in the old table (in arena order that visits its slots at random), and a mask
  /// already in place is not moved.
  func evict(ranksFrom cutoff: Int, now: UInt32) {
    grids = grids.filter { CachePolicy.rank($0.value.stamp, now: now) < cutoff }
    var kept: [Slot] = []
    for i in 0..<slotCount where slots[i].key != Self.empty {
      if CachePolicy.rank(slots[i].stamp, now: now) < cutoff { kept.append(slots[i]) }
    }
    var count = Self.initialSlots
    while count < 2 * kept.count { count *= 2 }
    if count == slotCount {
      // The same size: the old table's pages, emptied, rather than new ones faulted in.
      slots.update(
        repeating: Slot(key: Self.empty, start: 0, count: 0, stamp: 0, pitch: 0), count: count)
    } else {
      PageMemory.deallocate(slots, capacity: slotCount)
      (slots, shift, slotCount) = Self.makeTable(count)
    }
    maskCount = kept.count
    Self.sortByStart(&kept)
    chunkCount = 0
    let table = self.table
    let ahead = CoverageSpanKernel.keyPrefetchDistance
    for k in kept.indices {
      // The new table's slots are at random: the one `ahead` masks on is asked for first.
      if k + ahead < kept.count { prefetch(table.slots + table.home(kept[k + ahead].key)) }
      let (start, n) = (Int(kept[k].start), Int(kept[k].count))
      if start != chunkCount {
        // Down the arena, perhaps onto itself: a move that allows overlap.
        UnsafeMutableRawPointer(chunks + chunkCount).copyMemory(
          from: chunks + start, byteCount: n * Self.chunkBytes)
        kept[k].start = Int32(chunkCount)
      }
      chunkCount += n
      table.slot(kept[k].key).pointee = kept[k]
    }
    PageMemory.release(chunks, keeping: chunkCount, of: chunkCapacity)
    chunkHighWater = chunkCount
  }

  /// Sorts `slots` by `start` (each at least 0), stably: least significant digit first, 11
  /// bits a pass, as many passes as the largest start needs.
  static func sortByStart(_ slots: inout [Slot]) {
    let largest = slots.reduce(0) { max($0, Int($1.start)) }
    guard slots.count > 1, largest > 0 else { return }
    let bits = 11
    let digits = 1 << bits
    var other = slots
    var counts = [Int](repeating: 0, count: digits)
    var shift = 0
    while largest >> shift > 0 {
      counts.withUnsafeMutableBufferPointer { counts in
        for d in 0..<digits { counts[d] = 0 }
        slots.withUnsafeBufferPointer { from in
          other.withUnsafeMutableBufferPointer { to in
            for s in from { counts[Int(s.start) >> shift & (digits - 1)] += 1 }
            var sum = 0
            for d in 0..<digits { (counts[d], sum) = (sum, sum + counts[d]) }
            for s in from {
              let d = Int(s.start) >> shift & (digits - 1)
              to[counts[d]] = s
              counts[d] += 1
            }
          }
        }
      }
      swap(&slots, &other)
      shift += bits
    }
  }

  /// A table of `count` slots holding the masks `keep` says (it may move their chunks).
  private func rehash(into count: Int, keeping keep: (Slot) -> Bool) {
    let (old, oldCount) = (slots, slotCount)
    (slots, shift, slotCount) = Self.makeTable(count)
    maskCount = 0
    for i in 0..<oldCount where old[i].key != Self.empty {
      guard keep(old[i]) else { continue }
      table.slot(old[i].key).pointee = old[i]
      maskCount += 1
    }
    PageMemory.deallocate(old, capacity: oldCount)
  }
}
