import Foundation

/// The geometry of one dashed ring, unrotated, in its own units (points, or pixels after
/// `scaled(by:)`), centred on the origin.
///
/// The stroke's centreline is a circle of radius `radius` starting at 3 o'clock and running
/// clockwise on screen (y down). Arc length `s` maps to angle `s / radius`. Each "on" interval
/// of the dash pattern becomes one `Dash`: the set of points within `halfWidth` of the arc
/// from `start` to `end` (radians) for round caps (a bent capsule), or the annular sector
/// between those angles for butt caps.
///
/// For the seed (`radius` 23, `halfWidth` 2, `[2, 4, 6]`): 19 dashes, the last one 0.51 long
/// and ending exactly at 2 pi (the seam at 3 o'clock), the first one starting at 0.
public struct DashedRing: Sendable, Hashable {
  public struct Dash: Sendable, Hashable {
    /// Radians, clockwise from 3 o'clock, `0 <= start <= end <= 2 pi`.
    public var start: Double
    public var end: Double
    public var sweep: Double { end - start }
  }

  /// Centreline radius.
  public var radius: Double
  /// Half the line width: the cap radius and the half-thickness.
  public var halfWidth: Double
  public var cap: LineCap
  public var dashes: [Dash]

  /// A ring holds at most this many dashes; `LoaderStyle.validate()` rejects patterns whose
  /// period would give more (each dash costs each rasterizer work every frame).
  public static let maximumDashes = 4096

  public init(radius: Double, halfWidth: Double, cap: LineCap, dashes: [Dash]) {
    self.radius = radius
    self.halfWidth = halfWidth
    self.cap = cap
    self.dashes = dashes
  }

  /// The ring a style draws, in points. Styles that fail `validate()` give no dashes.
  public init(style: LoaderStyle) {
    let r = style.centerlineRadius
    let length = 2 * Double.pi * r
    let on = style.dash.onIntervals(alongLength: length, limit: Self.maximumDashes) ?? []
    self.init(
      radius: r, halfWidth: style.lineWidth / 2, cap: style.lineCap,
      dashes: r > 0 ? on.map { Dash(start: $0.lowerBound / r, end: $0.upperBound / r) } : [])
  }

  /// The same ring with every length multiplied by `scale` (angles unchanged).
  public func scaled(by scale: Double) -> DashedRing {
    DashedRing(radius: radius * scale, halfWidth: halfWidth * scale, cap: cap, dashes: dashes)
  }

  /// Whether the stroke's ink reaches the point `(x, y)` relative to the centre when the ring
  /// is rotated by `rotation` radians clockwise: the exact shape every rasterizer fills.
  public func signedDistance(x: Double, y: Double, rotation: Double = 0) -> Double {
    let rho = (x * x + y * y).squareRoot()
    var theta = atan2(y, x) - rotation
    let twoPi = 2 * Double.pi
    theta = theta.truncatingRemainder(dividingBy: twoPi)
    if theta < 0 { theta += twoPi }
    var best = Double.infinity
    for d in dashes {
      var dist: Double
      if angle(theta, isWithin: d) {
        dist = abs(rho - radius)
      } else if cap == .round {
        let (sx, sy) = (radius * cos(d.start + rotation), radius * sin(d.start + rotation))
        let (ex, ey) = (radius * cos(d.end + rotation), radius * sin(d.end + rotation))
        dist = Swift.min(hypot(x - sx, y - sy), hypot(x - ex, y - ey))
      } else {
        continue
      }
      best = Swift.min(best, dist)
    }
    return best - halfWidth
  }

  private func angle(_ theta: Double, isWithin d: Dash) -> Bool {
    (theta >= d.start && theta <= d.end) || (theta + 2 * Double.pi <= d.end)
  }
}
