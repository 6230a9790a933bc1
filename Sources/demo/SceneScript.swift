import LoaderCore

/// The toggles a run was given on the command line, played into the engine as its steps
/// reach them:
/// - `--toggle T1,T2,...`: every loader flips at each time (off before the first);
/// - `--toggle-random SEED`: each loader its own `ToggleSchedule.random` stream;
/// - neither: every loader animating from 0.
struct SceneScript {
  enum Source {
    case onFromStart
    case everyLoader([Double])
    case perLoader(ToggleSchedule)
  }

  let source: Source
  private var nextShared = 0
  private var player: ToggleSchedule.Player?

  init(source: Source) {
    self.source = source
  }

  /// Whether loaders start animating at 0 when added (no script flips them on).
  var startsOn: Bool {
    if case .onFromStart = source { return true }
    return false
  }

  /// The per-loader schedule, for the trace.
  var schedule: ToggleSchedule? {
    if case .perLoader(let s) = source { return s }
    return nil
  }

  /// Starts playing for `loaders` (scene order = the schedule's loader numbers).
  mutating func bind(to loaders: [RotationEngine.LoaderID]) {
    nextShared = 0
    if case .perLoader(let s) = source {
      player = ToggleSchedule.Player(schedule: s, loaders: loaders)
    }
  }

  /// Applies every scripted toggle with `time < end`.
  mutating func apply(to engine: inout RotationEngine, before end: Double) throws(RotationEngine
    .Error)
  {
    switch source {
    case .onFromStart:
      return
    case .everyLoader(let times):
      while nextShared < times.count, times[nextShared] < end {
        // Off before the first toggle, so toggle k turns the loaders on when k is even.
        try engine.setAnimatingAll(nextShared % 2 == 0, at: times[nextShared])
        nextShared += 1
      }
    case .perLoader:
      try player?.apply(to: &engine, before: end)
    }
  }
}

extension DemoOptions {
  /// The toggles `--toggle` or `--toggle-random` ask for.
  var script: SceneScript {
    if let seed = toggleRandomSeed {
      return SceneScript(source: .perLoader(.random(seed: seed, loaders: count)))
    }
    return SceneScript(source: toggles.isEmpty ? .onFromStart : .everyLoader(toggles))
  }
}
