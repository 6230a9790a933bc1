import SwiftLoaderHarness
import Testing

@testable import LoaderCore

/// `RotationEngine.advance(to:)` and its jump: against plain stepping where stepping is
/// cheap (gaps of one step to a minute, the jump forced even at one step), and against
/// `LoaderTimeline`'s semantics in closed form where it is not (an hour to 100 years, at
/// loader speeds 0.001 to 1000).
@Suite struct RotationEngineJumpTests {
  /// Every kind of run the jump treats differently.
  static let styles: [LoaderStyle] = [
    .seed,
    // A ring comes round again while its turn runs: overlap without any toggle.
    LoaderStyle.timing(rings: 3, stagger: 0.1, turn: 0.6, degrees: 360),
    // A turn longer than a whole cycle (2 * 0.25 s): several turns of a ring at once.
    LoaderStyle.timing(rings: 2, stagger: 0.25, turn: 3.0, degrees: 360),
    LoaderStyle.timing(rings: 1, stagger: 0.05, turn: 0.2, degrees: 90),
    LoaderStyle.timing(rings: 7, stagger: 0.3, turn: 1.5, degrees: -45),
    LoaderStyle.timing(rings: 5, stagger: 0.25, turn: 0.6, degrees: 720),
    // Several triggers inside one step.
    LoaderStyle.timing(rings: 2, stagger: 0.013, turn: 0.01, degrees: -90),
    // Not a whole number of degrees: past 2^44 degrees of turns the product of count and
    // degrees rounds by more than 1e-3 (a century at speed 1000 here).
    LoaderStyle.timing(rings: 4, stagger: 0.02, turn: 0.05, degrees: 100.0 / 3),
  ]

  /// An engine and, per loader, the reference model of what it was told.
  struct Scene {
    var engine: RotationEngine
    var ids: [RotationEngine.LoaderID] = []
    var timelines: [LoaderTimeline] = []

    mutating func toggle(_ i: Int, _ on: Bool, at t: Double) throws {
      try engine.setAnimating(on, loader: ids[i], at: t)
      timelines[i].setAnimating(on, at: t)
    }
  }

  /// Two loaders of each style on seeded random schedules until `start - 0.7`, then, at the
  /// end, one loader of each kind the jump must carry: a run ended 50 ms before `start` whose
  /// turns still run, a quick off and on (additive overlap), one never started, one switched
  /// on 0.37 s after `start` (a run not yet begun), one stopped long ago. The engine stands
  /// at `start`.
  static func scene(seed: UInt64, dt: Double, start: Double = 3) throws -> Scene {
    var scene = Scene(engine: try RotationEngine(dt: dt, threadCount: 1))
    let styles = Self.styles + Self.styles
    for s in styles {
      scene.ids.append(try scene.engine.addLoader(style: s))
      scene.timelines.append(LoaderTimeline(style: s))
    }
    let schedule = ToggleSchedule.random(
      seed: seed, loaders: styles.count, duration: start - 0.7)
    for i in styles.indices {
      scene.timelines[i] = schedule.timeline(ofLoader: i, style: styles[i])
    }
    var player = ToggleSchedule.Player(schedule: schedule, loaders: scene.ids)
    try player.advance(&scene.engine, toPresent: start - 0.7)
    try player.apply(to: &scene.engine, before: .infinity)

    let never = scene.ids.count
    scene.ids.append(try scene.engine.addLoader(style: .seed))
    scene.timelines.append(LoaderTimeline(style: .seed))
    try scene.toggle(0, true, at: start - 0.6)
    try scene.toggle(1, true, at: start - 0.6)
    try scene.toggle(2, false, at: start - 0.6)
    try scene.toggle(3, true, at: start + 0.37)
    for (i, on, t) in [(1, false, start - 0.4), (1, true, start - 0.3), (0, false, start - 0.05)] {
      // To the step containing `t`, as a host does before a toggle.
      while scene.engine.time + scene.engine.dt <= t { scene.engine.step() }
      try scene.toggle(i, on, at: t)
    }
    advance(&scene.engine, to: start)
    #expect(!scene.timelines[never].isAnimating && scene.timelines[never].runs.isEmpty)
    return scene
  }

