import LoaderCore

/// `step/soa` (`RotationEngine`, at 1 and at all threads), `step/naive`
/// (`NaiveLoaderSimulation`) and `limit/bandwidth` (`RotationEngine.byteModel` at a measured
/// copy bandwidth), on one seeded scene per size.
///
/// The scene: `N` seed-style loaders, each turned on at its own seeded random time in the
/// first `stagger * ringCount` seconds (so triggers spread evenly over steps, as in a real
/// screen of loaders started at different moments). One measured call is one fixed step of
/// `dt = 1/60 s` plus every ring's presentation angle at the new time, into a reused buffer.
enum StepBenchmarks {
  static let dt = 1.0 / 60
  static let style = LoaderStyle.seed

  /// What one step of this scene must move through memory, from the engine's own layout.
  static var byteModel: RotationEngine.ByteModel { RotationEngine.byteModel(style: style, dt: dt) }

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
      // The floor runs with its entry, so every run that has one has the other.
      let limit = run.isSelected("limit/bandwidth") || run.isSelected("step/soa")
      for threads in BenchThreads.counts where limit {
        run.record(
          LimitBenchmarks.bandwidth(
            loaders: n, model: byteModel, threads: threads, plan: run.plan))
      }
      for threads in BenchThreads.counts where run.isSelected("step/soa") {
        try run.record(soa(loaders: n, threads: threads, plan: run.plan))
      }
      if run.isSelected("step/naive"), run.sizes.naiveLoaders.contains(n) {
        run.record(naive(loaders: n, plan: run.plan))
      }
    }
  }

  /// `step/soa` with the engine's passes on `threads` threads.
  static func soa(loaders n: Int, threads: Int, plan: SamplingPlan) throws -> BenchResult {
    var engine = try RotationEngine(dt: dt, capacity: n, threadCount: threads)
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
    var r = result("step/soa", loaders: n, m)
    r.threads = threads
    return r
  }

  /// `step/naive`: one object per loader, on the calling thread (it has no thread setting;
  /// its entry reads 1 thread).
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
    r.threads = 1
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
