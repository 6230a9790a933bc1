/// The one replacement policy of a `ShapeStore`, and every constant of it: the order in which
/// everything the store holds is let go, as ranks (kept first to last) from a stamp, the
/// store's clock (draws) when a draw last used it, with `reusedBit` once a later draw used it
/// again (`used(_:at:)`, the one place a use is stamped). With `age` the draws since, in
/// buckets of a power of two (0, 1, 2-3, 4-7, ...):
///
/// 1. entries used again, younger than `horizon` draws: the most recently used first;
/// 2. entries not used again since they were made, younger than `horizon`: the *oldest* first;
/// 3. everything older: the most recently used first.
///
/// Least-recently-used alone keeps nothing of a scene that cycles through more than the budget
/// (the seed's rings turn through 36 rotations every 75 frames: each mask would go just before
/// it is drawn again); ranked this way a store under such pressure drops what it built last
/// and keeps a stable part of the cycle, which then hits every time. A shape's caches and a
/// backend's own memory rank as entries used again at their last draw, so a shape's masks
/// never outlive it.
package enum CachePolicy {
  /// A stamp's bit for an entry a later draw used again.
  package static let reusedBit: UInt32 = 1 << 31
  /// Age buckets: 0, 1, 2-3, ... up to 2^21-2^22-1 draws, and everything older in the last.
  static let buckets = 24
  /// Draws within which a new entry is expected to be used again: longer than any loader's
  /// cycle of rotations, so a scene's steady state ranks as "used again".
  static let horizon: UInt32 = 256
  static let young = bucket(horizon)
  package static let ranks = young + buckets
  /// Entries this many draws idle rank `idleRank` or later and go at the next sweep, over
  /// budget or not: a host that stopped drawing a shape gets its memory back.
  static let idleDraws: UInt32 = 1024
  static let idleRank = young + bucket(idleDraws)
  /// A store sweeps out idle entries every this many draws: a sweep ranks everything held, so
  /// not at every draw.
  static let sweepDraws: UInt32 = 64
  /// Past the budget a store keeps `keptSixteenths / 16` of it, not all of it, so the next
  /// draws' new entries fit without letting go again at every draw.
  static let keptSixteenths = 15
  /// One shape's cache grows within `budget / shapeShare` during a draw (a gfx atlas paints no
  /// more cells than that): a draw of a few shapes fits without letting go of what it draws.
  package static let shapeShare = 4
  /// The smallest budget a store takes; a smaller one counts as this.
  package static let minimumBudget = 1 << 20

  @inline(__always)
  static func bucket(_ age: UInt32) -> Int {
    age == 0 ? 0 : min(buckets - 1, 1 + (31 - age.leadingZeroBitCount))
  }

  /// The stamp of an entry stamped `stamp` once draw `now` used it: `now`, marked reused
  /// unless `now` is the draw that made it.
  @inline(__always)
  package static func used(_ stamp: UInt32, at now: UInt32) -> UInt32 {
    stamp & ~reusedBit == now ? stamp : now | reusedBit
  }

  /// The rank of an entry stamped `stamp` at clock `now`.
  @inline(__always)
  package static func rank(_ stamp: UInt32, now: UInt32) -> Int {
    let b = bucket((now &- stamp) & ~reusedBit)
    if b >= young { return young + b }
    return stamp & reusedBit != 0 ? b : 2 * young - 1 - b
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

  /// The first rank to let go of a store over `budget`: what fits `keptSixteenths` of it, or
  /// the whole of it when the first rank (the draw's own entries) needs more.
  package static func cutoff(_ histogram: [Int], budget: Int, fixed: Int) -> Int {
    let fit = cutoff(histogram, fitting: budget * keptSixteenths / 16, fixed: fixed)
    return fit > 0 ? fit : cutoff(histogram, fitting: budget, fixed: fixed)
  }
}
