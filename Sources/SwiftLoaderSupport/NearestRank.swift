/// The nearest-rank percentile, the one rule the bench's statistics and the demo's HUD both
/// report: on sorted samples `x_1 <= ... <= x_n`,
/// ```
/// p_q = x_k,  k = min(n, max(1, ceil(q * n)))      q in [0, 1]
/// ```
/// so `p_q` is a value that was actually measured and at least `q` of the samples are at or
/// below it. With 10 samples p90 is the 9th and p99 the 10th (the maximum).
package enum NearestRank {
  /// `p_q` of `sorted` (ascending, non-empty).
  package static func percentile(_ q: Double, ofSorted sorted: [Double]) -> Double {
    precondition(!sorted.isEmpty)
    let k = Int((q * Double(sorted.count)).rounded(.up))
    return sorted[min(max(k, 1), sorted.count) - 1]
  }
}