  /// The presentation pass's error bound for a style (`presentationAngles(at:into:)`), at
  /// least 1e-3: `Float` times carry about 6e-7 s, which a style turning `D / d` degrees a
  /// second turns into more than 1e-3 past 1,300 degrees a second (the seed: 600).
  static func bulkTolerance(_ tl: LoaderTimeline) -> Double {
    Swift.max(1e-3, 2e-4 + abs(tl.turnDegrees) * 6e-7 / tl.turnDuration)
  }

  /// `a` and `b` show the same angles at every presentable time probed: exact angles to
  /// 1e-9 degree (the same turns, summed in another order), presentation angles to 1e-3 (to
  /// two `bulkTolerance`s, one per engine, for styles faster than the seed).
  static func expectSameAngles(
    _ a: RotationEngine, _ b: RotationEngine, _ scene: Scene, _ context: String
  ) throws {
    #expect(a.tick == b.tick, "\(context)")
    #expect(a.overlapCount == b.overlapCount, "\(context): overlapping turns")
    let window = a.presentableTimes
    var bulkA: [Float] = []
    var bulkB: [Float] = []
    for t in [window.lowerBound, window.lowerBound + 0.37 * a.dt, window.upperBound] {
      try a.presentationAngles(at: t, into: &bulkA)
      try b.presentationAngles(at: t, into: &bulkB)
      for (i, id) in scene.ids.enumerated() {
        let first = try a.firstRing(of: id)
        let bound = bulkTolerance(scene.timelines[i])
        let tolerance = bound > 1e-3 ? 2 * bound : 1e-3
        for ring in 0..<(try a.ringCount(of: id)) {
          let x = try a.angle(loader: id, ring: ring, at: t)
          let y = try b.angle(loader: id, ring: ring, at: t)
          #expect(abs(x - y) < 1e-9, "\(context) loader \(id) ring \(ring) at \(t): \(x) vs \(y)")
          let p = Double(bulkA[first + ring])
          let q = Double(bulkB[first + ring])
          #expect(
            circularDistance(p, q) < tolerance, "\(context) bulk \(id) ring \(ring): \(p) vs \(q)")
        }
      }
    }
  }

  @Test(arguments: [1.0 / 120, 1.0 / 60, 1.0 / 64, 0.1])
  func aJumpOfAnyGapEqualsStepping(dt: Double) throws {
    let scene = try Self.scene(seed: 18, dt: dt)
    // One step, a few, around the wheel's size (64), the seed's period (1.25 s) and odd gaps.
    let period = Int((1.25 / dt).rounded())
    for gap in [1, 2, 3, 7, 63, 64, 65, period - 1, period, period + 1, 377, 1001, 4801] {
      var stepped = scene.engine
      var jumped = scene.engine
      stepped.step(count: gap)
      jumped.jump(toTick: jumped.tick + gap)
      let context = "dt \(dt) gap \(gap)"
      try Self.expectSameAngles(stepped, jumped, scene, context)
      #expect(jumped.bucketsWithEndedRuns == 0, "\(context): every ended run's entry dropped")

      // The wheel after the jump drives later steps and toggles as stepping's does.
      for (k, engine) in [stepped, jumped].enumerated() {
        var e = engine
        try e.setAnimating(true, loader: scene.ids[0], at: e.time)
        try e.setAnimating(false, loader: scene.ids[5], at: e.time + 0.2)
        try e.setAnimating(true, loader: scene.ids[5], at: e.time + 0.4)
        for _ in 0..<Int((1.5 / dt).rounded()) { e.step() }
        if k == 0 { stepped = e } else { jumped = e }
      }
      try Self.expectSameAngles(stepped, jumped, scene, context + " then stepping")
    }
  }

  @Test func advanceStepsShortGapsExactlyAndJumpsLongOnes() throws {
    let scene = try Self.scene(seed: 7, dt: 1.0 / 120)
    let e = scene.engine
    for gap in [0.0, 0.001, 1.0 / 120, 0.3, 0.53, 0.54, 2, 61.3] {
      var stepped = e
      var advanced = e
      advance(&stepped, to: e.time + gap)
      try advanced.advance(to: e.time + gap)
      #expect(advanced.tick == stepped.tick, "gap \(gap)")
      try Self.expectSameAngles(stepped, advanced, scene, "advance gap \(gap)")
      if stepped.tick - e.tick <= e.jumpThreshold {
        // Stepped, not jumped: bit for bit.
        var a: [Float] = []
        var b: [Float] = []
        try stepped.presentationAngles(at: stepped.time, into: &a)
        try advanced.presentationAngles(at: advanced.time, into: &b)
        #expect(a.map(\.bitPattern) == b.map(\.bitPattern), "gap \(gap)")
      }
    }
    // To the step containing a time: never past it, and less than a step short.
    for tau in [e.time, e.time + 0.004, e.time + 1.0 / 120, e.time + 0.6, e.time + 100.005] {
      var x = e
      try x.advance(toStepContaining: tau)
      #expect(x.time <= tau && tau < Double(x.tick + 1) * x.dt, "\(tau)")
    }
    var past = e
    try past.advance(to: e.time - 1)
    try past.advance(to: -1e300)
    #expect(past.tick == e.tick)
  }

  /// An hour at 1/120 s is 432,000 steps: still cheap to step with a few loaders.
  @Test func anHourStepsAndJumpsAlike() throws {
    let scene = try Self.scene(seed: 3600, dt: 1.0 / 120)
    var stepped = scene.engine
    var jumped = scene.engine
    let t = scene.engine.time + 3600 + 0.123
    advance(&stepped, to: t)
    try jumped.advance(to: t)
    try Self.expectSameAngles(stepped, jumped, scene, "an hour")
  }

  // MARK: - Long gaps against the reference

  /// `LoaderTimeline.angle(ofRing:at:)` in closed form: per run, the ring's trigger count by
  /// division and only its turns still running at `t` summed one by one, so it answers at
  /// 100 years. Whole turns are reduced mod 360 exactly (`exactlyWrapped`).
  static func reference(_ tl: LoaderTimeline, ring i: Int, at t: Double) -> (
    unwrapped: Double, wrapped: Double
  ) {
    let n = tl.ringCount
    let g = tl.stagger
    var full = 0
    var partial = 0.0
    for run in tl.runs {
      func s(_ j: Int) -> Double { run.on + g * Double(j) }
      // Triggers at or before `t` and before `off`: a prefix, as `s` grows with `j`.
      var through = Int(Swift.max(0, ((t - run.on) / g).rounded(.down) + 1))
      while through > 0, s(through - 1) > t { through -= 1 }
      while s(through) <= t { through += 1 }
      var count = through
      if let off = run.off {
        var before = Int(Swift.max(0, ((off - run.on) / g).rounded(.up)))
        while before > 0, s(before - 1) >= off { before -= 1 }
        while s(before) < off { before += 1 }
        count = Swift.min(count, before)
      }
      var m = count > i ? (count - 1 - i) / n : -1
      while m >= 0 {
        let f = (t - s(i + n * m)) / tl.turnDuration
        guard f < 1 else { break }
        partial += tl.turnDegrees * f
        m -= 1
      }
      full += m + 1
    }
    let wrapped = (exactlyWrapped(full, tl.turnDegrees) + partial)
      .truncatingRemainder(dividingBy: 360)
    return (tl.turnDegrees * Double(full) + partial, wrapped < 0 ? wrapped + 360 : wrapped)
  }

  /// `count * degrees` mod 360 in integers, exact but for the final conversion: `degrees` is
  /// `m * 2^e` with an integer `m`, so the product mod `360 * 2^-e` is a 128-bit remainder.
  /// (For `|degrees|` from 2^-46 up, where `360 * 2^-e` fits in 63 bits.)
  static func exactlyWrapped(_ count: Int, _ degrees: Double) -> Double {
    guard degrees != 0, count > 0 else { return 0 }
    let m = Int(degrees.significandBitPattern | 1 << 52)
    let e = Int(degrees.exponent) - 52
    var w: Double
    if e >= 0 {
      w = Double(count % 360 * (Int(degrees.magnitude) % 360) % 360)
    } else {
      precondition(-e <= 54, "degrees too small for the 63-bit modulus")
      let modulus = 360 << -e
      let r = modulus.dividingFullWidth(count.multipliedFullWidth(by: m)).remainder
      w = Double(r) * Double(sign: .plus, exponent: e, significand: 1)
    }
    if degrees < 0 { w = 360 - w }
    return w >= 360 ? w - 360 : w
  }

  /// The scene's engine against the reference at a few times of its presentable window.
  static func expectReference(_ scene: Scene, _ context: String) throws {
    let e = scene.engine
    let window = e.presentableTimes
    var bulk: [Float] = []
    for t in [window.lowerBound, window.lowerBound + 0.61 * e.dt, window.upperBound] {
      try e.presentationAngles(at: t, into: &bulk)
      for (i, id) in scene.ids.enumerated() {
        let first = try e.firstRing(of: id)
        for ring in 0..<scene.timelines[i].ringCount {
          let expected = reference(scene.timelines[i], ring: ring, at: t)
          let got = try e.angle(loader: id, ring: ring, at: t)
          // Unwrapped angles grow with the turns: past 2^53 ulps they carry no fraction.
          let tolerance = 1e-9 + 4 * expected.unwrapped.magnitude.ulp
          #expect(
            abs(got - expected.unwrapped) <= tolerance,
            "\(context) loader \(i) ring \(ring) at \(t): \(got) vs \(expected.unwrapped)")
          let p = Double(bulk[first + ring])
          #expect(
            circularDistance(p, expected.wrapped) < bulkTolerance(scene.timelines[i]),
            "\(context) bulk loader \(i) ring \(ring) at \(t): \(p) vs \(expected.wrapped)")
        }
      }
    }
  }

  @Test func theClosedFormReferenceIsTheTimeline() throws {
    for (count, degrees) in [(0, 90.0), (5, 90), (5, -90), (7, 720), (3, 100.0 / 3), (9, -45)] {
      let expected = RotationEngine.wrapped(Double(count) * degrees)
      #expect(abs(Self.exactlyWrapped(count, degrees) - expected) < 1e-12, "\(count) x \(degrees)")
    }
    // 2^60 turns of 100/3 degrees: 2^60 * m * 2^-47 = m * 2^13, and m * 2^13 mod 360 by hand.
    let m = Int((100.0 / 3).significandBitPattern | 1 << 52)
    #expect(Self.exactlyWrapped(1 << 60, 100.0 / 3) == Double(m % 45 * 8192 % 360))
    for seed: UInt64 in [1, 2, 3] {
      let scene = try Self.scene(seed: seed, dt: 1.0 / 60)
      var rng = SplitMix64(seed: seed)
      for _ in 0..<40 {
        let t = 8 * rng.nextUnit()
        for tl in scene.timelines {
          for ring in 0..<tl.ringCount {
            let r = Self.reference(tl, ring: ring, at: t)
            let a = tl.angle(ofRing: ring, at: t)
            #expect(abs(r.unwrapped - a) < 1e-9, "seed \(seed) at \(t)")
            #expect(circularDistance(r.wrapped, a) < 1e-9)
          }
        }
      }
    }
  }

  /// A caller's gap at a loader speed is a loader gap of `speed * gap`: a day at 1000 is
  /// 2.7 years of loader time, 100 years at 1000 is 3.2e12 s (under `maximumTime`).
  @Test(arguments: [0.001, 1, 1000])
  func longGapsMatchTheReference(speed: Double) throws {
    let year = 365.25 * 86_400
    for (k, gap) in [3600.0, 86_400, 7 * 86_400 + 0.3, year, 100 * year].enumerated() {
      var scene = try Self.scene(seed: UInt64(k) + 100, dt: 1.0 / 120)
      let context = "speed \(speed) gap \(gap)"
      let t = scene.engine.time + speed * gap
      try scene.engine.advance(to: t)
      let tick = scene.engine.tick
      #expect(scene.engine.time >= t && Double(tick - 1) * scene.engine.dt < t, "\(context)")
      try Self.expectReference(scene, context)

      // Quick toggles after the jump (additive overlap), a few steps, then a second jump.
      let now = scene.engine.time
      try scene.toggle(4, true, at: now)
      try scene.toggle(4, false, at: now + 0.3)
      try scene.toggle(4, true, at: now + 0.45)
      try scene.toggle(0, true, at: now + 0.1)
      try scene.engine.advance(to: now + 0.5)
      try Self.expectReference(scene, context + " + 0.5 s")
      try scene.engine.advance(to: now + 0.5 + 0.25 * speed * gap)
      try Self.expectReference(scene, context + " and a quarter again")
    }
  }

  // MARK: - Bounds

  @Test func hostileTimesAreRefusedAndTheEngineIsLeftAlone() throws {
    var e = try RotationEngine(dt: 1.0 / 120)
    let id = try e.addLoader(isAnimating: true, at: 0)
    try e.advance(to: 1)
    let before = e.tick
    for bad in [Double.nan, .infinity, -.infinity] {
      for toStep in [false, true] {
        do {
          if toStep { try e.advance(toStepContaining: bad) } else { try e.advance(to: bad) }
          Issue.record("\(bad) accepted")
        } catch {
          guard case .timeNotFinite = error else {
            Issue.record("\(bad): \(error)")
            continue
          }
        }
      }
    }
    for bad in [e.maximumTime.nextUp, 1e13, 1e300, .greatestFiniteMagnitude] {
      #expect(throws: RotationEngine.Error.timeOutOfRange(bad)) { try e.advance(to: bad) }
      #expect(throws: RotationEngine.Error.timeOutOfRange(bad)) {
        try e.advance(toStepContaining: bad)
      }
      #expect(throws: RotationEngine.Error.timeOutOfRange(bad)) {
        try e.setAnimating(false, loader: id, at: bad)
      }
    }
    #expect(e.tick == before)

    // The limit itself is reachable, and the angles there are still in range.
    #expect(e.maximumTime == 0x1p52 * LoaderStyle.minimumDuration)
    #expect(try RotationEngine(dt: 1e-9).maximumTime == 0x1p50 * 1e-9)
    try e.setAnimating(true, loader: try e.addLoader(style: Self.styles[6]), at: 2)
    try e.advance(toStepContaining: e.maximumTime)
    try e.advance(to: e.maximumTime)
    #expect(e.time >= e.maximumTime && Double(e.tick - 1) * e.dt < e.maximumTime)
    var bulk: [Float] = []
    try e.presentationAngles(at: e.time, into: &bulk)
    #expect(bulk.allSatisfy { $0 >= 0 && $0 < 360 })
    #expect(try e.angles(loader: id, at: e.time).allSatisfy(\.isFinite))
  }

  /// A jump rebuilds the wheel: one entry per running loader, none for ended runs (which
  /// stepping drops only as their buckets come round), and no bucket left to check.
  @Test func aJumpKeepsOneEntryPerRunningLoader() throws {
    for loaders in [0, 1, 2, 3, 5, 10, 300] {
      var e = try RotationEngine(dt: 1.0 / 60, threadCount: 1)
      var rng = SplitMix64(seed: UInt64(loaders))
      var ids: [RotationEngine.LoaderID] = []
      for _ in 0..<loaders {
        ids.append(try e.addLoader(isAnimating: true, at: 1.25 * rng.nextUnit()))
      }
      advance(&e, to: 1.3)
      let off = ids.filter { _ in rng.next() % 2 == 0 }
      for id in off { try e.setAnimating(false, loader: id, at: e.time) }
      #expect(e.wheelEntryCount == loaders)
      var stepped = e
      try e.advance(to: 86_400)
      #expect(e.wheelEntryCount == loaders - off.count, "\(loaders) loaders")
      #expect(e.bucketsWithEndedRuns == 0)
      // Stepping a whole lap of the wheel drops the same entries.
      advance(&stepped, to: 3)
      #expect(stepped.wheelEntryCount == e.wheelEntryCount)
    }
  }
}
