import Foundation

extension DashedRing {
  /// A ring's dashes sorted and prepared so that the signed distance of a point costs one
  /// arctangent, one table load and a few products: what rasterizers call per pixel. Build it
  /// once per shape (it allocates); `signedDistance(x:y:)` allocates nothing.
  ///
  /// For a point at polar `(rho, theta)` in the unrotated ring, with `R = radius`,
  /// `h = halfWidth`:
  /// - `theta` inside a dash's angular range: `d = |rho - R| - h`; with butt caps also
  ///   `d = max(d, -t)`, `t` the distance to the nearer flat end (so pixels just inside an end
  ///   are partly covered, as just outside it: the sector's signed distance);
  /// - `theta` in a gap: the nearest ink belongs to the dash before the gap or the one after,
  ///   since the distance to a point of the centreline grows with the angle between them.
  ///   Round caps: `d = min(|p - e|, |p - s|) - h`, `e` and `s` the cap centres on the
  ///   centreline; butt caps: `d` the distance to the nearer flat end, the radial segment
  ///   `R - h ... R + h` at the dash's end angle.
  ///
  /// `theta` comes from a polynomial `atan2` (`atan2(_:_:)`). Touching dashes are merged
  /// first, so no flat end lies inside ink.
  package struct DistanceTable: Sendable {
    package let radius: Double
    package let halfWidth: Double
    @usableFromInline let roundCaps: Bool
    /// One dash covering the whole circle: no ends anywhere.
    @usableFromInline let solid: Bool
    /// Dash angles, ascending by start; only `starts[0]` may be negative (a dash across the
    /// seam).
    @usableFromInline let starts: [Double]
    @usableFromInline let ends: [Double]
    /// Unit vectors `(cos, sin)` of each dash's start and end angle: cap centres and flat ends
    /// are these times `radius`.
    @usableFromInline let startDirections: [SIMD2<Double>]
    @usableFromInline let endDirections: [SIMD2<Double>]
    /// `firstGuess[b]`: the last dash starting at or before angle `b * 2 pi / bins`, or -1,
    /// so finding a point's dash is one load and a step or two instead of a binary search.
    @usableFromInline let firstGuess: [Int32]
    @usableFromInline static var bins: Int { 512 }

    package init(_ ring: DashedRing) {
      radius = ring.radius
      halfWidth = ring.halfWidth
      roundCaps = ring.cap == .round
      let twoPi = 2 * Double.pi
      // Touching dashes are one: two capsules that meet make the capsule over both, and two
      // sectors that meet have no flat end between them.
      var merged: [Dash] = []
      for d in ring.dashes.sorted(by: { $0.start < $1.start }) where roundCaps || d.end > d.start {
        if let last = merged.last, d.start <= last.end {
          merged[merged.count - 1].end = Swift.max(last.end, d.end)
        } else {
          merged.append(d)
        }
      }
      if merged.count > 1, let first = merged.first, let last = merged.last, first.start <= 0,
        last.end >= twoPi
      {
        merged[0].start = last.start - twoPi
        merged.removeLast()
      }
      let sorted = merged
      solid = sorted.contains { $0.sweep >= twoPi }
      starts = sorted.map(\.start)
      ends = sorted.map(\.end)
      startDirections = sorted.map { SIMD2(cos($0.start), sin($0.start)) }
      endDirections = sorted.map { SIMD2(cos($0.end), sin($0.end)) }
      var guess: [Int32] = []
      var k = -1
      for b in 0..<Self.bins {
        let edge = Double(b) * twoPi / Double(Self.bins)
        while k + 1 < starts.count, starts[k + 1] <= edge { k += 1 }
        guess.append(Int32(k))
      }
      firstGuess = guess
    }

    /// Whether there is any ink.
    package var isEmpty: Bool { starts.isEmpty }

    /// Bytes its arrays hold, as allocated.
    package var bytes: Int {
      (starts.capacity + ends.capacity) * 8 + (startDirections.capacity + endDirections.capacity)
        * 16 + firstGuess.capacity * 4
    }

    /// The dash at the angle of `(x, y)` (a ring with dashes): the last starting at or before
    /// it (-1 for none), the angle in `0 ..< 2 pi` (below 0 in the wrapped part of a dash
    /// across the seam, which is then dash 0), and whether the angle lies within that dash.
    @inlinable @inline(__always)
    func dash(atX x: Double, y: Double) -> (k: Int, theta: Double, inside: Bool) {
      let n = starts.count
      let twoPi = 2 * Double.pi
      var theta = Self.atan2(y, x)
      if theta < 0 { theta += twoPi }
      if theta >= twoPi { theta -= twoPi }  // also catches 2 pi - tiny + tiny
      let bin = Swift.min(Int(theta * (Double(Self.bins) / twoPi)), Self.bins - 1)
      var k = Int(firstGuess[bin])
      while k + 1 < n, starts[k + 1] <= theta { k += 1 }
      if k >= 0, theta <= ends[k] { return (k, theta, true) }
      if theta - twoPi >= starts[0] { return (0, theta - twoPi, true) }
      return (k, theta, false)
    }

    /// Signed distance from `(x, y)` (unrotated, relative to the centre) to the ink; +infinity
    /// with no dashes.
    @inlinable
    package func signedDistance(x: Double, y: Double) -> Double {
      let n = starts.count
      guard n > 0 else { return .infinity }
      let rho = (x * x + y * y).squareRoot()
      let body = abs(rho - radius) - halfWidth
      if solid { return body }
      let (k, theta, inside) = dash(atX: x, y: y)
      let p = SIMD2(x, y)
      if inside { return insideDistance(p, body: body, theta: theta, dash: k) }
      let before = k >= 0 ? k : n - 1
      let after = k + 1 < n ? k + 1 : 0
      return Swift.min(
        endDistance(p, endDirections[before]), endDistance(p, startDirections[after]))
    }

    /// The dashes as drawn: sorted by start and merged where they touch (so the first may
    /// start below 0).
    package var dashes: [Dash] { zip(starts, ends).map { Dash(start: $0, end: $1) } }

    /// Signed distance from `(x, y)` to dash `k` of `dashes` alone (its capsule or sector),
    /// for a backend that draws each dash by itself and lets blending make the union.
    @inlinable
    package func signedDistance(x: Double, y: Double, toDash k: Int) -> Double {
      let p = SIMD2(x, y)
      let rho = (x * x + y * y).squareRoot()
      let body = abs(rho - radius) - halfWidth
      if solid { return body }
      let twoPi = 2 * Double.pi
      var u = Self.atan2(y, x) - starts[k]
      u -= twoPi * (u / twoPi).rounded(.down)
      if u <= ends[k] - starts[k] {
        return insideDistance(p, body: body, theta: starts[k] + u, dash: k)
      }
      return Swift.min(endDistance(p, endDirections[k]), endDistance(p, startDirections[k]))
    }

    /// Distance for a point at angle `theta` within dash `k`'s range (`body` its distance to
    /// the ring's sides): with butt caps the flat ends within a quarter turn count too (beyond
    /// that the cross product stops measuring the distance to the end's line, and the end is
    /// far anyway).
    @inlinable
    func insideDistance(_ p: SIMD2<Double>, body: Double, theta: Double, dash k: Int) -> Double {
      if roundCaps { return body }
      var t = Double.infinity
      if theta - starts[k] < .pi / 2 { t = Self.cross(startDirections[k], p) }
      if ends[k] - theta < .pi / 2 { t = Swift.min(t, Self.cross(p, endDirections[k])) }
      return Swift.max(body, -t)
    }

    /// Distance from `p` outside a dash to its end along `direction`: the round cap about
    /// `radius * direction`, or the flat end there.
    @inlinable
    func endDistance(_ p: SIMD2<Double>, _ direction: SIMD2<Double>) -> Double {
      if roundCaps {
        let e = p - radius * direction
        return (e * e).sum().squareRoot() - halfWidth
      }
      return flatEndDistance(p, direction)
    }

    /// Coverage of the pixel whose centre is at `(x, y)`:
    /// `DashedRing.coverage(atDistance:halfWidth:)` of its distance, or, for a stroke under
    /// `supersampledBelowHalfWidth` (a ring under 25 pixels at the seed's proportions), the
    /// mean of that rule over the pixel's four quarters, each a half-pixel box:
    /// ```
    /// c = 1/4 sum over (i, j) in {-1/4, 1/4}^2 of clamp(min(1/2 - 2 d(x + i, y + j), 4 h), 0, 1)
    /// ```
    /// A box filter of one pixel is exact only for straight edges; on a thin ring with caps
    /// under a pixel across it misses the 30 dB bar against Cairo, and the quarters meet it.
    ///
    /// Shortcuts, same number: a pixel whose quarters all lie within one dash's angular range
    /// (round caps, or no ends) takes their distances from the ring's sides alone (one
    /// arctangent, not four); a pixel centred at least `clearDistance` from the ink is 0.
    @inlinable
    package func coverage(x: Double, y: Double) -> Double {
      guard halfWidth < Self.supersampledBelowHalfWidth else {
        return DashedRing.coverage(atDistance: signedDistance(x: x, y: y), halfWidth: halfWidth)
      }
      let h = 2 * halfWidth
      switch quarterCase(x: x, y: y) {
      case .clear:
        return 0
      case .body:
        @inline(__always) func quarter(_ dx: Double, _ dy: Double) -> Double {
          let (px, py) = (x + dx, y + dy)
          let body = abs((px * px + py * py).squareRoot() - radius) - halfWidth
          return DashedRing.coverage(atDistance: 2 * body, halfWidth: h)
        }
        return
          (quarter(-0.25, -0.25) + quarter(0.25, -0.25) + quarter(-0.25, 0.25)
          + quarter(0.25, 0.25)) / 4
      case .general:
        return quarterCoverage(x: x, y: y)
      }
    }

    /// `coverage(x:y:)` for a stroke under `supersampledBelowHalfWidth`, each quarter's
    /// distance computed in full (the definition the shortcuts must equal).
    @inlinable
    package func quarterCoverage(x: Double, y: Double) -> Double {
      let h = 2 * halfWidth
      func quarter(_ dx: Double, _ dy: Double) -> Double {
        DashedRing.coverage(atDistance: 2 * signedDistance(x: x + dx, y: y + dy), halfWidth: h)
      }
      return
        (quarter(-0.25, -0.25) + quarter(0.25, -0.25) + quarter(-0.25, 0.25)
        + quarter(0.25, 0.25)) / 4
    }

    /// Where a pixel centred at `(x, y)` lies, for `coverage(x:y:)`'s shortcuts.
    @usableFromInline enum QuarterCase {
      /// Every quarter within one dash's angular range, its ends (if any) round: each
      /// quarter's distance is `|rho - R| - h`.
      case body
      /// The centre at least `clearDistance` from the ink: no quarter is covered.
      case clear
      /// Neither: each quarter's distance in full.
      case general
    }

    /// From the pixel's centre: farther than this from the ink, none of its quarters is
    /// covered (`0.354 + 1/4`, and a margin for rounding).
    @usableFromInline static var clearDistance: Double { 0.62 }

    /// Which of `coverage(x:y:)`'s cases the pixel centred at `(x, y)` takes: its angle, its
    /// dash and, in a gap, its distance to the two ends beside it, as `signedDistance(x:y:)`
    /// finds them. A quarter lies 0.354 px from the centre, within `0.555 / rho` radians of
    /// its angle: `0.6 / rho` leaves room for the arctangent's error.
    @inlinable
    func quarterCase(x: Double, y: Double) -> QuarterCase {
      let n = starts.count
      guard n > 0 else { return .clear }
      if solid { return .body }
      let rho = (x * x + y * y).squareRoot()
      guard rho > 1 else { return .general }
      let (k, theta, inside) = dash(atX: x, y: y)
      if inside {
        let margin = 0.6 / rho
        return roundCaps && theta - starts[k] >= margin && ends[k] - theta >= margin
          ? .body : .general
      }
      let p = SIMD2(x, y)
      let before = k >= 0 ? k : n - 1
      let after = k + 1 < n ? k + 1 : 0
      let d = Swift.min(
        endDistance(p, endDirections[before]), endDistance(p, startDirections[after]))
      return d >= Self.clearDistance ? .clear : .general
    }

    /// Coverage of the pixel whose centre is at `(x, y)` by the one-pixel box alone, whatever
    /// the width: `coverage(x:y:)` for strokes of half width `supersampledBelowHalfWidth` or
    /// more, a quarter of its cost for thinner ones (rings too small for a reference picture).
    @inlinable
    package func boxCoverage(x: Double, y: Double) -> Double {
      DashedRing.coverage(atDistance: signedDistance(x: x, y: y), halfWidth: halfWidth)
    }

    /// Strokes thinner than this half width (pixels) are covered by quarters (see
    /// `coverage(x:y:)`).
    package static let supersampledBelowHalfWidth = 1.0

    /// How far past the stroke's edge, in pixels, a pixel's centre can lie and still get
    /// coverage from `coverage(x:y:)`: half a pixel for the box, a whole one for quarters.
    package static func fringeReach(halfWidth: Double) -> Double {
      halfWidth < supersampledBelowHalfWidth ? 1.0 : 0.5
    }

    /// Distance from `p` to the flat end along `direction`: the radial segment of half-length
    /// `halfWidth` about the centreline.
    @inlinable
    func flatEndDistance(_ p: SIMD2<Double>, _ direction: SIMD2<Double>) -> Double {
      let radial = (p * direction).sum()
      let tangential = Self.cross(direction, p)
      let off = Swift.max(0, abs(radial - radius) - halfWidth)
      return (off * off + tangential * tangential).squareRoot()
    }

    /// `a x b`: for a unit `a`, the distance of `b` from `a`'s line, positive clockwise of
    /// it on screen (y down).
    @inlinable
    static func cross(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
      a.x * b.y - a.y * b.x
    }

    /// `atan2(y, x)` in `[-pi, pi]` to within 2e-6 radians, cheaper than libm's. `atan(a)` on
    /// `[0, 1]` is `a * p(a^2)` with `p` a degree-5 polynomial fitted for least maximum
    /// error; the octant is restored from the signs and from which coordinate is larger.
    @inlinable
    package static func atan2(_ y: Double, _ x: Double) -> Double {
      let ax = abs(x)
      let ay = abs(y)
      let big = Swift.max(ax, ay)
      guard big > 0 else { return 0 }
      let a = Swift.min(ax, ay) / big
      let s = a * a
      var p = -0.011721363925789714
      p = p * s + 0.052652919986277365
      p = p * s - 0.11643147431428709
      p = p * s + 0.19354229937434114
      p = p * s - 0.33262312289756896
      p = p * s + 0.9999772313004308
      var t = a * p
      if ay > ax { t = .pi / 2 - t }
      if x < 0 { t = .pi - t }
      return y < 0 ? -t : t
    }
  }
}
