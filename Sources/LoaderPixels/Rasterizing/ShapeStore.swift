import LoaderCore
import Synchronization

/// Everything one renderer (`LoaderRenderer`) or `LoaderPixelCache` caches: every shape drawn,
/// with each backend's cache of it, every shape's masks (`MaskCache`) and the backends' own
/// memory (`BackendMemory`), on one clock (`now`: draws), counted in one total (`bytes`) and
/// trimmed by one policy (`CachePolicy`) to one budget in one place (`endDraw()`).
/// LoaderPixels' README, "The cache", has the design.
package final class ShapeStore {
  private static let serials = Atomic<UInt32>(1)

  private struct Entry {
    var shape: DashedRing
    var generation: UInt32 = 0
    /// `CachePolicy.used(_:at:)` of its last draw; it starts reused, so a shape ranks as an
    /// entry used again.
    var stamp = CachePolicy.reusedBit
    var caches: [(any RingShapeCache)?] = []  // by backend slot
    var isLive = true
    /// Its caches' bytes as of the end of its last draw: its part of the running total.
    var bytes = 0
    var cachesBytes: Int { caches.reduce(0) { $0 + ($1?.bytes ?? 0) } }
  }

  /// A backend's own memory, stamped like a shape at the backend's draws.
  private struct Owner {
    let memory: any BackendMemory
    var stamp = CachePolicy.reusedBit
  }

  private let serial: UInt32
  /// Bytes everything held keeps at most between draws (at least
  /// `CachePolicy.minimumBudget`); a change reaches every part at the end of the next draw.
  package var budgetBytes: Int {
    didSet { budgetBytes = max(CachePolicy.minimumBudget, budgetBytes) }
  }
  /// The clock: draws begun so far, modulo 2^31.
  package private(set) var now: UInt32 = 0
  package let masks = MaskCache()
  private var entries: [Entry] = []
  private var freeIndices: [Int32] = []
  private var indexOfShape: [DashedRing: Int32] = [:]
  private var owners: [Owner] = []
  /// The live entries' `bytes`, kept as entries are drawn and let go.
  private var entryBytes = 0
  /// Bytes let go to keep the budget so far (tests, the bench).
  package private(set) var evictedBytes = 0
  // Kept between draws for their capacity: a draw allocates nothing.
  private var frameCaches: [(any RingShapeCache)?] = []
  private var frameEntries: [Int32] = []
  private var histogram = [Int](repeating: 0, count: CachePolicy.ranks)

  package init(budgetBytes: Int) {
    self.budgetBytes = max(CachePolicy.minimumBudget, budgetBytes)
    serial = Self.serials.wrappingAdd(1, ordering: .relaxed).oldValue
  }

  /// Everything held now, as allocated: every shape's caches (as of its last draw), the masks
  /// and the backends' own memory. The budget bounds it after every draw.
  package var bytes: Int {
    owners.reduce(entryBytes + masks.bytes) { $0 + $1.memory.ownBytes }
  }

  /// Every draw of rings: ticks the clock, gives each of `frameShapes` its cache of backend
  /// `slot` (made by `make` with the shape and its share of the budget; nil for a shape with
  /// nothing to draw; a handle in `ids` tried first and updated), fits each to its share, calls
  /// `body` with them, and keeps the budget, `owner`'s memory counted.
  package func draw<R, E: Error>(
    _ frameShapes: UnsafeBufferPointer<DashedRing>, ids: UnsafeMutableBufferPointer<ShapeID>?,
    slot: Int, owner: (any BackendMemory)? = nil,
    make: (_ shape: DashedRing, _ budgetBytes: Int) throws(E) -> any RingShapeCache,
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
    if let owner { stamp(owner) }
    let share = budgetBytes / CachePolicy.shapeShare
    for k in frameShapes.indices {
      guard frameShapes[k].isDrawable else {
        caches.append(nil)
        continue
      }
      let i = index(of: frameShapes[k], hint: ids?[k] ?? .none)
      ids?[k] = ShapeID(store: serial, index: Int32(i), generation: entries[i].generation)
      entries[i].stamp = CachePolicy.used(entries[i].stamp, at: now)
      frameEntries.append(Int32(i))
      if slot >= entries[i].caches.count || entries[i].caches[slot] == nil {
        let made = try make(entries[i].shape, share)
        while entries[i].caches.count <= slot { entries[i].caches.append(nil) }
        entries[i].caches[slot] = made
      }
      entries[i].caches[slot]?.fit(toBytes: share)
      caches.append(entries[i].caches[slot])
    }
    return try caches.withUnsafeBufferPointer { (caches) throws(E) in try body(caches) }
  }

  /// Stamps `memory`'s draw, adding it to the owners counted if new.
  private func stamp(_ memory: any BackendMemory) {
    guard let j = owners.firstIndex(where: { $0.memory === memory }) else {
      owners.append(Owner(memory: memory, stamp: now | CachePolicy.reusedBit))
      return
    }
    owners[j].stamp = CachePolicy.used(owners[j].stamp, at: now)
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

  /// The draw's entries' bytes brought up to date; then, past the budget, what ranks last goes
  /// until `CachePolicy.cutoff(_:budget:fixed:)` says the rest fits, and every
  /// `CachePolicy.sweepDraws` draws, what was idle for `CachePolicy.idleDraws` goes too.
  private func endDraw() {
    for i in frameEntries where entries[Int(i)].isLive { updateBytes(of: Int(i)) }
    frameEntries.removeAll(keepingCapacity: true)
    let held = bytes
    let sweep = now % CachePolicy.sweepDraws == 0
    guard held > budgetBytes || sweep else { return }
    for r in histogram.indices { histogram[r] = 0 }
    masks.addRanks(into: &histogram, now: now)
    let fixed = masks.bytes - histogram.reduce(0, +)
    for i in entries.indices where entries[i].isLive {
      histogram[rank(entries[i].stamp)] += entries[i].bytes
    }
    for o in owners { histogram[rank(o.stamp)] += o.memory.ownBytes }
    var cutoff = sweep ? CachePolicy.idleRank : CachePolicy.ranks
    if held > budgetBytes {
      cutoff = min(cutoff, CachePolicy.cutoff(histogram, budget: budgetBytes, fixed: fixed))
    }
    guard histogram[cutoff...].contains(where: { $0 > 0 }) else { return }
    for i in entries.indices where entries[i].isLive && rank(entries[i].stamp) >= cutoff {
      letGo(i)
    }
    for o in owners where rank(o.stamp) >= cutoff { o.memory.trimOwnMemory(toBytes: 0) }
    masks.evict(ranksFrom: cutoff, now: now)
    evictedBytes += max(0, held - bytes)
  }

  private func rank(_ stamp: UInt32) -> Int { CachePolicy.rank(stamp, now: now) }

  /// Entry `i`'s part of the running total set to its caches' bytes now.
  private func updateBytes(of i: Int) {
    let b = entries[i].cachesBytes
    entryBytes += b - entries[i].bytes
    entries[i].bytes = b
  }

  /// Lets everything go now: every shape's caches, every mask, the backends' own memory.
  package func purge() {
    for i in entries.indices where entries[i].isLive { letGo(i) }
    masks.evict(ranksFrom: 0, now: now)
    for o in owners { o.memory.trimOwnMemory(toBytes: 0) }
    owners.removeAll()
  }

  /// Closes and forgets the caches of backend slots `slots` says (a reset took their textures).
  package func dropCaches(ofSlots slots: (Int) -> Bool) {
    for i in entries.indices where entries[i].isLive {
      for s in entries[i].caches.indices where slots(s) {
        entries[i].caches[s]?.close()
        entries[i].caches[s] = nil
      }
      updateBytes(of: i)
    }
  }

  package var heldShapes: [DashedRing] { entries.filter(\.isLive).map(\.shape) }
  /// `bytes` summed entry by entry (tests check the running total against it).
  package var summedBytes: Int {
    entries.reduce(masks.bytes) { $0 + ($1.isLive ? $1.cachesBytes : 0) }
      + owners.reduce(0) { $0 + $1.memory.ownBytes }
  }
  package func cache(of shape: DashedRing, slot: Int) -> (any RingShapeCache)? {
    guard let i = indexOfShape[shape], slot < entries[Int(i)].caches.count else { return nil }
    return entries[Int(i)].caches[slot]
  }

  private func letGo(_ i: Int) {
    for case let c? in entries[i].caches { c.close() }
    entries[i].caches.removeAll()
    entryBytes -= entries[i].bytes
    entries[i].bytes = 0
    entries[i].isLive = false
    entries[i].generation &+= 1
    indexOfShape[entries[i].shape] = nil
    freeIndices.append(Int32(i))
  }
}
