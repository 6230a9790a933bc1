import Testing

@testable import LoaderCore

/// `RotationEngine.nextMotion(atOrAfter:)`: when anything next moves, in loader time.
@Suite struct RotationEngineNextMotionTests {
  /// The seed (stagger 0.25 s, turn 0.6 s): off at 0.3 the last trigger is 0.25, so the rings
  /// rest from 0.85; off at exactly 0.25 that trigger never fires, so they rest from 0.6.
  @Test(arguments: [1.0 / 60, 0.1, 0.7])
  func quietFromTheLastTriggersTurnEnd(dt: Double) throws {
    for (off, quiet) in [(0.3, 0.25 + 0.6), (0.25, 0.6)] {
      var engine = try RotationEngine(dt: dt)
      let id = try engine.addLoader(isAnimating: true, at: 0)
      #expect(engine.nextMotion(atOrAfter: 0) == 0)
      try engine.advance(toStepContaining: off)
      try engine.setAnimating(false, loader: id, at: off)
      #expect(engine.nextMotion(atOrAfter: off) == off)
      #expect(engine.nextMotion(atOrAfter: quiet.nextDown) == quiet.nextDown, "dt \(dt) off \(off)")
      #expect(engine.nextMotion(atOrAfter: quiet) == nil, "dt \(dt) off \(off)")
      #expect(engine.nextMotion(atOrAfter: 1e6) == nil)
    }
  }

  /// A loader at rest answers nil; one turned on later answers its start until then.
  @Test func aLaterRunAnswersItsStart() throws {
    var engine = try RotationEngine(dt: 1.0 / 60)
    #expect(engine.nextMotion(atOrAfter: 0) == nil)
    try engine.addLoader(isAnimating: false, at: 0)
    #expect(engine.nextMotion(atOrAfter: 0) == nil)
    try engine.addLoader(isAnimating: true, at: 2)
    #expect(engine.nextMotion(atOrAfter: 0.5) == 2)
    let soon = try engine.addLoader(isAnimating: true, at: 1.5)
    #expect(engine.nextMotion(atOrAfter: 0.5) == 1.5)
    #expect(engine.nextMotion(atOrAfter: 1.5) == 1.5)
    #expect(engine.nextMotion(atOrAfter: 3) == 3)
    try engine.remove(soon)
    #expect(engine.nextMotion(atOrAfter: 0.5) == 2)
    #expect(engine.isAnyAnimating)
    try engine.setAnimatingAll(false, at: 2)
    #expect(!engine.isAnyAnimating)
    #expect(engine.nextMotion(atOrAfter: 2) == nil, "off at its start: no trigger fired")
  }

  /// An ended run's turns still count while the next run waits to start, and a run turned
  /// off before its first trigger leaves the earlier run's end.
  @Test func anEndedRunsTurnsOutlastALaterStart() throws {
    var engine = try RotationEngine(dt: 1.0 / 60)
    let id = try engine.addLoader(isAnimating: true, at: 0)
    try engine.advance(toStepContaining: 0.3)
    try engine.setAnimating(false, loader: id, at: 0.3)
    try engine.setAnimating(true, loader: id, at: 0.5)
    #expect(engine.nextMotion(atOrAfter: 0.4) == 0.4)
    try engine.setAnimating(false, loader: id, at: 0.5)
    #expect(engine.nextMotion(atOrAfter: 0.84) == 0.84)
    #expect(engine.nextMotion(atOrAfter: 0.85) == nil)
    try engine.remove(id)
    #expect(engine.nextMotion(atOrAfter: 0.4) == nil, "a removed loader moves nothing")
  }

  /// Random toggles of loaders in several timings (overlapping turns, quarter turns), stepped
  /// and jumped: quiet from the reference model's last trigger plus the turn, no sooner.
  @Test(arguments: 1...8)
  func matchesTheReferenceModel(seed: UInt64) throws {
    let styles: [LoaderStyle] = [
      .seed, .timing(rings: 3, stagger: 0.1, turn: 0.6), .timing(rings: 2, stagger: 0.4, turn: 0.3),
      .timing(rings: 4, stagger: 0.05, turn: 1.1, degrees: 90),
    ]
    var rng = SplitMix64(seed: seed)
    var engine = try RotationEngine(dt: 1.0 / 60, wheelSize: 8)
    var loaders: [(id: LoaderID, timeline: LoaderTimeline)] = []
    for k in 0..<12 {
      let style = styles[k % styles.count]
      loaders.append((try engine.addLoader(style: style, at: 0), LoaderTimeline(style: style)))
    }
    var t = 0.0
    for _ in 0..<40 {
      // Mostly within a turn, now and then a gap the engine jumps.
      t += Bool.random(using: &rng) ? Double.random(in: 0...0.7, using: &rng) : 3.1
      let i = Int.random(in: 0..<loaders.count, using: &rng)
      let on = Bool.random(using: &rng)
      try engine.advance(toStepContaining: t)
      try engine.setAnimating(on, loader: loaders[i].id, at: t)
      loaders[i].timeline.setAnimating(on, at: t)
    }
    try engine.setAnimatingAll(false, at: t)
    var quiet = -Double.infinity
    for k in loaders.indices {
      loaders[k].timeline.setAnimating(false, at: t)
      let tl = loaders[k].timeline
      if let last = tl.triggers(through: t).last { quiet = max(quiet, last.time + tl.turnDuration) }
    }
    try #require(quiet > t, "seed \(seed): every schedule here ends mid-turn")
    #expect(engine.nextMotion(atOrAfter: t) == t)
    #expect(engine.nextMotion(atOrAfter: quiet.nextDown) == quiet.nextDown, "seed \(seed)")
    #expect(engine.nextMotion(atOrAfter: quiet) == nil, "seed \(seed): quiet \(quiet)")
  }
}
