import Foundation

extension LoaderExport {
  /// The ink of one ring as open arcs about its centre, in points, y down: one arc per dash of
  /// `DashedRing(style:)`, each cut into segments of at most `maximumSweep` radians.
  ///
  /// A zero-length dash is an arc of `dotFraction` of the line width centred on it when caps
  /// are round (its caps make the dot) and nothing when they are butt (no ink).
  package struct DashArcs: Sendable, Equatable {
    /// One arc: its segments' end angles, radians clockwise from 3 o'clock, increasing,
    /// `angles[0]` the arc's start.
    package struct Arc: Sendable, Equatable {
      package var angles: [Double]
    }

    package var radius: Double
    package var lineWidth: Double
    package var cap: LineCap
    package var arcs: [Arc]

    package var segmentCount: Int { arcs.reduce(0) { $0 + $1.angles.count - 1 } }

    package init(style: LoaderStyle, maximumSweep: Double) {
      let ring = DashedRing(style: style)
      radius = ring.radius
      lineWidth = style.lineWidth
      cap = style.lineCap
      let dot = LoaderExport.dotFraction * style.lineWidth / ring.radius
      arcs = ring.dashes.compactMap { dash in
        var (start, sweep) = (dash.start, dash.sweep)
        if sweep <= 0 {
          guard style.lineCap == .round else { return nil }
          (start, sweep) = (start - dot / 2, dot)
        }
        let pieces = max(1, Int((sweep / maximumSweep).rounded(.up)))
        return Arc(
          angles: (0...pieces).map { k in
            k == pieces ? start + sweep : start + sweep * Double(k) / Double(pieces)
          })
      }
    }

    /// The point at `angle` on the centreline.
    package func point(at angle: Double) -> (x: Double, y: Double) {
      (radius * cos(angle), radius * sin(angle))
    }

    /// The cubic Bézier of the centreline from `a0` to `a1` (at most a quarter turn): control
    /// points along each end's tangent at `k = 4/3 * tan((a1 - a0) / 4) * radius`, the standard
    /// fit, whose radial error is `4.3e-6 * radius` at 45 degrees and `2.7e-4 * radius` at 90.
    /// Returns the two control points as offsets from their end points, as Lottie stores them.
    package func bezierHandles(from a0: Double, to a1: Double)
      -> (out: (x: Double, y: Double), in: (x: Double, y: Double))
    {
      let k = 4.0 / 3 * tan((a1 - a0) / 4) * radius
      return ((-k * sin(a0), k * cos(a0)), (k * sin(a1), -k * cos(a1)))
    }
  }
}
