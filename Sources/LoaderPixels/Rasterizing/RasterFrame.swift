import LoaderCore

/// One ring to draw: its frame's centre in output pixels, its rotation, its colour, and which
/// of the draw call's shapes it has.
package struct RingInstance: Sendable, Hashable {
  /// Centre of the ring's frame, output pixels (continuous: pixel `(i, j)` covers `[i, i + 1)`).
  package var centerX: Float
  package var centerY: Float
  /// Degrees clockwise; any value (rasterizers reduce it mod 360).
  package var angle: Float
  package var color: RGBAColor
  /// Index into the `shapes` of the draw call; a ring whose index is out of range is skipped.
  package var shape: Int32

  package init(
    centerX: Float, centerY: Float, angle: Float, color: RGBAColor, shape: Int32 = 0
  ) {
    self.centerX = centerX
    self.centerY = centerY
    self.angle = angle
    self.color = color
    self.shape = shape
  }
}

/// What a backend keeps for one shape on one renderer (a `RingMaskShape`, a gfx atlas or
/// texture): made by the `ShapeStore` on the first draw that needs it, let go with its shape.
package protocol RingShapeCache: AnyObject {
  /// Bytes held now, memory and textures, as allocated (capacities, whole texture pages), so
  /// the store's budget bounds the memory.
  var bytes: Int { get }
  /// How far from a ring's centre its ink (and the backend's footprint) reaches, pixels:
  /// rings further than this outside the visible region are skipped.
  var cullingReach: Float { get }
  /// Frees what lives on the renderer now (textures); the cache is not used again.
  func close()
}

extension RingShapeCache {
  package func close() {}
}

/// The one replacement policy of a `ShapeStore`: the order in which everything it holds is
/// let go, as ranks (kept first to last) from a stamp, the store's clock (draws) when a draw
/// last used it, with `reusedBit` once a later draw used it again. With `age` the
/// draws since, in buckets of a power of two (0, 1, 2-3, 4-7, ...):
///
/// 1. entries used again, younger than `horizon` draws: the most recently used first;
/// 2. entries not used again since they were made, younger than `horizon`: the *oldest* first;
/// 3. everything older: the most recently used first.
///
/// Least-recently-used alone keeps nothing of a scene that cycles through more than the budget
/// (the seed's rings turn through 36 rotations every 75 frames: each mask would go just before
/// it is drawn again); ranked this way a store under such pressure drops what it built last
/// and keeps a stable part of the cycle, which then hits every time.
package enum CachePolicy {
  /// A stamp's bit for an entry a later draw used again.
  package static let reusedBit: UInt32 = 1 << 31
  static let buckets = 24
  /// Draws within which a new entry is expected to be used again.
  static let horizon: UInt32 = 256
  static let young = bucket(horizon)
  package static let ranks = young + buckets
  /// Entries this many draws idle rank `idleRank` or later: a store lets them go (`ShapeStore`).
  static let idleDraws: UInt32 = 1024
  static let idleRank = young + bucket(idleDraws)

  @inline(__always)
  static func bucket(_ age: UInt32) -> Int {
    age == 0 ? 0 : min(buckets - 1, 1 + (31 - age.leadingZeroBitCount))
  }

  /// The rank of an entry stamped `stamp` at clock `now`.
  @inline(__always)
  package static func rank(_ stamp: UInt32, now: UInt32) -> Int {
    let b = bucket((now &- stamp) & ~CachePolicy.reusedBit)
    if b >= young { return young + b }
    return stamp & CachePolicy.reusedBit != 0 ? b : 2 * young - 1 - b
  }

  /// The first rank whose entries do not fit: `histogram`'s bytes by rank, first rank first,
  /// fit in `bytes` after `fixed` bytes that stay (`ranks` when all fit).
  package static func cutoff(_ histogram: [Int], fitting bytes: Int, fixed: Int = 0) -> Int {
    var total = fixed
    var r = 0
    while r < ranks, total + histogram[r] <= bytes {
      total += histogram[r]
      r += 1
    }
    return r
  }
}

/// One draw call's rings and their shapes' caches, as a backend receives them.
package struct RasterFrame {
  package let rings: UnsafeBufferPointer<RingInstance>
  /// By shape index (`RingInstance.shape`): the shape's cache, nil when it has nothing to draw.
  package let caches: UnsafeBufferPointer<(any RingShapeCache)?>
  /// Threads the backend's CPU work may use.
  package let threads: Int
  /// The store's clock (`ShapeStore.now`): what a backend stamps the entries it uses with.
  package let now: UInt32
  /// The store's masks (the `spans` kernel's).
  package let masks: MaskCache

  package init(
    rings: UnsafeBufferPointer<RingInstance>, caches: UnsafeBufferPointer<(any RingShapeCache)?>,
    threads: Int, now: UInt32, masks: MaskCache
  ) {
    self.masks = masks
    self.rings = rings
    self.caches = caches
    self.threads = threads
    self.now = now
  }

  /// Each shape's cache as the backend's own type, in `list` (emptied first, capacity kept).
  package func caches<C: RingShapeCache>(as type: C.Type, into list: inout [C?]) {
    list.removeAll(keepingCapacity: true)
    for c in caches { list.append(c as? C) }
  }

  /// Calls `body` with every ring that can put ink in `region`, in order, with its shape's
  /// cache (`caches`, typed) and shape index: rings that are not finite, fully transparent,
  /// of a shape without a cache, or further than their cache's `reach` outside the region are
  /// skipped. `body` returns false to stop; the result says whether every ring was seen.
  /// `@inlinable`: the backends on a renderer (LoaderSDL) call it with their own cache types
  /// and closures, once a ring; inlined there, it is specialized for them.
  @inlinable @inline(__always)
  package func forEachVisibleRing<C: RingShapeCache, E: Error>(
    caches typed: [C?], in region: PixelRegion,
    _ body: (RingInstance, C, Int32) throws(E) -> Bool
  ) throws(E) -> Bool {
    let (x0, y0) = (Float(region.x), Float(region.y))
    let (x1, y1) = (Float(region.x + region.width), Float(region.y + region.height))
    var current = Int32(-1)
    // The current shape's cache, not retained: `typed` holds it for the whole call. (A strong
    // reference here retained and released a cache at each change of shape: in a scene of
    // mixed sizes, nearly every ring; Benchmarks/README.md has what that cost.)
    var cache: Unmanaged<C>?
    var reach: Float = 0
    for ring in rings {
      if ring.shape != current {
        current = ring.shape
        if current >= 0, Int(current) < typed.count, let c = typed[Int(current)] {
          cache = Unmanaged.passUnretained(c)
          reach = c.cullingReach
        } else {
          cache = nil
        }
      }
      // NaN and infinite centres fail these comparisons too.
      guard let cache, ring.color.a > 0, ring.angle.isFinite, ring.centerX + reach > x0,
        ring.centerY + reach > y0, ring.centerX - reach < x1, ring.centerY - reach < y1
      else { continue }
      // Lent to `body` without a retain (takeUnretainedValue would still retain it for the
      // call): the typed error travels around `_withUnsafeGuaranteedRef`'s untyped rethrows.
      var failure: E?
      let more = cache._withUnsafeGuaranteedRef { c -> Bool in
        do throws(E) { return try body(ring, c, current) } catch {
          failure = error
          return false
        }
      }
      if let failure { throw failure }
      guard more else { return false }
    }
    return true
  }
}
