import LoaderCore
import SwiftLoaderSupport

/// How long and how often to measure one entry.
struct SamplingPlan {
  /// Time spent running the operation before any sample counts (caches, branch predictors,
  /// lazily built tables, the first-use allocations of the code under test).
  var warmupSeconds: Double
  /// At least this many samples, however long they take.
  var minimumSamples: Int
  /// Keep sampling until this much time went by (or `maximumSamples`).
  var targetSeconds: Double
  var maximumSamples: Int
  /// A sample repeats the operation until it lasts this long, so the clock's resolution and
  /// the cost of reading it vanish against the work.
  var minimumSampleSeconds: Double

  static let full = SamplingPlan(
    warmupSeconds: 0.2, minimumSamples: 10, targetSeconds: 1.0, maximumSamples: 200,
    minimumSampleSeconds: 0.002)
  static let quick = SamplingPlan(
    warmupSeconds: 0.05, minimumSamples: 10, targetSeconds: 0.25, maximumSamples: 50,
    minimumSampleSeconds: 0.001)

  /// The same plan for an operation that takes long per call: fewer samples, no extra time.
  var slow: SamplingPlan {
    var p = self
    p.warmupSeconds = 0
    p.targetSeconds = 0
    return p
  }
}

/// What sampling one operation found.
struct Measurement {
  /// Nanoseconds per call of the operation, one value per sample (a sample's mean over its
  /// repetitions).
  var nanosecondsPerCall: SampleStatistics
  /// Heap allocations per call, over all samples (warm-up excluded).
  var allocationsPerCall: Double
  /// Calls in all samples together.
  var calls: Int
}

enum Sampler {
  /// Warms up, then samples `operation` as `plan` says.
  /// With `untimed`, that runs before each call of `operation`, outside the clock and the
  /// allocation count (`frame/sprites` moves its sprites so, timing the draw alone).
  static func measure(
    _ plan: SamplingPlan, untimed prepare: (() -> Void)? = nil, _ operation: () -> Void
  ) -> Measurement {
    func timedCall() -> (nanoseconds: UInt64, allocations: UInt64) {
      prepare?()
      return timed(operation)
    }
    // Warm-up: at least one call, which also sizes the batch.
    var warmupCalls = 0
    let warmupStart = Stopwatch.now()
    var elapsed: UInt64 = 0
    repeat {
      if prepare != nil {
        elapsed += timedCall().nanoseconds
      } else {
        operation()
      }
      warmupCalls += 1
      if prepare == nil { elapsed = Stopwatch.now() - warmupStart }
    } while Double(prepare == nil ? elapsed : Stopwatch.now() - warmupStart)
      < plan.warmupSeconds * 1e9 && Cancellation.signal == nil
    let perCall = Double(elapsed) / Double(warmupCalls)
    let batch = Swift.max(
      1, Int((plan.minimumSampleSeconds * 1e9 / Swift.max(perCall, 1)).rounded(.up)))

    var samples: [Double] = []
    samples.reserveCapacity(plan.maximumSamples)
    var calls = 0
    var allocations: UInt64 = 0
    let start = Stopwatch.now()
    // A signal ends the measurement early: the next `record` sees it and cleans up, so a
    // long entry (a debug build, a million loaders) does not hold SIGINT / SIGTERM up.
    while samples.count < plan.maximumSamples, Cancellation.signal == nil || samples.isEmpty {
      var t1: UInt64
      if prepare != nil {
        var timed: UInt64 = 0
        for _ in 0..<batch {
          let c = timedCall()
          timed += c.nanoseconds
          allocations += c.allocations
        }
        t1 = Stopwatch.now()
        samples.append(Double(timed) / Double(batch))
      } else {
        let a0 = AllocationCounter.count
        let t0 = Stopwatch.now()
        for _ in 0..<batch { operation() }
        t1 = Stopwatch.now()
        allocations += AllocationCounter.count - a0
        samples.append(Double(t1 - t0) / Double(batch))
      }
      calls += batch
      if samples.count >= plan.minimumSamples, Double(t1 - start) >= plan.targetSeconds * 1e9 {
        break
      }
    }
    return Measurement(
      nanosecondsPerCall: SampleStatistics(samples),
      allocationsPerCall: Double(allocations) / Double(calls), calls: calls)
  }
}

extension Sampler {
  /// One call of `operation`: its nanoseconds and the heap allocations it made.
  static func timed(_ operation: () -> Void) -> (nanoseconds: UInt64, allocations: UInt64) {
    let a0 = AllocationCounter.count
    let t0 = Stopwatch.now()
    operation()
    let t1 = Stopwatch.now()
    return (t1 - t0, AllocationCounter.count - a0)
  }

  /// Samples two operations in turn, one call each a sample (operations of milliseconds:
  /// `frame/sprites` and the grid's frame beside it), so both see the same moments of a
  /// shared machine and their ratio is read against the same load. `untimed` runs before each
  /// call of `a`, outside its clock and allocation count. At least `minimumPairs` pairs, and
  /// until `plan.targetSeconds` went by (or `plan.maximumSamples` pairs); no warm-up (the
  /// caller settled both).
  static func measureAlternating(
    _ plan: SamplingPlan, minimumPairs: Int, untimed prepare: () -> Void, _ a: () -> Void,
    beside b: () -> Void
  ) -> (a: Measurement, b: Measurement) {
    var samples: (a: [Double], b: [Double]) = ([], [])
    var allocations: (a: UInt64, b: UInt64) = (0, 0)
    let start = Stopwatch.now()
    while samples.a.count < Swift.max(minimumPairs, plan.maximumSamples),
      Cancellation.signal == nil || samples.a.isEmpty
    {
      prepare()
      let (ta, na) = timed(a)
      let (tb, nb) = timed(b)
      samples.a.append(Double(ta))
      samples.b.append(Double(tb))
      allocations = (allocations.a + na, allocations.b + nb)
      if samples.a.count >= minimumPairs,
        Double(Stopwatch.now() - start) >= plan.targetSeconds * 1e9
      {
        break
      }
    }
    let n = Double(samples.a.count)
    return (
      Measurement(
        nanosecondsPerCall: SampleStatistics(samples.a),
        allocationsPerCall: Double(allocations.a) / n, calls: samples.a.count),
      Measurement(
        nanosecondsPerCall: SampleStatistics(samples.b),
        allocationsPerCall: Double(allocations.b) / n, calls: samples.b.count)
    )
  }
}

/// The thread counts every threaded entry is measured at: one, and all.
enum BenchThreads {
  /// All threads: `--threads N`, else every core this process may run on. The command line
  /// was validated before anything ran, so reading it again cannot fail.
  static let all: Int =
    (try? BenchOptions.parse(Array(CommandLine.arguments.dropFirst())))?.threads
    ?? RotationEngine.availableCores

  /// `[1, all]`, or `[1]` on one core.
  static var counts: [Int] { all > 1 ? [1, all] : [1] }

}
