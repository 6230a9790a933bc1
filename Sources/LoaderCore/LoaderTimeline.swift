/// The reference model of one loader's motion: SwiftUI's semantics, written to be obviously
/// right rather than fast. Every engine is checked against it.
///
/// The seed runs
/// ```
/// .task(id: isAnimating) {
///   guard isAnimating else { return }
///   while !Task.isCancelled {
///     for i in 0..<5 {
///       withAnimation(.linear(duration: 0.6)) { rotations[i] += 360 }
///       guard (try? await Task.sleep(nanoseconds: 250_000_000)) != nil else { return }
///     }
///   }
/// }
/// ```
/// so, with `n` rings, stagger `g`, duration `d` and turn `D` degrees:
/// - turned on at `R` and next off at `C` (or never), triggers happen at `s_j = R + g * j` for
///   every `j >= 0` with `s_j < C`, and trigger `j` turns ring `j mod n`;
/// - setting the same value again changes nothing (`.task(id:)` restarts only on change);
/// - turns are additive timing curves: `angle_i(t) = sum over triggers s <= t of ring i of
///   D * min(1, (t - s) / d)`. Running turns finish after cancellation; nothing resets.
package struct LoaderTimeline: Sendable, Hashable {
  package var ringCount: Int
  package var stagger: Double
  package var turnDuration: Double
  package var turnDegrees: Double

  /// `(on, off)` stretches, in order; `off == nil` for one still running.
  package private(set) var runs: [(on: Double, off: Double?)] = []

  package init(style: LoaderStyle = .seed) {
    ringCount = style.ringCount
    stagger = style.stagger
    turnDuration = style.turnDuration
    turnDegrees = style.turnDegrees
  }

  /// A timeline that turns on at `start`.
  package init(style: LoaderStyle = .seed, animatingFrom start: Double) {
    self.init(style: style)
    setAnimating(true, at: start)
  }

  package var isAnimating: Bool { runs.last.map { $0.off == nil } ?? false }

  /// `isAnimating = on` at `time`. Times must not go backwards; a repeat of the current value
  /// is ignored, as `.task(id:)` ignores an unchanged id.
  package mutating func setAnimating(_ on: Bool, at time: Double) {
    precondition(time.isFinite, "toggle time must be finite")
    if let last = runs.last {
      precondition(time >= (last.off ?? last.on), "toggle times must not decrease")
    }
    guard on != isAnimating else { return }
    if on {
      runs.append((on: time, off: nil))
    } else {
      runs[runs.count - 1].off = time
    }
  }

  /// Every trigger at or before `t`, in time order: `(time, ring)`.
  package func triggers(through t: Double) -> [(time: Double, ring: Int)] {
    var out: [(time: Double, ring: Int)] = []
    for run in runs {
      var j = 0
      while true {
        let s = run.on + stagger * Double(j)
        if let off = run.off, s >= off { break }
        if s > t { break }
        out.append((time: s, ring: j % ringCount))
        j += 1
      }
    }
    return out
  }

  /// Ring `ring`'s on-screen angle at `t`, degrees clockwise, unwrapped.
  package func angle(ofRing ring: Int, at t: Double) -> Double {
    var a = 0.0
    for trig in triggers(through: t) where trig.ring == ring {
      a += turnDegrees * Swift.min(1, (t - trig.time) / turnDuration)
    }
    return a
  }

  /// All rings' angles at `t`.
  package func angles(at t: Double) -> [Double] {
    (0..<ringCount).map { angle(ofRing: $0, at: t) }
  }
}

extension LoaderTimeline {
  package static func == (a: LoaderTimeline, b: LoaderTimeline) -> Bool {
    a.ringCount == b.ringCount && a.stagger == b.stagger && a.turnDuration == b.turnDuration
      && a.turnDegrees == b.turnDegrees && a.runs.count == b.runs.count
      && zip(a.runs, b.runs).allSatisfy { $0.on == $1.on && $0.off == $1.off }
  }

  package func hash(into h: inout Hasher) {
    h.combine(ringCount)
    h.combine(stagger)
    h.combine(turnDuration)
    h.combine(turnDegrees)
    for r in runs {
      h.combine(r.on)
      h.combine(r.off)
    }
  }
}
