import Foundation

extension LoaderExport {
  /// One ring's angle over one steady-state period, as keyframes with linear motion between.
  ///
  /// With period `P = n * g`, stagger `g`, turn duration `d` and `D` degrees a turn, ring `i`
  /// is triggered at `s_k = i * g + k * P` for every integer `k` (the steady state: the
  /// schedule started long ago), and SPEC's additive timing curves give
  /// ```
  /// A(t) = D * sum over k of clamp((t - s_k) / d, 0, 1)
  /// ```
  /// Between breakpoints the slope is `D / d` times the number of turns running, which only
  /// changes where a turn starts (`i * g`) or ends (`(i * g + d) mod P`). So `A` on `[0, P]` is
  /// piecewise linear with at most four keyframes: `0`, those two, and `P`. A slope of 0 is a
  /// rest. `A(P) = A(0) + D`: with `D` a multiple of 360 the last frame meets the first.
  ///
  /// `A(0)` is the part of the turns still running at the period's start (turns that ended
  /// before it add whole multiples of `D`, left out), in closed form so that a turn many
  /// periods long costs nothing more:
  /// ```
  /// k in k_lo...k_hi with -d < s_k <= 0:  k_lo = floor((-d - a) / P) + 1,  k_hi = floor(-a / P)
  /// A(0) = D / d * sum (-s_k) = D / d * (-c * a - P * c * (k_lo + k_hi) / 2),  c = k_hi - k_lo + 1
  /// ```
  /// reduced into `[0, 360)`.
  package struct RingMotion: Sendable, Equatable {
    /// Seconds from the period's start: increasing, the first 0 and the last the period.
    package var times: [Double]
    /// Degrees clockwise at each of `times`.
    package var angles: [Double]

    package init(times: [Double], angles: [Double]) {
      self.times = times
      self.angles = angles
    }

    /// Ring `ring` of `style` (which must pass `LoaderStyle.validate()`).
    package init(ring: Int, style: LoaderStyle) {
      let period = style.period
      let d = style.turnDuration
      let turn = style.turnDegrees
      let a = Double(ring) * style.stagger
      let end = (a + d).truncatingRemainder(dividingBy: period)
      // Breakpoints closer than this are one (rounding of `a + d` against `a`).
      let tolerance = period * 1e-9
      var times = [0.0]
      for t in [a, end, period].sorted() where t - times[times.count - 1] > tolerance {
        times.append(t)
      }
      times[times.count - 1] = period

      let kHigh = (-a / period).rounded(.down)
      let kLow = ((-d - a) / period).rounded(.down) + 1
      let count = max(0, kHigh - kLow + 1)
      var start = turn / d * (-count * a - period * count * (kLow + kHigh) / 2)
      start -= 360 * (start / 360).rounded(.down)
      if !(start.isFinite && start >= 0 && start < 360) { start = 0 }

      var angles = [start]
      var moves: [Bool] = []
      for j in 1..<times.count {
        let mid = (times[j - 1] + times[j]) / 2
        // Turns running at `mid`: integers k with mid - d < a + k * P < mid.
        let upper = (mid - a) / period
        let lower = (mid - d - a) / period
        let running = max(0, upper.rounded(.up) - lower.rounded(.down) - 1)
        moves.append(running > 0)
        angles.append(angles[j - 1] + turn / d * running * (times[j] - times[j - 1]))
      }
      // The slopes add up to exactly one turn: write the end so, free of rounding, and the
      // rest before it (if any) at the same angle, so that it stays a rest.
      var j = angles.count - 1
      angles[j] = start + turn
      while j > 0, !moves[j - 1] {
        angles[j - 1] = angles[j]
        j -= 1
      }
      self.times = times
      self.angles = angles
    }

    /// The angle at `t` seconds into the period, degrees, interpolated linearly.
    package func angle(at t: Double) -> Double {
      guard let last = times.last, t < last else { return angles.last ?? 0 }
      guard t > 0 else { return angles.first ?? 0 }
      var j = 1
      while times[j] < t { j += 1 }
      let f = (t - times[j - 1]) / (times[j] - times[j - 1])
      return angles[j - 1] + f * (angles[j] - angles[j - 1])
    }

    /// Whether segment `j` (from `times[j]` to `times[j + 1]`) is a rest.
    package func isRest(_ j: Int) -> Bool { angles[j] == angles[j + 1] }
  }
}
