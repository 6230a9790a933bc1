import LoaderCore

/// When each of a set of loaders has `isAnimating` flipped: a replayable script for the engine's
/// tests, the demo's `--toggle-random` and the bench's baseline test.
///
/// Events are sorted by time, then loader; each loader's own times never decrease. An event's
/// `isAnimating` is the value set, which may repeat the current one (the engine ignores it, as
/// `.task(id:)` does).
package struct ToggleSchedule: Sendable, Hashable, CustomStringConvertible {
  /// One flip: loader `loader` gets `isAnimating` at `time` seconds.
  package struct Event: Sendable, Hashable {
    /// Seconds.
    package var time: Double
    /// Index of the loader in whatever order the caller created them.
    package var loader: Int
    /// The value set (may repeat the current one).
    package var isAnimating: Bool
    package init(time: Double, loader: Int, isAnimating: Bool) {
      self.time = time
      self.loader = loader
      self.isAnimating = isAnimating
    }
  }

  /// Every event, sorted by time (stable: same-time events keep the order given).
  package private(set) var events: [Event]
  /// Loaders the schedule is for: `Event.loader` is in `0..<loaderCount`.
  package let loaderCount: Int

  /// `events` in any order; sorted stably by time.
  package init(loaderCount: Int, events: [Event]) {
    self.loaderCount = loaderCount
    self.events = events.enumerated()
      .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
      .map(\.element)
  }

  /// Loader `i`'s events, in order.
  package func events(ofLoader i: Int) -> [Event] { events.filter { $0.loader == i } }

  /// The reference model of loader `i` under this schedule.
  package func timeline(ofLoader i: Int, style: LoaderStyle = .seed) -> LoaderTimeline {
    var tl = LoaderTimeline(style: style)
    for e in events where e.loader == i { tl.setAnimating(e.isAnimating, at: e.time) }
    return tl
  }

  /// One line per event: `time loader on|off`, times with full precision so the text replays.
  package var description: String {
    events.map { "\($0.time) \($0.loader) \($0.isAnimating ? "on" : "off")" }
      .joined(separator: "\n")
  }

  package enum ParseError: Swift.Error, Sendable, Equatable, CustomStringConvertible {
    case badLine(number: Int, text: String)
    package var description: String {
      switch self {
      case .badLine(let n, let t): "schedule line \(n): expected 'TIME LOADER on|off', got '\(t)'"
      }
    }
  }

  /// Reads `description`'s format back (blank lines skipped): a printed schedule replays
  /// exactly, since `Double`'s description round-trips.
  package init(parsing text: String) throws(ParseError) {
    var events: [Event] = []
    var loaders = 0
    for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let fields = line.split(separator: " ")
      if fields.isEmpty { continue }
      guard fields.count == 3, let t = Double(fields[0]), t.isFinite, let l = Int(fields[1]),
        l >= 0, fields[2] == "on" || fields[2] == "off"
      else { throw .badLine(number: i + 1, text: String(line)) }
      events.append(Event(time: t, loader: l, isAnimating: fields[2] == "on"))
      loaders = Swift.max(loaders, l + 1)
    }
    self.init(loaderCount: loaders, events: events)
  }

  /// Seeded random toggles: loader `i` draws from its own SplitMix64 stream (seeded by `seed`
  /// and `i`), so adding loaders leaves the others' schedules alone.
  ///
  /// Each loader starts at `t = 0` (on or off by a coin flip, so a third of all runs start at
  /// 0), then flips until `duration`, waiting each time one of:
  /// - a quick gap under 0.6 s (a turn is still running: overlapping turns),
  /// - up to the next few exact multiples of 0.25 s (triggers and toggles on the same instant),
  /// - a long gap of up to 3 s.
  /// Now and then it sets the value it already has (must be ignored).
  package static func random(seed: UInt64, loaders: Int, duration: Double = 10) -> ToggleSchedule {
    var events: [Event] = []
    for i in 0..<Swift.max(0, loaders) {
      var rng = SplitMix64(seed: seed ^ (UInt64(truncatingIfNeeded: i) &* 0xD1B5_4A32_D192_ED03))
      var on = rng.next() & 1 == 0
      var t = 0.0
      events.append(Event(time: 0, loader: i, isAnimating: on))
      while true {
        switch rng.next() % 3 {
        case 0: t += 0.6 * rng.nextUnit()
        case 1: t = (t / 0.25).rounded(.down) * 0.25 + 0.25 * Double(1 + rng.next() % 6)
        default: t += 3 * rng.nextUnit()
        }
        guard t < duration else { break }
        if rng.next() % 8 != 0 { on.toggle() }
        events.append(Event(time: t, loader: i, isAnimating: on))
      }
    }
    return ToggleSchedule(loaderCount: loaders, events: events)
  }
}

extension ToggleSchedule {
  /// Feeds a schedule's events to an engine as its steps reach them.
  package struct Player: Sendable {
    package let schedule: ToggleSchedule
    /// Engine handles, indexed by the schedule's loader numbers.
    package let loaders: [RotationEngine.LoaderID]
    /// Index of the next event to apply.
    package private(set) var next = 0

    package init(schedule: ToggleSchedule, loaders: [RotationEngine.LoaderID]) {
      self.schedule = schedule
      self.loaders = loaders
    }

    /// Applies every event before the end of the engine's next step (`time + dt`): call it
    /// before each `step()`. Events for loader numbers without a handle are skipped.
    package mutating func applyDue(to engine: inout RotationEngine) throws(RotationEngine.Error) {
      let end = engine.time + engine.dt
      try apply(to: &engine, before: end)
    }

    /// Steps `engine` until `renderTime` is presentable, applying the events each step reaches
    /// before it runs.
    package mutating func advance(_ engine: inout RotationEngine, toPresent renderTime: Double)
      throws(RotationEngine.Error)
    {
      while engine.time < renderTime {
        try applyDue(to: &engine)
        engine.step()
      }
    }

    /// Applies every event with `time < end`.
    package mutating func apply(to engine: inout RotationEngine, before end: Double)
      throws(RotationEngine.Error)
    {
      let events = schedule.events
      while next < events.count, events[next].time < end {
        let e = events[next]
        next += 1
        guard e.loader >= 0, e.loader < loaders.count else { continue }
        try engine.setAnimating(e.isAnimating, loader: loaders[e.loader], at: e.time)
      }
    }
  }
}
