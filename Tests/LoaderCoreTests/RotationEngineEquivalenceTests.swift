import SwiftLoaderHarness
import Testing

@testable import LoaderCore

/// The engine against the reference model, `LoaderTimeline`, for
/// 1000 loaders with their own seeded random toggle schedules and mixed styles.
@Suite struct RotationEngineEquivalenceTests {
  static let mixedStyles: [LoaderStyle] = [
    .seed,
    // A ring comes round again while its turn runs: overlap without any toggle.
    LoaderStyle.timing(rings: 3, stagger: 0.1, turn: 0.6, degrees: 360),
    LoaderStyle.timing(rings: 1, stagger: 0.05, turn: 0.2, degrees: 90),
    LoaderStyle.timing(rings: 7, stagger: 0.3, turn: 1.5, degrees: -45),
    LoaderStyle.timing(rings: 5, stagger: 0.25, turn: 0.6, degrees: 720),
    // Several triggers inside one step.
    LoaderStyle.timing(rings: 2, stagger: 0.013, turn: 0.01, degrees: 360),
  ]

  struct Case: Sendable, CustomTestStringConvertible {
    var seed: UInt64
    var dt: Double
    var mixed: Bool
    var testDescription: String { "seed \(seed) dt \(dt) \(mixed ? "mixed styles" : "seed style")" }
  }

  static let loadersPerCase = 250
  static let duration = 6.0

  @Test(arguments: [
    Case(seed: 1, dt: 1.0 / 60, mixed: true), Case(seed: 2, dt: 1.0 / 64, mixed: true),
    Case(seed: 3, dt: 0.1, mixed: true), Case(seed: 4, dt: 1.0 / 60, mixed: false),
  ])
  func matchesReference(_ c: Case) throws {
    let n = Self.loadersPerCase
    let schedule = ToggleSchedule.random(seed: c.seed, loaders: n, duration: Self.duration)
    var rng = SplitMix64(seed: c.seed &* 7919)
    let styles = (0..<n).map { _ in
      c.mixed ? Self.mixedStyles[Int(rng.next() % UInt64(Self.mixedStyles.count))] : .seed
    }
    let references = (0..<n).map { schedule.timeline(ofLoader: $0, style: styles[$0]) }

    var engine = try RotationEngine(dt: c.dt)
    var ids: [RotationEngine.LoaderID] = []
    for s in styles {
      ids.append(try engine.addLoader(style: s))
    }
    var player = ToggleSchedule.Player(schedule: schedule, loaders: ids)
    var bulk: [Float] = []
    var worst = 0.0

    func check(_ i: Int, at t: Double) throws {
      for ring in 0..<styles[i].ringCount {
        let expected = references[i].angle(ofRing: ring, at: t)
        let got = try engine.angle(loader: ids[i], ring: ring, at: t)
        worst = Swift.max(worst, abs(got - expected))
        #expect(
          abs(got - expected) < 1e-6, "loader \(i) ring \(ring) at \(t): \(got) vs \(expected)")
      }
    }

    while engine.time < Self.duration + 2 {
      try player.applyDue(to: &engine)
      engine.step()

      let window = engine.presentableTimes
      if engine.tick % 3 == 0 {
        for _ in 0..<6 {
          let i = Int(rng.next() % UInt64(n))
          // Step ends, a random time between, and every turn start or end inside the window.
          var times = [window.lowerBound, window.upperBound]
          times.append(window.lowerBound + c.dt * rng.nextUnit())
          for trig in references[i].triggers(through: window.upperBound).suffix(20) {
            for edge in [trig.time, trig.time + styles[i].turnDuration] where window.contains(edge)
            {
              times.append(edge)
            }
          }
          for t in times { try check(i, at: t) }
        }
      }
      if engine.tick % 25 == 0 {
        let t = window.lowerBound + c.dt * rng.nextUnit()
        try engine.presentationAngles(at: t, into: &bulk)
        for i in 0..<n {
          let first = try engine.firstRing(of: ids[i])
          for ring in 0..<styles[i].ringCount {
            let expected = references[i].angle(ofRing: ring, at: t)
            // Float times within a few seconds of the epoch: a few 1e-7 s, scaled by D / d.
            let tolerance = 2e-4 + abs(styles[i].turnDegrees) * 6e-7 / styles[i].turnDuration
            #expect(
              circularDistance(Double(bulk[first + ring]), expected) < tolerance,
              "bulk loader \(i) ring \(ring)")
            #expect(bulk[first + ring] >= 0 && bulk[first + ring] < 360)
          }
        }
      }
    }
    #expect(player.next == schedule.events.count)
    #expect(worst < 1e-6)
  }
}
