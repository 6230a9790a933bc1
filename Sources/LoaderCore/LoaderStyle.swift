/// How a stroke's ends are drawn.
public enum LineCap: String, Sendable, Hashable, CaseIterable {
  /// Ends stop flat at the dash's end.
  case butt
  /// A half disc of radius `lineWidth / 2` past each end (the seed's `.round`).
  case round
}

/// Every constant of the seed's `LoaderView`, with the seed's values as defaults.
///
/// ```
/// Circle().strokeBorder(style: StrokeStyle(lineWidth: 4, lineCap: .round, dash: [2,4,6]))
///   .frame(width: 50, height: 50)
/// withAnimation(.linear(duration: 0.6)) { rotations[i] += 360 }   // every 0.25 s
/// ```
public struct LoaderStyle: Sendable, Hashable {
  /// Rings in the row (`ForEach(0..<5)`).
  public var ringCount: Int = 5
  /// Ring `i` uses `colors[i % colors.count]`.
  public var colors: [RGBAColor] = LoaderPalette.light.ringColors
  /// Side of each ring's square frame, in points.
  public var frameSize: Double = 50
  /// Width of each ring's stroke, points (`strokeBorder(lineWidth: 4)`), at most half `frameSize`.
  public var lineWidth: Double = 4
  /// How each dash ends.
  public var lineCap: LineCap = .round
  /// The dashes along each ring's centreline, points, starting at 3 o'clock.
  public var dash: DashPattern = .seed
  /// Length of one linear turn, seconds.
  public var turnDuration: Double = 0.6
  /// Time between successive triggers (ring `j` then ring `j + 1`), seconds.
  public var stagger: Double = 0.25
  /// What one trigger adds to a ring's angle, degrees.
  public var turnDegrees: Double = 360
  /// Minimum width of each `Spacer` in the row, points.
  public var minimumSpacing: Double = 8

  /// The seed's style: every field at SwiftUI's value.
  public init() {}

  /// The seed, exactly.
  public static let seed = LoaderStyle()

  /// This style with the ring colours of `palette` (its background is for the host to clear
  /// with, or for `LoaderExport`).
  /// - Parameter palette: the palette whose `ringColors` become `colors`.
  /// - Returns: a copy of this style with `colors` replaced.
  public func with(palette: LoaderPalette) -> LoaderStyle {
    var s = self
    s.colors = palette.ringColors
    return s
  }

  /// The colour of ring `i`: `colors[i % colors.count]` (black when `colors` is empty, which
  /// `validate()` refuses).
  package func color(ofRing i: Int) -> RGBAColor {
    colors.isEmpty ? RGBAColor(hex: 0) : colors[i % colors.count]
  }

  /// `strokeBorder` insets by half the line width: the centreline radius.
  package var centerlineRadius: Double { frameSize / 2 - lineWidth / 2 }

  /// One steady cycle of the motion, seconds: `ringCount * stagger` (1.25 for the seed). Every
  /// ring is triggered once in it, and once the turns have settled the motion repeats with
  /// this period: the loop `LoaderExport` writes and a looping recording holds.
  package var period: Double { Double(ringCount) * stagger }

  /// Why a style cannot be drawn or animated: `description` names the property, the reason
  /// and the limits.
  public struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
    /// The property refused, by name.
    package let field: String
    /// Why, with the limits.
    package let reason: String

    /// `field` (a property's name) is out of range, for `reason`.
    package static func invalid(field: String, reason: String) -> Self {
      Self(field: field, reason: reason)
    }

    /// `field: reason`.
    public var description: String { "\(field): \(reason)" }
  }

  /// Most rings in a loader and most colours in `colors`: far above any spinner, small
  /// enough that a hostile style cannot make one loader's arrays large.
  package static let maximumRingCount = 1024
  /// Most colours in `colors` (see `maximumRingCount`).
  package static let maximumColorCount = 1024
  /// Largest frame, points: at density 1 its rings already reach past the `spans` and `gfx`
  /// backends' limits (2048 and 1024 px), so a larger one can only be a mistake.
  package static let maximumFrameSize = 10_000.0
  /// Limits on `turnDuration` and `stagger`, seconds. A trigger fires every `stagger`, so a
  /// step of `dt` fires `dt / stagger` of them per loader: below a millisecond that work has
  /// no useful bound (and `1 / turnDuration` leaves `Float` range near zero). A day is far
  /// above any animation and keeps every trigger time exact in the engine's tick counter.
  package static let minimumDuration = 0.001
  /// Longest `turnDuration` and `stagger`, seconds (see `minimumDuration`).
  package static let maximumDuration = 86_400.0

  /// Throws the first field that cannot be drawn or animated, with the reason and the limits.
  /// Every `LoaderField`, `LoaderView` and `LoaderExport` call that takes a style checks it
  /// with this.
  /// - Throws: `LoaderStyle.Error` for the first property, in this order, outside its limits:
  ///   `ringCount` 1...1024; `colors` 1 to 1,024 entries; `frameSize` finite, > 0 and at most
  ///   10,000 points; `lineWidth` finite, > 0 and at most half `frameSize`; `turnDuration` and
  ///   `stagger` 0.001...86,400 seconds; `turnDegrees` finite; `minimumSpacing` finite, not
  ///   negative; a `dash` that would cut a ring's centreline into more than 4,096 dashes.
  public func validate() throws(Error) {
    func bad(_ f: String, _ r: String) -> Error { .invalid(field: f, reason: r) }
    guard ringCount >= 1, ringCount <= Self.maximumRingCount else {
      throw bad("ringCount", "must be 1...\(Self.maximumRingCount), got \(ringCount)")
    }
    guard !colors.isEmpty else { throw bad("colors", "must not be empty") }
    guard colors.count <= Self.maximumColorCount else {
      throw bad("colors", "at most \(Self.maximumColorCount), got \(colors.count)")
    }
    guard frameSize.isFinite, frameSize > 0, frameSize <= Self.maximumFrameSize else {
      throw bad(
        "frameSize", "must be finite, > 0 and <= \(Int(Self.maximumFrameSize)), got \(frameSize)")
    }
    guard lineWidth.isFinite, lineWidth > 0, lineWidth <= frameSize / 2 else {
      throw bad(
        "lineWidth",
        "must be finite, > 0 and <= half the frame size (\(frameSize / 2)), got \(lineWidth)")
    }
    guard turnDuration.isFinite, turnDuration > 0 else {
      throw bad("turnDuration", "must be finite and > 0")
    }
    guard turnDuration >= Self.minimumDuration, turnDuration <= Self.maximumDuration else {
      throw bad("turnDuration", "must be 0.001...86400 seconds, got \(turnDuration)")
    }
    guard stagger.isFinite, stagger > 0 else { throw bad("stagger", "must be finite and > 0") }
    guard stagger >= Self.minimumDuration, stagger <= Self.maximumDuration else {
      throw bad("stagger", "must be 0.001...86400 seconds, got \(stagger)")
    }
    guard turnDegrees.isFinite else { throw bad("turnDegrees", "must be finite") }
    guard minimumSpacing.isFinite, minimumSpacing >= 0 else {
      throw bad("minimumSpacing", "must be finite and >= 0")
    }
    if dash.onIntervals(
      alongLength: 2 * Double.pi * centerlineRadius, limit: DashedRing.maximumDashes) == nil
    {
      throw bad(
        "dash", "period is too short for the ring: more than \(DashedRing.maximumDashes) dashes")
    }
  }
}
