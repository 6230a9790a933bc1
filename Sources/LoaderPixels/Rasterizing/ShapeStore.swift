import LoaderCore
import Synchronization

/// A shape's handle in one `ShapeStore` (its slot and the entry's generation), so a field finds
/// its shapes' caches without hashing them; a stale or foreign one, or one whose entry holds
/// another shape, is looked up again.
package struct ShapeID: Hashable, Sendable {
  let store: UInt32
  let index: Int32
  let generation: UInt32
  package static let none = ShapeID(store: 0, index: -1, generation: 0)
}

/// Everything one renderer (`LoaderRenderer`) or `LoaderPixelCache` caches: every shape drawn,
/// with each backend's cache of it, and every shape's masks (`MaskCache`), on one clock
/// (`now`: draws), trimmed by one policy (`CachePolicy`: a shape ranks as an entry used again
/// at its last draw, so its masks never outlive it) to one budget in one place (`endDraw()`).
/// LoaderPixels' README, "The cache", has the design.
package final class ShapeStore {
  private static let serials = Atomic<UInt32>(1)

  private struct Entry {
    var shape: DashedRing
    var generation: UInt32 = 0
    var lastUse: UInt32 = 0
    var caches: [(any RingShapeCache)?] = []  // by backend slot
    var isLive = true
    var bytes: Int { caches.reduce(0) { $0 + ($1?.bytes ?? 0) } }
  }

  private let serial: UInt32
  /// Bytes everything cached keeps at most between draws (at least 1 MiB); a change reaches
  /// every cache at the end of the next draw.
  package var budgetBytes: Int { didSet { budgetBytes = max(Self.minimumBudget, budgetBytes) } }
  package static let minimumBudget = 1 << 20
  /// The clock: draws begun so far, modulo 2^31.
  package private(set) var now: UInt32 = 0
  package let masks = MaskCache()
  private var entries: [Entry] = []
  private var freeIndices: [Int32] = []
  private var indexOfShape: [DashedRing: Int32] = [:]
  /// Everything cached, as allocated, as of the end of the last draw.
  package private(set) var bytes = 0
  /// Bytes let go to keep the budget so far (tests, the bench).
  package private(set) var evictedBytes = 0
  // Kept between draws for their capacity: a draw allocates nothing.
  private var frameCaches: [(any RingShapeCache)?] = []
  private var histogram = [Int](repeating: 0, count: CachePolicy.ranks)

  package init(budgetBytes: Int) {
    self.budgetBytes = max(Self.minimumBudget, budgetBytes)
    serial = Self.serials.wrappingAdd(1, ordering: .relaxed).oldValue
  }

  /// Every draw of rings: ticks the clock, gives each of `frameShapes` its cache of backend
  /// `slot` (made by `make`; nil for a shape with nothing to draw; a handle in `ids` tried
  /// first and updated), calls `body` with them, and keeps the budget.
  package func draw<R, E: Error>(
    _ frameShapes: UnsafeBufferPointer<DashedRing>, ids: UnsafeMutableBufferPointer<ShapeID>?,
    slot: Int, make: (DashedRing) throws(E) -> any RingShapeCache,
    _ body: (UnsafeBufferPointer<(any RingShapeCache)?>) throws(E) -> R
  ) throws(E) -> R {
    var caches: [(any RingShapeCache)?] = []
    swap(&caches, &frameCaches)
    defer {
      caches.removeAll(keepingCapacity: true)
      swap(&caches, &frameCaches)
    }
    now = (now &+ 1) & ~CachePolicy.reusedBit
    defer { endDraw() }
    for k in frameShapes.indices {
      guard frameShapes[k].isDrawable else {
        caches.append(nil)
        continue
      }
      let i = index(of: frameShapes[k], hint: ids?[k] ?? .none)
      ids?[k] = ShapeID(store: serial, index: Int32(i), generation: entries[i].generation)
      entries[i].lastUse = now
      if slot >= entries[i].caches.count || entries[i].caches[slot] == nil {
        let made = try make(entries[i].shape)
        while entries[i].caches.count <= slot { entries[i].caches.append(nil) }
        entries[i].caches[slot] = made
      }
      caches.append(entries[i].caches[slot])
    }
    return try caches.withUnsafeBufferPointer { (caches) throws(E) in try body(caches) }
  }

  /// `shape`'s entry, added if new: `hint`'s when it is this store's, live, and holds `shape`
  /// (a handle carried over from another shape is looked up again).
  private func index(of shape: DashedRing, hint: ShapeID) -> Int {
    let h = Int(hint.index)
    if hint.store == serial, h >= 0, h < entries.count, entries[h].isLive,
      entries[h].generation == hint.generation, entries[h].shape == shape
    {
      return h
    }
    if let i = indexOfShape[shape] { return Int(i) }
    var entry = Entry(shape: shape)
    let i: Int
    if let free = freeIndices.popLast() {
      i = Int(free)
      entry.generation = entries[i].generation
      entries[i] = entry
    } else {
      i = entries.count
      entries.append(entry)
    }
    indexOfShape[shape] = Int32(i)
    return i
  }

  /// Past the budget, what ranks last goes until 15/16 of it is left (the whole of it when the
  /// draw's own entries need more); every 64 draws, what was idle for `idleDraws` goes too.
  private func endDraw() {
    bytes = currentBytes
    let sweep = now % 64 == 0
    guard bytes > budgetBytes || sweep else { return }
    for r in histogram.indices { histogram[r] = 0 }
    masks.addRanks(into: &histogram, now: now)
    let fixed = masks.bytes - histogram.reduce(0, +)
    for i in entries.indices where entries[i].isLive { histogram[rank(i)] += entries[i].bytes }
    var cutoff = sweep ? CachePolicy.idleRank : CachePolicy.ranks
    if bytes > budgetBytes {
      let fit = CachePolicy.cutoff(histogram, fitting: budgetBytes * 15 / 16, fixed: fixed)
      cutoff = min(
        cutoff, fit > 0 ? fit : CachePolicy.cutoff(histogram, fitting: budgetBytes, fixed: fixed))
    }
    guard histogram[cutoff...].contains(where: { $0 > 0 }) else { return }
    for i in entries.indices where entries[i].isLive && rank(i) >= cutoff { letGo(i) }
    masks.evict(ranksFrom: cutoff, now: now)
    evictedBytes += max(0, bytes - currentBytes)
    bytes = currentBytes
  }

  private func rank(_ i: Int) -> Int {
    CachePolicy.rank(entries[i].lastUse | CachePolicy.reusedBit, now: now)
  }

  package func purge() {
    for i in entries.indices where entries[i].isLive { letGo(i) }
    masks.evict(ranksFrom: 0, now: now)
    bytes = currentBytes
  }

  /// Closes and forgets the caches of backend slots `slots` says (a reset took their textures).
  package func dropCaches(ofSlots slots: (Int) -> Bool) {
    for i in entries.indices where entries[i].isLive {
      for s in entries[i].caches.indices where slots(s) {
        entries[i].caches[s]?.close()
        entries[i].caches[s] = nil
      }
    }
  }

  package var heldShapes: [DashedRing] { entries.filter(\.isLive).map(\.shape) }
  package var currentBytes: Int { entries.reduce(masks.bytes) { $0 + ($1.isLive ? $1.bytes : 0) } }
  package func cache(of shape: DashedRing, slot: Int) -> (any RingShapeCache)? {
    guard let i = indexOfShape[shape], slot < entries[Int(i)].caches.count else { return nil }
    return entries[Int(i)].caches[slot]
  }

  private func letGo(_ i: Int) {
    for case let c? in entries[i].caches { c.close() }
    entries[i].caches.removeAll()
    entries[i].isLive = false
    entries[i].generation &+= 1
    indexOfShape[entries[i].shape] = nil
    freeIndices.append(Int32(i))
  }
}
