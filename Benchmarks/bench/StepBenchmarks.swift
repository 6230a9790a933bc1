import LoaderCore

/// `step/soa` (`RotationEngine`), `step/naive` (`NaiveLoaderSimulation`) and
/// `limit/bandwidth`, on one seeded scene per size.
///
/// The scene: `N` seed-style loaders, each turned on at its own seeded random time in the
/// first `stagger * ringCount` seconds (so triggers spread evenly over steps, as in a real
/// screen of loaders started at different moments). One measured call is one fixed step of
/// `dt = 1/60 s` plus every ring's presentation angle at the new time, into a reused buffer.
enum StepBenchmarks {
  static let dt = 1.0 / 60
  static let style = LoaderStyle.seed

  /// The bytes one step must move per ring, at the least, in the engine's layout (see
  /// `RotationEngine`'s "Layout"), counting reads and writes as memcpy traffic counts them:
  /// ```
  /// presentation:  4 (read the ring's turn start) + 4 (write its angle)            = 8
  /// firing:        (2 * 64 (schedule line, read + written) + 4 (new start written))
  ///                / ringCount  per trigger, one trigger per loader every stagger / dt steps
  /// wheel:         2 / 8 (the bucket's bit per loader, read + cleared) / ringCount
  /// ```
  /// For the seed (5 rings, stagger 0.25 s, dt 1/60): 8 + 132 / 5 / 15 + 0.05 = 9.81 bytes.
  static var bytesPerRing: Double {
    let n = Double(style.ringCount)
    return 8 + (2 * 64 + 4) / n * dt / style.stagger + 2.0 / 8 / n
  }

  /// Steps run before sampling so the engine reaches its steady state: two whole trigger
  /// cycles (`ringCount * stagger / dt` steps each; the last loader starts within the first
  /// and has fired every ring by the end of the second), which also visits every bucket of
  /// the timing wheel, so buckets and pools have grown to their working size and no
  /// first-use allocation is counted as a per-step one.
  static var settlingSteps: Int {
    2 * Int((Double(style.ringCount) * style.stagger / dt).rounded(.up))
  }

  static let naiveSettlingSeconds = 3.0

  /// Seeded start times, one per loader.
  static func startTimes(count: Int) -> [Double] {
    var rng = SplitMix64(seed: BenchRun.seed ^ UInt64(count))
    let span = style.stagger * Double(style.ringCount)
    return (0..<count).map { _ in rng.nextUnit() * span }
  }

  static func run(_ run: BenchRun) throws {
    for n in run.sizes.stepLoaders {
      let rings = n * style.ringCount
      if run.isSelected("limit/bandwidth") {
        // A buffer four times what the step touches at this size: bigger than its working
        // set, so it sits in the same level of the memory hierarchy as the step's data.
        let bytes = max(1 << 20, Int(4 * bytesPerRing * Double(rings)))
        let perByte = LimitBenchmarks.copyTimePerByte(bytes: bytes, plan: run.plan)
        var r = LimitBenchmarks.bandwidthResult(
          loaders: n, rings: rings, bytesPerRing: bytesPerRing, copyTimePerByte: perByte)
        r.details.append("memcpy of \(Format.si(Double(bytes)))B")
        run.record(r)
      }
      if run.isSelected("step/soa") { try run.record(soa(loaders: n, plan: run.plan)) }
      if run.isSelected("step/naive"), run.sizes.naiveLoaders.contains(n) {
        run.record(naive(loaders: n, plan: run.plan))
      }
    }
  }

  static func soa(loaders n: Int, plan: SamplingPlan) throws -> BenchResult {
    var engine = try RotationEngine(dt: dt, capacity: n)
    for start in startTimes(count: n) {
      try engine.addLoader(style: style, isAnimating: true, at: start)
    }
    engine.step(count: settlingSteps)
    let angles = UnsafeMutableBufferPointer<Float>.allocate(capacity: engine.ringSlotCount)
    angles.initialize(repeating: 0)
    defer { angles.deallocate() }
    var failure: RotationEngine.Error?
    // Fails only for a render time outside the presentable window; `engine.time` never is.
    let m = Sampler.measure(n >= 1_000_000 ? plan.slow : plan) {
      engine.step()
      do throws(RotationEngine.Error) {
        try engine.presentationAngles(at: engine.time, into: angles)
      } catch {
        failure = error
      }
      blackHole(angles)
    }
    if let failure { throw failure }
    return result("step/soa", loaders: n, m)
  }

  static func naive(loaders n: Int, plan: SamplingPlan) -> BenchResult {
    let sim = NaiveLoaderSimulation(dt: dt)
    for start in startTimes(count: n) {
      sim.addLoader(style: style, isAnimating: true, at: start)
    }
    // Settle like the engine, but give up after `naiveSettlingSeconds` (a million naive
    // loaders take most of a second per step): then each ring's first turn list is still
    // being made while sampling, and the allocation count says so.
    let settleStart = Stopwatch.now()
    var settled = 0
    while settled < settlingSteps,
      Double(Stopwatch.now() - settleStart) < naiveSettlingSeconds * 1e9
    {
      sim.step()
      settled += 1
    }
    var angles: [Float] = []
    let m = Sampler.measure(n >= 100_000 ? plan.slow : plan) {
      sim.step()
      sim.presentationAngles(at: sim.time, into: &angles)
      blackHole(angles)
    }
    var r = result("step/naive", loaders: n, m)
    if settled < settlingSteps {
      r.details.append(
        "settled \(settled) of \(settlingSteps) steps: includes first-use allocations")
    }
    return r
  }

  private static func result(_ name: String, loaders n: Int, _ m: Measurement) -> BenchResult {
    let rings = n * style.ringCount
    let perRing = m.nanosecondsPerCall.scaled(by: 1 / Double(rings))
    return BenchResult(
      name: name, loaders: n, rings: rings, unit: "ns/ring", statistics: perRing,
      details: [
        "\(Format.si(1e9 / perRing.p50)) rings/s",
        "\(Format.value(m.allocationsPerCall)) allocs/step",
      ])
  }
}
