import LoaderCore
import Synchronization

/// A shape's handle in one renderer's `ShapeStore`: a slot and the generation of its entry,
/// so a field that keeps it finds its shape's caches without hashing the shape. A handle of
/// another store, or of an entry let go since, is refused and the shape looked up again.
package struct ShapeID: Hashable, Sendable {
  let store: UInt32
  let index: Int32
  let generation: UInt32

  /// A handle no store accepts.
  package static let none = ShapeID(store: 0, index: -1, generation: 0)
}

/// Every ring shape drawn on one renderer (`LoaderRenderer`) or into pixel buffers
/// (`LoaderPixelCache`), with each backend's cache of it and every shape's masks
/// (`MaskCache`): the one owner of what is cached, its clock and its budget.
///
/// - **Clock**: `now`, the draws begun so far. Every shape and mask a draw uses is stamped
///   with it; nothing reads the wall clock.
/// - **Policy**: `CachePolicy` ranks everything held, masks one by one and each shape with
///   its backends' caches as one (a shape ranks as an entry used again: its masks never
///   outlive it).
/// - **Budget**: at the end of each draw, in `endDraw()` alone. When `bytes` (every cache
///   and mask as allocated) passes `budgetBytes`, what ranks last goes until three quarters
///   of the budget are left (or, when the draw's own entries need more, until the budget
///   is); every 64 draws, whatever has been idle for `CachePolicy.idleDraws` draws goes too.
///   A draw that needs more than the budget is still drawn whole, and what it built is given
///   back after it.
///
/// What is cached changes how long a draw takes, never its pixels: a mask is a function of
/// its shape and key alone.
package final class ShapeStore {
  private static let serials = Atomic<UInt32>(1)

  private struct Entry {
    var shape: DashedRing
    var generation: UInt32 = 0
    /// `now` when a draw last used it.
    var lastUse: UInt32 = 0
    /// By backend slot.
    var caches: [(any RingShapeCache)?] = []
    var isLive = true

    var bytes: Int { caches.reduce(0) { $0 + ($1?.bytes ?? 0) } }
  }

  /// This store's serial, in every handle it gives out.
  private let serial: UInt32
  /// Bytes everything cached keeps at most between draws (at least `minimumBudget`); a change
  /// reaches every cache at the end of the next draw.
  package var budgetBytes: Int {
    didSet { budgetBytes = max(Self.minimumBudget, budgetBytes) }
  }
  package static let minimumBudget = 1 << 20
  /// The clock: draws begun so far, modulo 2^31.
  package private(set) var now: UInt32 = 0
  /// Every shape's masks.
  package let masks = MaskCache()
  private var entries: [Entry] = []
  private var freeIndices: [Int32] = []
  private var indexOfShape: [DashedRing: Int32] = [:]
  /// Bytes of everything cached as allocated, as of the end of the last draw (or `purge()`).
  package private(set) var bytes = 0
  /// Bytes let go to stay within `budgetBytes` so far (tests and the bench read it).
  package private(set) var evictedBytes = 0
  /// The caches of the draw in progress, by shape index (kept for its capacity).
  private var frameCaches: [(any RingShapeCache)?] = []

  package init(budgetBytes: Int) {
    self.budgetBytes = max(Self.minimumBudget, budgetBytes)
    serial = Self.serials.wrappingAdd(1, ordering: .relaxed).oldValue
  }

  /// The one draw sequence of every path that draws rings: ticks the clock, gives each of
  /// `frameShapes` its cache of backend `slot` (made by `make` on a miss; nil for a shape
  /// with nothing to draw; a shape's handle in `ids`, when given, is tried first and
  /// updated), calls `body` with them, and keeps the budget (`endDraw()`).
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

  /// The entry of `shape`: `hint`'s when it is still this store's handle of a live entry (no
  /// hashing), else the shape's entry, made if new.
  private func index(of shape: DashedRing, hint: ShapeID) -> Int {
    let h = Int(hint.index)
    if hint.store == serial, h >= 0, h < entries.count, entries[h].isLive,
      entries[h].generation == hint.generation
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

  /// Keeps the budget (see the type's notes): one histogram of everything held by rank, one
  /// cutoff, everything ranked at or past it let go.
  private func endDraw() {
    var total = masks.bytes
    for i in entries.indices where entries[i].isLive { total += entries[i].bytes }
    bytes = total
    let sweep = now % 64 == 0
    guard bytes > budgetBytes || sweep else { return }
    var histogram = [Int](repeating: 0, count: CachePolicy.ranks)
    masks.addRanks(into: &histogram, now: now)
    let fixed = masks.bytes - histogram.reduce(0, +)
    for i in entries.indices where entries[i].isLive {
      histogram[rank(i)] += entries[i].bytes
    }
    var cutoff = CachePolicy.ranks
    if bytes > budgetBytes {
      cutoff = CachePolicy.cutoff(histogram, fitting: budgetBytes * 3 / 4, fixed: fixed)
      if cutoff == 0 { cutoff = CachePolicy.cutoff(histogram, fitting: budgetBytes, fixed: fixed) }
    }
    if sweep { cutoff = min(cutoff, CachePolicy.idleRank) }
    guard histogram[cutoff...].contains(where: { $0 > 0 }) else { return }
    for i in entries.indices where entries[i].isLive && rank(i) >= cutoff { letGo(i) }
    masks.evict(ranksFrom: cutoff, now: now)
    total = masks.bytes
    for i in entries.indices where entries[i].isLive { total += entries[i].bytes }
    evictedBytes += max(0, bytes - total)
    bytes = total
  }

  private func rank(_ i: Int) -> Int {
    CachePolicy.rank(entries[i].lastUse | CachePolicy.reusedBit, now: now)
  }

  /// Lets every shape and mask go (`LoaderPixelCache.purge()`, `LoaderRenderer.purge()`).
  package func purge() {
    for i in entries.indices where entries[i].isLive { letGo(i) }
    masks.evict(ranksFrom: 0, now: now)
    bytes = masks.bytes
  }

  /// Closes and forgets the caches of the backend slots `slots` says (their textures are gone
  /// with a reset); the shapes stay, their caches made again on demand.
  package func dropCaches(ofSlots slots: (Int) -> Bool) {
    for i in entries.indices where entries[i].isLive {
      for s in entries[i].caches.indices where slots(s) {
        entries[i].caches[s]?.close()
        entries[i].caches[s] = nil
      }
    }
  }

  /// The shapes held now (tests).
  package var heldShapes: [DashedRing] { entries.filter(\.isLive).map(\.shape) }

  /// Bytes held right now, as allocated (`bytes` is as of the end of the last draw).
  package var currentBytes: Int {
    entries.reduce(masks.bytes) { $0 + ($1.isLive ? $1.bytes : 0) }
  }

  /// The cache of backend `slot` for `shape`, if there is one (tests).
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
