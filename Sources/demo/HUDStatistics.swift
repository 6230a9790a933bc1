import SwiftLoaderSupport

/// Frame times of the window's recent frames, and what the HUD shows of them. No SDL: tested
/// on its own.
///
/// "The last second" is the newest frames whose times add up to one second (at least one
/// frame), so the figures need no clock: at 60 fps it is the last 60 frames. Over it:
/// ```
/// fps = frames / (sum of their times)
/// p50, p99 = nearest-rank percentiles: the ceil(q * n)-th smallest of the n frame times
/// ```
/// The graph keeps the last `graphLength` frame times whatever their sum.
struct HUDStatistics {
  /// Frames drawn in the graph.
  static let graphLength = 240
  /// The budget the graph's line marks: one frame of a 60 Hz display, seconds.
  static let budget = 1.0 / 60
  /// The span the percentiles and fps cover, seconds.
  static let window = 1.0
  /// Frames kept: a second at up to this rate (and at least the graph).
  static let capacity = 4096

  /// Newest last, at most `capacity`; a ring buffer once full.
  private var times: [Double] = []
  private var newest = -1
  private var sorted: [Double] = []

  private(set) var count = 0

  /// Adds the time one frame took, seconds. Non-finite and negative times are dropped: a clock
  /// that jumps must not poison the figures.
  mutating func record(frameTime: Double) {
    guard frameTime.isFinite, frameTime >= 0 else { return }
    count += 1
    if times.count < Self.capacity {
      times.append(frameTime)
      newest = times.count - 1
    } else {
      newest = (newest + 1) % Self.capacity
      times[newest] = frameTime
    }
  }

  /// The `k`-th newest frame time (0 = newest), `k < stored`.
  private func time(back k: Int) -> Double {
    times[(newest - k + times.count) % times.count]
  }

  /// The frame times of the last second, newest first.
  func lastSecond() -> [Double] {
    var out: [Double] = []
    var sum = 0.0
    for k in 0..<times.count {
      let t = time(back: k)
      out.append(t)
      sum += t
      if sum >= Self.window { break }
    }
    return out
  }

  /// Frames per second over the last second; 0 before the first frame or when all took 0.
  var framesPerSecond: Double {
    let s = lastSecond()
    let sum = s.reduce(0, +)
    return sum > 0 ? Double(s.count) / sum : 0
  }

  /// The nearest-rank percentile `q` (0...1) of the last second's frame times; 0 when empty.
  func percentile(_ q: Double) -> Double {
    let s = lastSecond().sorted()
    return s.isEmpty ? 0 : NearestRank.percentile(q, ofSorted: s)
  }

  /// The last `graphLength` frame times (fewer at first), oldest first.
  func graph() -> [Double] {
    let n = min(Self.graphLength, times.count)
    return (0..<n).reversed().map { time(back: $0) }
  }

  /// How a frame time compares with the budget, for the graph's colours.
  enum Budget: Equatable {
    /// Within one frame of a 60 Hz display.
    case met
    /// Up to twice the budget: one refresh missed.
    case missed
    /// More: several refreshes missed.
    case far
  }

  static func budget(of frameTime: Double) -> Budget {
    frameTime <= budget ? .met : frameTime <= 2 * budget ? .missed : .far
  }
}
