import SwiftLoaderSupport

/// The order statistics a result reports, package-benchmark style: a distribution, not a mean.
///
/// Percentiles are `NearestRank`'s: each is a value that was actually measured.
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
    min = s[0]
    p50 = NearestRank.percentile(0.5, ofSorted: s)
    p90 = NearestRank.percentile(0.9, ofSorted: s)
    p99 = NearestRank.percentile(0.99, ofSorted: s)
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
