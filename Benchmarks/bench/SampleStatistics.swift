/// The order statistics a result reports, package-benchmark style: a distribution, not a mean.
///
/// Percentiles use the nearest-rank rule on the sorted samples `x_1 <= ... <= x_n`:
/// ```
/// p_q = x_k,  k = max(1, ceil(q / 100 * n))
/// ```
/// so `p_q` is a value that was actually measured and at least `q` percent of the samples are
/// at or below it. With 10 samples p90 is the 9th and p99 the 10th (the maximum).
struct SampleStatistics: Equatable {
  var min: Double
  var p50: Double
  var p90: Double
  var p99: Double
  var count: Int

  /// `samples` must be non-empty and finite.
  init(_ samples: [Double]) {
    precondition(!samples.isEmpty && samples.allSatisfy(\.isFinite))
    let s = samples.sorted()
    func rank(_ q: Double) -> Double {
      let k = Swift.max(1, Int((q / 100 * Double(s.count)).rounded(.up)))
      return s[Swift.min(k, s.count) - 1]
    }
    min = s[0]
    p50 = rank(50)
    p90 = rank(90)
    p99 = rank(99)
    count = s.count
  }

  init(min: Double, p50: Double, p90: Double, p99: Double, count: Int) {
    self.min = min
    self.p50 = p50
    self.p90 = p90
    self.p99 = p99
    self.count = count
  }

  /// Every statistic times `factor` (unit changes: ns per frame to us per ring, ...). A
  /// negative factor would swap the order, so it is not allowed.
  func scaled(by factor: Double) -> SampleStatistics {
    precondition(factor >= 0)
    return SampleStatistics(
      min: min * factor, p50: p50 * factor, p90: p90 * factor, p99: p99 * factor, count: count)
  }
}
