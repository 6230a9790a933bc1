extension RotationEngine {
  /// The first loader time at or after `tau` (finite) at which a ring of a live loader may
  /// move: `tau` itself while a run has started by then or a turn of an ended run still runs,
  /// else the start of the earliest run that begins later, nil when everything is quiet. A
  /// host that steps and draws only then (or on input) misses no change. O(loaders).
  ///
  /// A run started at `R` and turned off at `C` is quiet from `R + stagger * j + turnDuration`,
  /// `j` its last trigger before `C`: `endRun` records it as it fires the run's rest, by the
  /// step's own products (seed: off at 0.3 -> trigger 0.25 -> quiet from 0.85).
  package func nextMotion(atOrAfter tau: Double) -> Double? {
    var soonest = Double.infinity
    for slot in 0..<loaderRuns.count {
      let run = loaderRuns[slot]
      guard run.isLive else { continue }
      if quietFrom[slot] > tau { return tau }
      guard run.isAnimating else { continue }
      if run.runStart <= tau { return tau }
      soonest = Swift.min(soonest, run.runStart)
    }
    return soonest.isFinite ? soonest : nil
  }

  /// Whether any live loader's `isAnimating` is true (its turns may run on after `false`:
  /// see `nextMotion(atOrAfter:)`).
  package var isAnyAnimating: Bool {
    for slot in 0..<loaderRuns.count where loaderRuns[slot].isLive && loaderRuns[slot].isAnimating {
      return true
    }
    return false
  }
}
