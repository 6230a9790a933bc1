import Foundation

/// The geometry of one dashed ring, unrotated, in its own units (points, or pixels after
/// `scaled(by:)`), centred on the origin.
///
/// The stroke's centreline is a circle of radius `radius` starting at 3 o'clock and running
/// clockwise on screen (y down). Arc length `s` maps to angle `s / radius`. Each "on" interval
/// of the dash pattern becomes one `Dash`, whose ink is
/// - round caps: every point within `halfWidth` of the arc from `start` to `end` (radians), a
///   capsule bent along the ring; a zero-length dash is a dot;
/// - butt caps: the annular sector `radius - halfWidth <= rho <= radius + halfWidth`,
///   `start <= theta <= end`, its flat ends along the radii (Cairo's `CAIRO_LINE_CAP_BUTT`);
///   a zero-length dash has no ink.
///
/// Dashes that touch (the last and first at the seam, or across a zero-length gap) are one
/// dash: one capsule, or one sector with no flat end between them.
///
/// The rasterizers fill that shape from the signed distance `d` (negative inside) of a point
/// to it, through `coverage(atDistance:halfWidth:)`; a flat end is antialiased like a side
/// edge. `DistanceTable` evaluates `d` fast enough for a rasterizer's inner loop.
package struct DashedRing: Sendable, Hashable {
  package struct Dash: Sendable, Hashable {
    /// Radians, clockwise from 3 o'clock, `0 <= start <= end <= 2 pi`.
    package var start: Double
    package var end: Double
    package var sweep: Double { end - start }

    package init(start: Double, end: Double) {
      self.start = start
      self.end = end
    }
  }

  /// Centreline radius.
  package var radius: Double
  /// Half the line width: the cap radius and the half-thickness.
  package var halfWidth: Double
  package var cap: LineCap
  package var dashes: [Dash]

  /// A ring holds at most this many dashes; `LoaderStyle.validate()` rejects patterns whose
  /// period would give more (each dash costs each rasterizer work every frame).
  package static let maximumDashes = 4096

  package init(radius: Double, halfWidth: Double, cap: LineCap, dashes: [Dash]) {
    self.radius = radius
    self.halfWidth = halfWidth
    self.cap = cap
    self.dashes = dashes
  }

  /// The ring a style draws, in points. Styles that fail `validate()` give no dashes.
  package init(style: LoaderStyle) {
    let r = style.centerlineRadius
    let length = 2 * Double.pi * r
    let on = style.dash.onIntervals(alongLength: length, limit: Self.maximumDashes) ?? []
    self.init(
      radius: r, halfWidth: style.lineWidth / 2, cap: style.lineCap,
      dashes: r > 0 ? on.map { Dash(start: $0.lowerBound / r, end: $0.upperBound / r) } : [])
  }

  /// The same ring with every length multiplied by `factor` (angles unchanged): points to
  /// pixels at a pixel density.
  package func scaled(by factor: Double) -> DashedRing {
    DashedRing(radius: radius * factor, halfWidth: halfWidth * factor, cap: cap, dashes: dashes)
  }

  /// Whether the radius and half-width are finite and positive, with at least one dash: a
  /// shape there is anything to draw of.
  package var isDrawable: Bool {
    radius.isFinite && halfWidth.isFinite && radius > 0 && halfWidth > 0 && !dashes.isEmpty
  }

  /// The coverage rule the rasterizers build on: a pixel whose centre lies at signed distance
  /// `d` (pixels, negative inside) from the ink of a stroke of half width `h` is covered
  /// ```
  /// clamp(min(1/2 - d, 2 h), 0, 1)
  /// ```
  /// the box-filtered coverage of a straight edge, and of a straight band `2 h` wide: a stroke
  /// thinner than a pixel covers no pixel more than its width (without the cap it comes out
  /// too dark). For `h >= 1/2` the cap never binds: `clamp(1/2 - d, 0, 1)`.
  ///
  /// Every backend builds on it; thin strokes (`DistanceTable.supersampledBelowHalfWidth`)
  /// take its mean over the pixel's four quarters (`DistanceTable.coverage(x:y:)`), except in
  /// `spans`' masks of the smallest rings, which keep the one-pixel box.
  @inlinable
  package static func coverage(atDistance d: Double, halfWidth h: Double = .infinity) -> Double {
    Swift.min(1, Swift.max(0, Swift.min(0.5 - d, 2 * h)))
  }

  /// Signed distance from `(x, y)` (relative to the centre) to the ink when the ring is
  /// rotated by `rotation` radians clockwise: negative inside. Builds a `DistanceTable` per
  /// call; loops over many points build one table and ask it.
  package func signedDistance(x: Double, y: Double, rotation: Double = 0) -> Double {
    let (c, s) = (cos(rotation), sin(rotation))
    return DistanceTable(self).signedDistance(x: x * c + y * s, y: -x * s + y * c)
  }
}
