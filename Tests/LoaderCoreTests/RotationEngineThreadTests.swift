import Testing

@testable import LoaderCore

/// The per-ring passes on several threads: the same bits as on one, at every size around the
/// point where a second worker starts, and the ranges they split into.
@Suite struct RotationEngineThreadTests {
  /// An engine whose ring storage holds exactly `rings` rings (seed loaders, then one loader
  /// of the remainder), each turned on at a seeded time in its first cycle and stepped to
  /// 1.5 s, so rings read every phase: not started, mid-turn, finished.
  static func engine(rings: Int, general: Bool = false) throws -> RotationEngine {
    var e = try RotationEngine(dt: 1.0 / 60, capacity: rings / 5 + 1, threadCount: 1)
    var rng = SplitMix64(seed: UInt64(rings))
    var style = LoaderStyle.seed
    if general {
      // Quarter turns of another duration: the general pass (base, 1/d, D per ring).
      style.turnDegrees = 90
      style.turnDuration = 0.45
    }
    var left = rings
    while left > 0 {
      style.ringCount = Swift.min(5, left)
      left -= style.ringCount
      try e.addLoader(style: style, isAnimating: true, at: rng.nextUnit() * 1.25)
    }
    advance(&e, to: 1.5)
    #expect(e.ringSlotCount == rings)
    return e
  }

  static func angles(_ e: RotationEngine, threads: Int, at t: Double) throws -> [UInt32] {
    var copy = e
    try copy.setThreadCount(threads)
    var out: [Float] = []
    try copy.presentationAngles(at: t, into: &out)
    return out.map(\.bitPattern)
  }

  static let threshold = RotationEngine.minimumRingsPerThread

  @Test(arguments: [
    threshold - 1, threshold, threshold + 1, 2 * threshold - 1, 2 * threshold,
    2 * threshold + 17, 3 * threshold + 5, 7 * threshold + 3,
  ])
  func anglesAreBitIdenticalAroundTheThreshold(rings: Int) throws {
    for general in [false, true] {
      let e = try Self.engine(rings: rings, general: general)
      let t = e.time - 0.3 * e.dt
      let one = try Self.angles(e, threads: 1, at: t)
      #expect(one.contains { Float(bitPattern: $0) > 0 && Float(bitPattern: $0) < 360 })
      // Rings not started yet and finished turns read 0; nothing leaves [0, 360).
      #expect(one.allSatisfy { Float(bitPattern: $0) >= 0 && Float(bitPattern: $0) < 360 })
      #expect(one.contains(0))
      for threads in [2, 3, 4, 7, 64] {
        var copy = e
        try copy.setThreadCount(threads)
        let expectedWorkers = Swift.max(1, Swift.min(threads, rings / Self.threshold))
        #expect(copy.workers(forRings: rings) == expectedWorkers)
        #expect(
          try Self.angles(e, threads: threads, at: t) == one,
          "rings \(rings), \(threads) threads, general \(general)")
      }
    }
  }

  @Test func aMillionLoadersAreBitIdentical() throws {
    let e = try Self.engine(rings: 5_000_000)
    let one = try Self.angles(e, threads: 1, at: e.time)
    let all = try Self.angles(e, threads: Swift.max(2, RotationEngine.availableCores), at: e.time)
    #expect(all == one)
  }

  /// Enough loaders that a step fires its common triggers on several workers, some toggled
  /// off and on (stale entries, overlaps, first triggers of a run on the serial path): every
  /// step leaves the same angles, bit for bit, on 1 and on 3 threads. A trigger every step per
  /// loader (ten rings, stagger dt, short turns that still end before the ring comes round)
  /// keeps the scene small.
  @Test func firingOnThreadsMatchesOneThread() throws {
    let dt = 1.0 / 60
    var style = LoaderStyle.seed
    style.ringCount = 10
    style.stagger = dt
    style.turnDuration = 0.05
    let loaders = 3 * RotationEngine.minimumTriggersPerThread + 101
    var one = try RotationEngine(dt: dt, capacity: loaders, threadCount: 1)
    var rng = SplitMix64(seed: 12)
    var ids: [RotationEngine.LoaderID] = []
    for _ in 0..<loaders {
      ids.append(try one.addLoader(style: style, isAnimating: true, at: rng.nextUnit() * 0.2))
    }
    var many = one
    try many.setThreadCount(3)
    advance(&one, to: 0.5)
    advance(&many, to: 0.5)
    #expect(RotationEngine.byteModel(style: style, dt: dt).perTrigger == 84, "the common path")
    for k in 0..<40 {
      if k == 5 || k == 9 {
        let on = k == 9
        for id in ids[0..<2000] {
          try one.setAnimating(on, loader: id, at: one.time)
          try many.setAnimating(on, loader: id, at: many.time)
        }
      }
      one.step()
      many.step()
      let t = one.time
      #expect(try Self.angles(one, threads: 1, at: t) == Self.angles(many, threads: 1, at: t))
    }
    #expect(one.overlapCount == many.overlapCount)
    for id in ids.prefix(50) + ids.suffix(50) {
      #expect(try one.angles(loader: id, at: one.time) == many.angles(loader: id, at: many.time))
    }
  }

  /// The epoch moves every `rebaseInterval`: the parallel rebase must shift every ring once.
  @Test func rebaseOnThreadsMatchesOneThread() throws {
    let rings = 2 * Self.threshold + 9
    var one = try Self.engine(rings: rings)
    var many = one
    try many.setThreadCount(4)
    let epoch = one.epoch
    advance(&one, to: 4.2)
    advance(&many, to: 4.2)
    #expect(one.epoch > epoch)
    #expect(one.relativeStart.pointer[0] == many.relativeStart.pointer[0])
    let t = one.time
    #expect(try Self.angles(one, threads: 1, at: t) == Self.angles(many, threads: 1, at: t))
  }

  @Test func rangesCoverEveryRingOnceOnAlignedStarts() {
    for rings in [0, 1, 15, 16, 17, 100, 1000, 65_537] {
      for workers in 1...9 {
        var next = 0
        for c in 0..<workers {
          let r = WorkerPool.piece(
            c, of: workers, count: rings, alignment: RotationEngine.chunkAlignment)
          #expect(r.lowerBound == next, "rings \(rings) workers \(workers) chunk \(c)")
          #expect(r.lowerBound % RotationEngine.chunkAlignment == 0 || r.lowerBound == rings)
          next = r.upperBound
        }
        #expect(next == rings)
      }
    }
  }

  /// Workers claim pieces from a shared counter: each index is still visited exactly once.
  @Test func forEachRangeVisitsEveryIndexOnce() {
    for count in [0, 1, 17, 1000, 100_003] {
      for workers in [1, 2, 3, 8] {
        let visits = UnsafeMutableBufferPointer<Int32>.allocate(capacity: Swift.max(1, count))
        visits.initialize(repeating: 0)
        defer { visits.deallocate() }
        RotationEngine.forEachRange(count, workers: workers, CountVisits(visits: visits))
        #expect(visits.prefix(count).allSatisfy { $0 == 1 }, "count \(count) workers \(workers)")
      }
    }
  }

  @Test func badThreadCountsAreRefused() throws {
    #expect(throws: RotationEngine.Error.invalidThreadCount(0)) {
      try RotationEngine(dt: 0.1, threadCount: 0)
    }
    var e = try RotationEngine(dt: 0.1)
    #expect(e.threadCount == RotationEngine.availableCores)
    #expect(throws: RotationEngine.Error.invalidThreadCount(-3)) { try e.setThreadCount(-3) }
    #expect(e.threadCount == RotationEngine.availableCores)
    #expect(throws: RotationEngine.Error.invalidThreadCount(257)) { try e.setThreadCount(257) }
    #expect(e.threadCount == RotationEngine.availableCores)
    #expect(
      RotationEngine.Error.invalidThreadCount(0).description
        == "thread count must be 1...256, got 0")
    #expect(RotationEngine.availableCores <= RotationEngine.maximumThreadCount)
  }

  /// A capacity outside 0...2^24 is refused before anything is reserved (`1 << 40` loaders
  /// of the seed asked the allocator for 61 TB and ended the process).
  @Test func badCapacitiesAreRefused() throws {
    for capacity in [-1, Int.min, Int.max, 1 << 40, RotationEngine.maximumLoaders + 1] {
      #expect(throws: RotationEngine.Error.invalidCapacity(capacity)) {
        try RotationEngine(dt: 0.1, capacity: capacity, threadCount: 1)
      }
    }
    #expect(
      RotationEngine.Error.invalidCapacity(-1).description
        == "capacity must be 0...16777216 loaders, got -1")
    #expect(try RotationEngine(dt: 0.1, capacity: 1000, threadCount: 1).count == 0)
  }
}

