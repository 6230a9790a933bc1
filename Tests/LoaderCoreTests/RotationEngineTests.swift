import Testing

@testable import LoaderCore

/// Steps `engine` (feeding `player`'s toggles first) until `t` is presentable.
func advance(_ engine: inout RotationEngine, to t: Double) {
  while engine.time < t { engine.step() }
}

/// Distance between two angles on the circle, degrees.
func circularDistance(_ a: Double, _ b: Double) -> Double {
  let d = abs(a - b).truncatingRemainder(dividingBy: 360)
  return Swift.min(d, 360 - d)
}

@Suite struct RotationEngineTests {
  @Test func specWorkedValues() throws {
    for dt in [1.0 / 60, 1.0 / 64, 0.1, 0.25, 0.7] {
      var engine = try RotationEngine(dt: dt)
      let id = try engine.addLoader(isAnimating: true, at: 0)
      for (t, expected) in [
        (0.1, [60.0, 0, 0, 0, 0]), (0.35, [210, 60, 0, 0, 0]), (1.3, [390, 360, 360, 330, 180]),
      ] {
        advance(&engine, to: t)
        let got = try engine.angles(loader: id, at: t)
        #expect(zip(got, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "dt \(dt) t \(t): \(got)")
        var bulk: [Float] = []
        try engine.presentationAngles(at: t, into: &bulk)
        let first = try engine.firstRing(of: id)
        for i in 0..<5 {
          #expect(
            circularDistance(Double(bulk[first + i]), expected[i]) < 1e-3,
            "dt \(dt) t \(t) ring \(i)")
        }
      }
    }
  }

  @Test func cancellationRestartAndOverlapThroughTheEngine() throws {
    var engine = try RotationEngine(dt: 1.0 / 60)
    let a = try engine.addLoader(isAnimating: true, at: 0)
    let b = try engine.addLoader(isAnimating: true, at: 0)
    advance(&engine, to: 0.3)
    try engine.setAnimating(false, loader: a, at: 0.3)
    try engine.setAnimating(false, loader: b, at: 0.3)
    advance(&engine, to: 0.4)
    try engine.setAnimating(true, loader: b, at: 0.4)  // ring 0 again while its turn runs
    advance(&engine, to: 0.45)
    try engine.setAnimating(false, loader: b, at: 0.45)
    #expect(engine.overlapCount >= 1)
    advance(&engine, to: 0.6)
    #expect(abs(try engine.angle(loader: b, ring: 0, at: 0.6) - 480) < 1e-9)
    #expect(abs(try engine.angle(loader: a, ring: 0, at: 0.6) - 360) < 1e-9)
    #expect(abs(try engine.angle(loader: a, ring: 1, at: 0.6) - 210) < 1e-9)
    advance(&engine, to: 2)
    #expect(try engine.angles(loader: a, at: 2) == [360, 360, 0, 0, 0])
    #expect(try engine.angles(loader: b, at: 2) == [720, 360, 0, 0, 0])
    #expect(engine.overlapCount == 0)
  }

  @Test func repeatsAreIgnoredAndBadInputIsRejected() throws {
    var engine = try RotationEngine(dt: 0.1)
    let id = try engine.addLoader(isAnimating: true, at: 0)
    advance(&engine, to: 0.1)
    try engine.setAnimating(true, loader: id, at: 0.1)  // repeat: no restart
    advance(&engine, to: 0.3)
    #expect(abs(try engine.angle(loader: id, ring: 1, at: 0.3) - 30) < 1e-9)
    #expect(throws: RotationEngine.Error.timeBeforeNow(time: 0.1, now: engine.time)) {
      try engine.setAnimating(false, loader: id, at: 0.1)
    }
    #expect(throws: RotationEngine.Error.timeNotFinite(.infinity)) {
      try engine.setAnimating(false, loader: id, at: .infinity)
    }
    try engine.setAnimating(false, loader: id, at: 5)
    #expect(throws: RotationEngine.Error.timeDecreasing(loader: id, time: 4, previous: 5)) {
      try engine.setAnimating(true, loader: id, at: 4)
    }
    let window = engine.presentableTimes
    #expect(throws: RotationEngine.Error.renderTimeOutsideWindow(time: 0.5, window: window)) {
      try engine.angle(loader: id, ring: 0, at: 0.5)
    }
    #expect(throws: RotationEngine.Error.ringOutOfRange(ring: 5, ringCount: 5)) {
      try engine.angle(loader: id, ring: 5, at: 0.3)
    }
    var small = [Float](repeating: 0, count: 2)
    #expect(throws: RotationEngine.Error.bufferTooSmall(count: 2, needed: 5)) {
      try small.withUnsafeMutableBufferPointer { (b) throws(RotationEngine.Error) in
        try engine.presentationAngles(at: 0.3, into: b)
      }
    }
    var style = LoaderStyle.seed
    style.stagger = 0
    #expect(
      throws: RotationEngine.Error.invalidStyle(
        .invalid(field: "stagger", reason: "must be finite and > 0"))
    ) {
      try engine.addLoader(style: style)
    }
    for dt in [0, -1, .nan, .infinity] {
      #expect(throws: RotationEngine.Error.self) { _ = try RotationEngine(dt: dt) }
    }
  }

  @Test func addRemoveAndReuseLeakNothing() throws {
    var engine = try RotationEngine(dt: 1.0 / 60)
    let keep = try engine.addLoader(isAnimating: true, at: 0)
    let old = try engine.addLoader(isAnimating: true, at: 0)
    advance(&engine, to: 0.3)
    // Leave an overlapping turn in the pool, then remove the loader mid-turn.
    try engine.setAnimating(false, loader: old, at: 0.3)
    try engine.setAnimating(true, loader: old, at: 0.35)
    advance(&engine, to: 0.4)
    #expect(engine.overlapCount == 1)
    try engine.remove(old)
    #expect(engine.overlapCount == 0)
    #expect(!engine.contains(old))
    #expect(throws: RotationEngine.Error.staleLoader(old)) {
      try engine.setAnimating(false, loader: old, at: 1)
    }
    #expect(throws: RotationEngine.Error.staleLoader(old)) { try engine.remove(old) }

    let new = try engine.addLoader()  // same slot, new generation, still
    #expect(new.slot == old.slot && new.generation != old.generation)
    #expect(try engine.firstRing(of: new) == 5)
    advance(&engine, to: 1)
    #expect(try engine.angles(loader: new, at: 1) == [0, 0, 0, 0, 0])
    var bulk: [Float] = []
    try engine.presentationAngles(at: 1, into: &bulk)
    #expect(bulk[5..<10].allSatisfy { $0 == 0 })

    try engine.setAnimating(true, loader: new, at: 1.5)
    let fresh = LoaderTimeline(animatingFrom: 1.5)
    let reference = LoaderTimeline(animatingFrom: 0)
    for t in stride(from: 1.5, through: 4, by: 0.07) {
      advance(&engine, to: t)
      for i in 0..<5 {
        #expect(
          abs(try engine.angle(loader: new, ring: i, at: t) - fresh.angle(ofRing: i, at: t)) < 1e-9)
        #expect(
          abs(try engine.angle(loader: keep, ring: i, at: t) - reference.angle(ofRing: i, at: t))
            < 1e-9)
      }
    }

    // A differently sized loader takes fresh rings; freeing it gives its block to the next.
    var three = LoaderStyle.seed
    three.ringCount = 3
    let small = try engine.addLoader(style: three, isAnimating: true, at: engine.time)
    #expect(try engine.firstRing(of: small) == 10)
    try engine.remove(small)
    let again = try engine.addLoader(style: three)
    #expect(try engine.firstRing(of: again) == 10)
    #expect(try engine.angles(loader: again, at: engine.time) == [0, 0, 0])
    #expect(engine.count == 3)
    #expect(engine.loaderIDs == [keep, new, again])
  }

  @Test func thirtyDaysStayExact() throws {
    // Hour-long steps keep this fast; triggers still fire one by one at their exact times.
    // A slow loader runs all 30 days (43200 triggers: the whole-turn count); a seed loader turns
    // on 20 s before the end (the fraction of a turn at large times).
    let days = 30.0 * 86_400
    var slow = LoaderStyle.seed
    slow.stagger = 60
    slow.turnDuration = 25
    var engine = try RotationEngine(dt: 3600)
    let long = try engine.addLoader(style: slow, isAnimating: true, at: 0)
    let seed = try engine.addLoader()
    advance(&engine, to: days - 3600)
    try engine.setAnimating(true, loader: seed, at: days - 20)
    advance(&engine, to: days)
    var bulk: [Float] = []
    var rng = SplitMix64(seed: 30)

    /// Ring i of a loader on since `start` fires at start + g (i + n m): the unwrapped angle.
    func closedForm(ring i: Int, at t: Double, start: Double, style: LoaderStyle) -> Double {
      let g = style.stagger
      let period = g * Double(style.ringCount)
      let m = ((t - start - g * Double(i)) / period).rounded(.down)
      guard m >= 0 else { return 0 }
      let latest = start + g * Double(i) + period * m
      return style.turnDegrees * (m + Swift.min(1, (t - latest) / style.turnDuration))
    }

    for k in 0..<40 {
      let t = k < 20 ? days - 3600 * rng.nextUnit() : days - 20 * rng.nextUnit()
      try engine.presentationAngles(at: t, into: &bulk)
      for (id, start, style) in [(long, 0.0, slow), (seed, days - 20, .seed)] {
        let first = try engine.firstRing(of: id)
        for i in 0..<5 {
          let expected = closedForm(ring: i, at: t, start: start, style: style)
          let got = try engine.angle(loader: id, ring: i, at: t)
          #expect(
            abs(got - expected) < 1e-6, "loader \(id) ring \(i) at \(t): \(got) vs \(expected)")
          #expect(circularDistance(got, expected) < 1e-6)
          #expect(circularDistance(Double(bulk[first + i]), expected) < 1e-3)
        }
      }
    }
    #expect(try engine.angle(loader: long, ring: 0, at: days) == 360 * 8640)
  }

  @Test func copiesAreIndependentValues() throws {
    var a = try RotationEngine(dt: 0.05)
    let id = try a.addLoader(isAnimating: true, at: 0)
    advance(&a, to: 0.5)
    let b = a
    var c = a
    try c.setAnimating(false, loader: id, at: c.time)
    advance(&a, to: 3)
    advance(&c, to: 3)
    let reference = LoaderTimeline(animatingFrom: 0)
    #expect(try b.angles(loader: id, at: 0.5) == reference.angles(at: 0.5))
    var stopped = reference
    stopped.setAnimating(false, at: 0.5)
    for i in 0..<5 {
      #expect(
        abs(try a.angle(loader: id, ring: i, at: 3) - reference.angle(ofRing: i, at: 3)) < 1e-9)
      #expect(abs(try c.angle(loader: id, ring: i, at: 3) - stopped.angle(ofRing: i, at: 3)) < 1e-9)
    }
    var bulk: [Float] = []
    try b.presentationAngles(at: 0.5, into: &bulk)
    for i in 0..<5 {
      #expect(circularDistance(Double(bulk[i]), reference.angle(ofRing: i, at: 0.5)) < 1e-3)
    }
  }

  @Test func stepsAllocateNothing() throws {
    var engine = try RotationEngine(dt: 1.0 / 60, capacity: 500)
    var styles = [LoaderStyle.seed, .seed, .seed]
    styles[1].stagger = 0.1
    styles[1].ringCount = 3
    styles[2].turnDegrees = 90
    styles[2].turnDuration = 1.1
    var ids: [RotationEngine.LoaderID] = []
    for i in 0..<500 { ids.append(try engine.addLoader(style: styles[i % 3])) }
    var rng = SplitMix64(seed: 5)
    // Everyone on at a random time in the first second; some toggle off and on again quickly.
    var bulk = [Float](repeating: 0, count: engine.ringSlotCount)
    for k in 0..<60 {
      let t = engine.time
      for id in ids where rng.next() % 60 == 0 { try engine.setAnimating(true, loader: id, at: t) }
      if k == 30 { for id in ids.prefix(50) { try engine.setAnimating(false, loader: id, at: t) } }
      if k == 33 { for id in ids.prefix(50) { try engine.setAnimating(true, loader: id, at: t) } }
      engine.step()
    }
    try engine.setAnimatingAll(true, at: engine.time)
    for _ in 0..<2000 { engine.step() }
    let before = engine.storageFingerprint
    try bulk.withUnsafeMutableBufferPointer { (b) throws(RotationEngine.Error) in
      for _ in 0..<2000 {
        engine.step()
        try engine.presentationAngles(at: engine.time - 0.5 * engine.dt, into: b)
      }
    }
    #expect(engine.storageFingerprint == before)
  }
}
