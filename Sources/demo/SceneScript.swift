import LoaderCore
import LoaderSDL
import SwiftLoaderHarness

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
  private var nextEvent = 0
  /// Field handles, indexed by the schedule's loader numbers.
  private var loaders: [RotationEngine.LoaderID] = []

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
    nextEvent = 0
    self.loaders = loaders
  }

  /// The time of the next toggle still to play, if any.
  var nextTime: Double? {
    switch source {
    case .onFromStart: nil
    case .everyLoader(let times): nextShared < times.count ? times[nextShared] : nil
    case .perLoader(let s): nextEvent < s.events.count ? s.events[nextEvent].time : nil
    }
  }

  /// Applies every scripted toggle with `time < end`, in time order, each at its own time
  /// (the field steps up to it first).
  mutating func apply(to field: LoaderField, before end: Double) throws(LoaderField.Error) {
    switch source {
    case .onFromStart:
      return
    case .everyLoader(let times):
      while nextShared < times.count, times[nextShared] < end {
        // Off before the first toggle, so toggle k turns the loaders on when k is even.
        try field.setAnimatingAll(nextShared % 2 == 0, at: times[nextShared])
        nextShared += 1
      }
    case .perLoader(let schedule):
      let events = schedule.events
      while nextEvent < events.count, events[nextEvent].time < end {
        let e = events[nextEvent]
        nextEvent += 1
        guard loaders.indices.contains(e.loader) else { continue }
        try field.setAnimating(e.isAnimating, loader: loaders[e.loader], at: e.time)
      }
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