/// The byte model the bench's `limit/bandwidth` divides by a copy bandwidth.
@Suite struct RotationEngineByteModelTests {
  @Test func seedCountsWhatTheStepTouches() {
    // If an entry grows, the model follows it; this pins the figure the README quotes.
    #expect(MemoryLayout<RotationEngine.WheelEntry>.stride == 40)
    let m = RotationEngine.byteModel(style: .seed, dt: 1.0 / 60)
    #expect(m.perRing == 8)
    #expect(m.perTrigger == 84)
    #expect(m.perRingPerRebase == 8)
    // 8 + 8 / 120 + 84 * (1/15) / 5 = 9.1867 bytes per ring per step.
    #expect(abs(m.bytesPerRing - (8 + 8.0 / 120 + 84.0 / 75)) < 1e-12)
    #expect(abs(m.bytesPerStep(loaders: 1000) - 5000 * m.bytesPerRing) < 1e-6)
    #expect(m.workingSetBytes(loaders: 1000) == 5000 * 8 + 5600)
  }

  @Test func otherTurnsReadMore() {
    var style = LoaderStyle.seed
    style.turnDegrees = 90
    let m = RotationEngine.byteModel(style: style, dt: 1.0 / 60)
    let run = MemoryLayout<RotationEngine.LoaderRun>.stride
    let history = MemoryLayout<RotationEngine.RingHistory>.stride
    #expect(m.perRing == 20)
    #expect(m.perTrigger == 84 + run + history + 4)
    // A ring that comes round before its turn ends may overlap: off the common path.
    var quick = LoaderStyle.seed
    quick.stagger = 0.1
    #expect(
      RotationEngine.byteModel(style: quick, dt: 1.0 / 60).perTrigger == 84 + run + history)
  }
}

/// Counts each index a `WorkerPool` job is given.
// @unchecked Sendable: each piece writes only its own indices of `visits`.
struct CountVisits: RangeJob, @unchecked Sendable {
  let visits: UnsafeMutableBufferPointer<Int32>

  func run(_ range: Range<Int>) {
    for i in range { visits[i] += 1 }
  }
}
