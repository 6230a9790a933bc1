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

/// Every ring shape drawn on one renderer, with each backend's cache of it: the one owner of
/// shape lifetime and of the byte budget (`LoaderRenderer` has one).
///
/// - One clock, `clock`: seconds spent drawing here (the time between two draws, counted up to
///   `maximumGap`, so a host that paused for a minute finds its shapes still there).
/// - A shape no draw used for `idleSeconds` of that clock is let go, caches and all.
/// - Past `budgetBytes` (every cache of every backend counted, textures included), the least
///   recently drawn shapes are let go, except those of the draw in progress: a frame whose own
///   shapes need more than the budget is drawn, each cache recycling its own entries.
package final class ShapeStore {
  private static let serials = Atomic<UInt32>(1)

  private struct Entry {
    var shape: DashedRing
    var generation: UInt32 = 0
    /// `clock` and `draws` when a draw last used it.
    var lastUse = 0.0
    var lastDraw = 0
    /// By backend slot (`LoaderRenderer`'s).
    var caches: [(any RingShapeCache)?] = []
    var isLive = true
  }

  /// This store's serial, in every handle it gives out.
  private let serial: UInt32
  /// Bytes all caches together keep at most, beyond the shapes of the draw in progress.
  package let budgetBytes: Int
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
  /// Bytes of every cache, as of the end of the last draw.
  package private(set) var bytes = 0
  /// Bytes let go to stay within `budgetBytes` so far (tests and the bench read it).
  package private(set) var evictedBytes = 0

  package init(budgetBytes: Int) {
    self.budgetBytes = budgetBytes
    serial = Self.serials.wrappingAdd(1, ordering: .relaxed).oldValue
  }

  /// Starts a draw: advances `clock` and `draws`.
  package func beginDraw() {
    let now = DispatchTime.now().uptimeNanoseconds
    if let last = lastTick, now > last {
      clock += min(Self.maximumGap, Double(now - last) * 1e-9)
    }
    lastTick = now
    draws += 1
  }

  /// The handle of `shape`: `hint` itself when it is still this store's handle of a live
  /// entry (no hashing), else the shape's entry, made if new.
  package func id(for shape: DashedRing, hint: ShapeID) -> ShapeID {
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
  package func cache<E: Error>(
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
  /// handle in `ids`, when given, is tried first and updated: the one per-draw lookup of every
  /// path that draws rings.
  package func caches<E: Error>(
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

  /// Ends a draw: counts the bytes, lets idle shapes go, then the least recently drawn until
  /// the rest fit the budget.
  package func endDraw() {
    var total = 0
    for i in entries.indices where entries[i].isLive {
      if entries[i].lastDraw != draws, clock - entries[i].lastUse >= idleSeconds {
        letGo(i)
        continue
      }
      for case let c? in entries[i].caches { total += c.bytes }
    }
    bytes = total
    // Least recently used first, found by a scan each (no allocation; few go a draw).
    while bytes > budgetBytes {
      var oldest = -1
      for i in entries.indices where entries[i].isLive && entries[i].lastDraw != draws {
        if oldest < 0 || entries[i].lastUse < entries[oldest].lastUse { oldest = i }
      }
      guard oldest >= 0 else { return }
      let freed = entries[oldest].caches.reduce(0) { $0 + ($1?.bytes ?? 0) }
      letGo(oldest)
      evictedBytes += freed
      bytes -= freed
    }
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

  /// Lets every shape go (the renderer is going).
  package func removeAll() {
    for i in entries.indices where entries[i].isLive { letGo(i) }
    bytes = 0
  }

  /// The shapes held now (tests).
  package var heldShapes: [DashedRing] {
    entries.filter(\.isLive).map(\.shape)
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
