import LoaderCore

/// `jump/100y`: `RotationEngine.advance(to:)` 100 years of loader time ahead, on `step/soa`'s
/// scene (seed loaders turned on at seeded random times in the first cycle, settled the same
/// way), read against one `step/soa` call at the same size and threads: the target is
/// a century for at most 10 steps. One measured call is the jump alone, no presentation pass
/// (a draw after it adds one, as a draw after a step does).
///
/// Each call jumps a century further, so one engine takes `maximumTime / century` of them
/// (about 1,400 at the scene's `dt`): a call is a sample of its own (no batching), after a
/// single warm-up call, at most `maximumSamples` samples. A sample is at least a pass over
/// every loader (a millisecond at 100k), far above the clock's resolution.
enum JumpBenchmarks {
  static let century = 100 * 365.25 * 86_400
  static let maximumSamples = 200

  static func run(_ run: BenchRun) throws {
    guard run.isSelected("jump/100y") else { return }
    for n in run.sizes.jumpLoaders where !run.exceedsBudget("jump/100y", size: n) {
      for threads in BenchThreads.counts {
        // Its yardstick is measured with it when the run did not select it.
        let measured = run.results.contains {
          $0.name == "step/soa" && $0.loaders == n && $0.threads == threads
        }
        if !measured {
          try run.record(StepBenchmarks.soa(loaders: n, threads: threads, plan: run.plan))
        }
        let r = try jump(loaders: n, threads: threads, plan: run.plan)
        run.noteCallCost("jump/100y", size: n, seconds: r.statistics.p50 * Double(r.rings) / 1e9)
        run.record(r)
      }
    }
  }

  static func jump(loaders n: Int, threads: Int, plan: SamplingPlan) throws -> BenchResult {
    let style = StepBenchmarks.style
    var engine = try RotationEngine(
      dt: StepBenchmarks.dt, capacity: n, threadCount: threads)
    for start in StepBenchmarks.startTimes(count: n) {
      try engine.addLoader(style: style, isAnimating: true, at: start)
    }
    engine.step(count: StepBenchmarks.settlingSteps)
    var failure: RotationEngine.Error?
    let once = SamplingPlan(
      warmupSeconds: 0, minimumSamples: 10, targetSeconds: plan.targetSeconds,
      maximumSamples: maximumSamples, minimumSampleSeconds: 0)
    // Fails only past `maximumTime`, which the sample cap keeps far off.
    let m = Sampler.measure(once) {
      do throws(RotationEngine.Error) {
        try engine.advance(to: engine.time + century)
      } catch {
        failure = error
      }
      blackHole(engine.tick)
    }
    if let failure { throw failure }
    let rings = n * style.ringCount
    var r = BenchResult(
      name: "jump/100y", loaders: n, rings: rings, unit: "ns/ring",
      statistics: m.nanosecondsPerCall.scaled(by: 1 / Double(rings)),
      details: [
        "\(Format.value(m.nanosecondsPerCall.p50 / 1e6)) ms/jump",
        "\(Format.value(m.allocationsPerCall)) allocs/jump",
      ])
    r.threads = threads
    return r
  }
}
