/// A validated dash pattern: alternating "on" and "off" lengths along a path, and a phase.
///
/// Follows PostScript, SVG, Core Graphics and Cairo (SPEC "Dash pattern"):
/// - an odd-length array is cycled twice so on/off alternate regardless of index:
///   `[2, 4, 6]` means on 2, off 4, on 6, off 2, on 4, off 6 (period 24);
/// - the phase is an offset into the pattern, normalised into `[0, period)`, the period being
///   the sum of `intervals`;
/// - an empty array means a solid stroke.
///
/// Rejected, with a reason: a negative or non-finite entry, an all-zero pattern, a non-finite
/// phase, and more than 256 entries.
public struct DashPattern: Sendable, Hashable {
  /// The lengths, on/off alternating, always an even count (empty for solid).
  public let intervals: [Double]
  /// Sum of `intervals`; 0 for solid.
  package let period: Double
  /// Phase normalised into `[0, period)`, the period being the sum of `intervals` (0 for
  /// solid).
  public let phase: Double

  /// 256 entries of 8 bytes is 2 KiB per pattern: far above any real dash array (Core Graphics
  /// and Skia users write 2 to 6), small enough that a hostile pattern cannot exhaust memory.
  package static let maximumCount = 256

  /// Why a pattern is refused: `description` names the first entry refused and why.
  public struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
    package enum Reason: Sendable, Equatable {
      case tooMany(count: Int)
      case negative(index: Int, value: Double)
      case nonFinite(index: Int)
      case allZero
      case nonFinitePhase
    }
    /// What was wrong, for the package's tests to match.
    package let reason: Reason

    package static func tooMany(count: Int) -> Self { Self(reason: .tooMany(count: count)) }
    package static func negative(index: Int, value: Double) -> Self {
      Self(reason: .negative(index: index, value: value))
    }
    package static func nonFinite(index: Int) -> Self { Self(reason: .nonFinite(index: index)) }
    package static let allZero = Self(reason: .allZero)
    package static let nonFinitePhase = Self(reason: .nonFinitePhase)

    /// The reason, in words.
    public var description: String {
      switch reason {
      case .tooMany(let n):
        "dash pattern has \(n) entries; at most \(DashPattern.maximumCount) are allowed"
      case .negative(let i, let v): "dash entry \(i) is negative (\(v))"
      case .nonFinite(let i): "dash entry \(i) is not a finite number"
      case .allZero: "dash pattern is all zeros (its period must be positive)"
      case .nonFinitePhase: "dash phase is not a finite number"
      }
    }
  }

  /// A pattern of on and off `lengths` (an odd count cycles twice; empty: solid), entered
  /// `phase` into it.
  /// - Parameters:
  ///   - lengths: on, off, on, ... lengths along the path, each finite and >= 0, not all zero.
  ///   - phase: how far into the pattern the path starts; any finite value, normalised into
  ///     `[0, period)` (the period: the sum of the cycled lengths).
  /// - Throws: `DashPattern.Error` naming the first entry refused: more than 256 lengths, a
  ///   length that is not finite or is negative, lengths that are all zero (or whose sum is
  ///   not finite), or a `phase` that is not finite.
  public init(_ lengths: [Double], phase: Double = 0) throws(Error) {
    guard lengths.count <= Self.maximumCount else { throw .tooMany(count: lengths.count) }
    for (i, v) in lengths.enumerated() {
      guard v.isFinite else { throw .nonFinite(index: i) }
      guard v >= 0 else { throw .negative(index: i, value: v) }
    }
    guard phase.isFinite else { throw .nonFinitePhase }
    if lengths.isEmpty {
      intervals = []
      period = 0
      self.phase = 0
      return
    }
    let cycled = lengths.count % 2 == 1 ? lengths + lengths : lengths
    let sum = cycled.reduce(0, +)
    guard sum > 0 else { throw .allZero }
    guard sum.isFinite else { throw .nonFinite(index: lengths.count - 1) }
    intervals = cycled
    period = sum
    var p = phase.truncatingRemainder(dividingBy: sum)
    if p < 0 { p += sum }
    if p >= sum { p = 0 }  // -tiny + sum rounds to sum
    self.phase = p
  }

  /// A solid stroke.
  public static let solid: DashPattern = try! DashPattern([])
  /// The seed's `[2, 4, 6]`.
  public static let seed: DashPattern = try! DashPattern([2, 4, 6])

  /// Whether the stroke is solid (no dashes).
  package var isSolid: Bool { intervals.isEmpty }

  /// The "on" stretches of an open path of `length`, as `start...end` in path length.
  ///
  /// The pattern starts at `phase` at position 0 and is cut at `length`; it is not
  /// coordinated with the closing point of a closed path (SPEC: the seed's last dash is
  /// 0.51 long). Zero-length "on" entries give zero-length intervals (dots). `limit` stops
  /// runaway output when the period is tiny next to the path: nil when it would be exceeded.
  package func onIntervals(alongLength length: Double, limit: Int = 100_000)
    -> [ClosedRange<Double>]?
  {
    guard length > 0, length.isFinite else { return [] }
    if isSolid { return [0...length] }
    // Count before building: on-entries per period times periods, plus the cut ends.
    let onPerPeriod = intervals.count / 2
    let estimate = (length / period).rounded(.up) * Double(onPerPeriod) + Double(onPerPeriod)
    guard estimate <= Double(limit) else { return nil }

    var result: [ClosedRange<Double>] = []
    result.reserveCapacity(Int(estimate))
    // Find where the phase falls in the pattern.
    var index = 0
    var remaining = intervals[0]
    var p = phase
    while p > 0, p >= remaining {
      p -= remaining
      index = (index + 1) % intervals.count
      remaining = intervals[index]
    }
    remaining -= p
    var s = 0.0
    while s < length {
      let end = Swift.min(length, s + remaining)
      if index % 2 == 0 { result.append(s...end) }
      s = end
      index = (index + 1) % intervals.count
      remaining = intervals[index]
    }
    return result
  }
}
