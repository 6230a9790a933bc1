import Dispatch
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
/// (`LoaderPixelCache`), with each backend's cache of it: the one owner of shape lifetime and
/// of the byte budget.
///
/// - One clock, `clock`: seconds spent drawing here (the time between two draws, counted up to
///   `maximumGap`, so a host that paused for a minute finds its shapes still there).
/// - A shape no draw used for `idleSeconds` of that clock is let go, caches and all.
/// - `bytes` counts every cache as allocated (`RingShapeCache.bytes`), and after every draw
///   it is at most `budgetBytes`: the least recently drawn shapes go first, then, when the
///   host's frame alone needs more, its caches' entries in `CacheAge`'s order (masks used
///   again least recently, fresh masks built last) until a quarter of the budget is free
///   again, then its caches shed what they hold (largest first), and then its shapes go too.
///   A frame that needs more than the budget is still drawn whole: its caches are rebuilt by
///   the next draw that needs them.
/// - The host's frame: every shape drawn since the drawing field's previous draw (`owner`).
///   Several fields or views drawing each frame protect each other's shapes that way, so one
///   field's draw under pressure lets go of the shapes nobody drew this frame before those
///   another field drew a moment ago.
package final class ShapeStore {
  private static let serials = Atomic<UInt32>(1)
  private static let owners = Atomic<UInt64>(1)

  /// A new owner token for `draw(_:ids:owner:slot:make:_:)` (a field takes one).
  package static func makeOwner() -> UInt64 { owners.wrappingAdd(1, ordering: .relaxed).oldValue }

  private struct Entry {
    var shape: DashedRing
    var generation: UInt32 = 0
    /// `clock` and `draws` when a draw last used it.
    var lastUse = 0.0
    var lastDraw = 0
    /// By backend slot.
    var caches: [(any RingShapeCache)?] = []
    var isLive = true

    var bytes: Int { caches.reduce(0) { $0 + ($1?.bytes ?? 0) } }
  }

  /// This store's serial, in every handle it gives out.
  private let serial: UInt32
  /// Bytes all caches together keep at most between draws (at least `minimumBudget`).
  package var budgetBytes: Int {
    didSet { budgetBytes = max(Self.minimumBudget, budgetBytes) }
  }
  /// The smallest budget: a budget smaller than one shape's smallest cache would let go of
  /// every shape after every draw.
  package static let minimumBudget = 1 << 20
  /// A shape unused for this long (seconds of `clock`) is let go.
  package var idleSeconds = 2.0
  /// The longest gap between two draws `clock` counts.
  static let maximumGap = 0.1

  private var entries: [Entry] = []
  private var freeIndices: [Int32] = []
  private var indexOfShape: [DashedRing: Int32] = [:]
  /// Seconds of drawing so far.
  package private(set) var clock = 0.0
  private var lastTick: UInt64?
  /// Draws begun so far.
  package private(set) var draws = 0
  /// Bytes of every cache as allocated, as of the end of the last draw (or `purge()`).
  package private(set) var bytes = 0
  /// Bytes let go to stay within `budgetBytes` so far (tests and the bench read it).
  package private(set) var evictedBytes = 0
  /// Per owner, the last draw it began; shapes drawn after it belong to the host's frame.
  private var lastDrawOfOwner: [UInt64: Int] = [:]
  /// The first draw of the host's frame of the draw in progress.
  private var frameStart = 0
  /// The caches of the draw in progress, by shape index (kept for its capacity).
  private var frameCaches: [(any RingShapeCache)?] = []
  /// Entries of the host's frame, by bytes (`endDraw()`; kept for its capacity).
  private var pressed: [(bytes: Int, index: Int)] = []
  /// Bytes of the caches' entries by age (`endDraw()`; kept for its capacity).
  private var ages: [Int] = []

  package init(budgetBytes: Int) {
    self.budgetBytes = max(Self.minimumBudget, budgetBytes)
    serial = Self.serials.wrappingAdd(1, ordering: .relaxed).oldValue
  }

  /// The most one shape's cache should keep: a quarter of the budget.
  package var shareBytes: Int { budgetBytes / 4 }

  /// The one draw sequence of every path that draws rings: begins a draw for `owner`, gives
  /// each of `frameShapes` its cache of backend `slot` (made by `make` on a miss; nil for a
  /// shape with nothing to draw; a shape's handle in `ids`, when given, is tried first and
  /// updated), calls `body` with them, and ends the draw (the budget enforced).
  package func draw<R, E: Error>(
    _ frameShapes: UnsafeBufferPointer<DashedRing>, ids: UnsafeMutableBufferPointer<ShapeID>?,
    owner: UInt64, slot: Int, make: (DashedRing) throws(E) -> any RingShapeCache,
    _ body: (UnsafeBufferPointer<(any RingShapeCache)?>) throws(E) -> R
  ) throws(E) -> R {
    var caches: [(any RingShapeCache)?] = []
    swap(&caches, &frameCaches)
    defer {
      caches.removeAll(keepingCapacity: true)
      swap(&caches, &frameCaches)
    }
    beginDraw(owner: owner)
    defer { endDraw() }
    try self.caches(for: frameShapes, ids: ids, slot: slot, into: &caches, make: make)
    return try caches.withUnsafeBufferPointer { (caches) throws(E) in try body(caches) }
  }

  /// Starts a draw: advances `clock` and `draws`, and finds where the host's frame began.
  private func beginDraw(owner: UInt64) {
    let now = DispatchTime.now().uptimeNanoseconds
    if let last = lastTick, now > last {
      clock += min(Self.maximumGap, Double(now - last) * 1e-9)
    }
    lastTick = now
    draws += 1
    frameStart = (lastDrawOfOwner[owner] ?? (draws - 1)) + 1
    if lastDrawOfOwner.count > Self.ownersKept {
      // Owners that stopped drawing long ago protect nothing any more.
      let cutoff = draws - Self.ownersKept
      lastDrawOfOwner = lastDrawOfOwner.filter { $0.value > cutoff }
    }
    lastDrawOfOwner[owner] = draws
  }

  /// Owners remembered before the long-idle ones are forgotten.
  static let ownersKept = 4096

  /// The handle of `shape`: `hint` itself when it is still this store's handle of a live
  /// entry (no hashing), else the shape's entry, made if new.
  private func id(for shape: DashedRing, hint: ShapeID) -> ShapeID {
    if hint.store == serial, hint.index >= 0, Int(hint.index) < entries.count {
      let e = entries[Int(hint.index)]
      if e.isLive, e.generation == hint.generation { return hint }
    }
    if let i = indexOfShape[shape] {
      return ShapeID(store: serial, index: i, generation: entries[Int(i)].generation)
    }
    let i: Int32
    if let free = freeIndices.popLast() {
      i = free
      entries[Int(i)].shape = shape
      entries[Int(i)].isLive = true
      entries[Int(i)].caches.removeAll(keepingCapacity: true)
    } else {
      i = Int32(entries.count)
      entries.append(Entry(shape: shape))
    }
    entries[Int(i)].lastUse = clock
    entries[Int(i)].lastDraw = draws
    indexOfShape[shape] = i
    return ShapeID(store: serial, index: i, generation: entries[Int(i)].generation)
  }

  /// The cache of backend `slot` for the shape of `id` (a handle `id(for:hint:)` just gave),
  /// made by `make` when there is none; marks the shape used by this draw.
  private func cache<E: Error>(
    of id: ShapeID, slot: Int, make: (DashedRing) throws(E) -> any RingShapeCache
  ) throws(E) -> any RingShapeCache {
    let i = Int(id.index)
    entries[i].lastUse = clock
    entries[i].lastDraw = draws
    if slot < entries[i].caches.count, let c = entries[i].caches[slot] { return c }
    let made = try make(entries[i].shape)
    while entries[i].caches.count <= slot { entries[i].caches.append(nil) }
    entries[i].caches[slot] = made
    return made
  }

  /// Each of `shapes`' cache of backend `slot`, in order, into `list` (emptied first, its
  /// capacity kept; nil for a shape with nothing to draw), made by `make` on a miss. A shape's
  /// handle in `ids`, when given, is tried first and updated.
  private func caches<E: Error>(
    for shapes: UnsafeBufferPointer<DashedRing>, ids: UnsafeMutableBufferPointer<ShapeID>?,
    slot: Int, into list: inout [(any RingShapeCache)?],
    make: (DashedRing) throws(E) -> any RingShapeCache
  ) throws(E) {
    list.removeAll(keepingCapacity: true)
    for k in shapes.indices {
      guard shapes[k].isDrawable else {
        list.append(nil)
        continue
      }
      let found = id(for: shapes[k], hint: ids?[k] ?? .none)
      ids?[k] = found
      list.append(try cache(of: found, slot: slot, make: make))
    }
  }

  /// Ends a draw: lets idle shapes go, then keeps the rest within the budget (see the type's
  /// notes).
  private func endDraw() {
    var total = 0
    for i in entries.indices where entries[i].isLive {
      if entries[i].lastDraw < frameStart, clock - entries[i].lastUse >= idleSeconds {
        letGo(i)
        continue
      }
      total += entries[i].bytes
    }
    bytes = total
    guard bytes > budgetBytes else { return }
    // Least recently used first, found by a scan each (no allocation; few go a draw).
    while bytes > budgetBytes {
      var oldest = -1
      for i in entries.indices where entries[i].isLive && entries[i].lastDraw < frameStart {
        if oldest < 0 || entries[i].lastUse < entries[oldest].lastUse { oldest = i }
      }
      guard oldest >= 0 else { break }
      evict(oldest)
    }
    guard bytes > budgetBytes else { return }
    // The host's frame alone is over: its caches' entries go in `CacheAge`'s order (whole
    // ranks) until three quarters of the budget are left, ...
    ages.removeAll(keepingCapacity: true)
    ages.append(contentsOf: repeatElement(0, count: CacheAge.ranks))
    for i in entries.indices where entries[i].isLive {
      for case let c? in entries[i].caches { c.addAges(into: &ages) }
    }
    let recyclable = ages.reduce(0, +)
    let rank = CacheAge.cutoff(ages, fitting: budgetBytes * 3 / 4, fixed: bytes - recyclable)
    if rank < CacheAge.ranks {
      var total = 0
      for i in entries.indices where entries[i].isLive {
        for case let c? in entries[i].caches { c.recycle(keepingRanksBelow: rank) }
        total += entries[i].bytes
      }
      evictedBytes += max(0, bytes - total)
      bytes = total
    }
    guard bytes > budgetBytes else { return }
    // ... then its caches shed whole, the largest first, then its shapes go.
    pressed.removeAll(keepingCapacity: true)
    for i in entries.indices where entries[i].isLive {
      pressed.append((entries[i].bytes, i))
    }
    pressed.sort { $0.bytes > $1.bytes }
    for (held, i) in pressed where bytes > budgetBytes {
      for case let c? in entries[i].caches { c.shed() }
      let now = entries[i].bytes
      evictedBytes += held - now
      bytes -= held - now
    }
    for (_, i) in pressed where bytes > budgetBytes { evict(i) }
  }

  /// Lets entry `i` go to make room, counting what it held.
  private func evict(_ i: Int) {
    let freed = entries[i].bytes
    letGo(i)
    evictedBytes += freed
    bytes -= freed
  }

  /// Lets every shape go, caches and all (`LoaderPixelCache.purge()`); the next draws
  /// rebuild what they need.
  package func purge() {
    for i in entries.indices where entries[i].isLive { letGo(i) }
    bytes = 0
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
  package var heldShapes: [DashedRing] {
    entries.filter(\.isLive).map(\.shape)
  }

  /// Bytes every live cache holds right now, as allocated (tests: `bytes` is as of the end of
  /// the last draw).
  package var currentBytes: Int {
    entries.reduce(0) { $0 + ($1.isLive ? $1.bytes : 0) }
  }

  /// The cache of backend `slot` for `shape`, if there is one (tests).
  package func cache(of shape: DashedRing, slot: Int) -> (any RingShapeCache)? {
    guard let i = indexOfShape[shape], slot < entries[Int(i)].caches.count else { return nil }
    return entries[Int(i)].caches[slot]
  }

  private func letGo(_ i: Int) {
    for case let c? in entries[i].caches { c.close() }
    entries[i].caches.removeAll(keepingCapacity: true)
    entries[i].isLive = false
    entries[i].generation &+= 1
    indexOfShape[entries[i].shape] = nil
    freeIndices.append(Int32(i))
  }
}
