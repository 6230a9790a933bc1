/// Many loaders' motion, each with the seed's exact semantics (`LoaderTimeline`), advanced by a
/// fixed step on an integer tick count.
///
/// ## Time
/// The engine's time is `time = Double(tick) * dt`, never a running sum. `step()` moves `tick`
/// to `tick + 1` and fires every trigger `s` with `time <= s < time + dt` at its exact `s`
/// (a trigger is never late by a step). After it, presentation angles are exact at any render
/// time in `presentableTimes = (time - dt)...time`: each turn is evaluated there as
/// ```
/// angle_i(t) = (T_i - 1) * D  +  D * c(p_i)  +  sum over overlapping turns q of D * (c(q) - 1)
/// c(s)       = min(1, max(0, (t - s) / d))
/// ```
/// where `T_i` is the integer count of ring `i`'s triggers so far, `p_i` its latest trigger and
/// the overlapping turns are earlier ones still running somewhere in the window (SPEC's additive
/// overlap). During a run (on at `R`, `j` triggers fired, `n` rings, stagger `g`) ring `i` has had
/// `m_i = j > i ? (j - 1 - i) / n + 1 : 0` of its triggers, the latest at `R + g (i + n (m_i - 1))`,
/// so `T_i` and `p_i` are the ring's totals before the run plus those: the step never writes
/// them, and a run's end folds them into the ring's history. A trigger fired ahead of `t`
/// contributes 0 by the clamp, so nothing lags by a step and nothing is interpolated. Whole
/// turns stay an integer, so the fraction always comes from two nearby `Double` times.
///
/// A host moves the engine with `advance(to:)` until the time it draws is presentable
/// (`LoaderField.advance(to:)` does) and stamps input with a time never before `time`.
/// `advance(to:)` steps a short gap and jumps a long one in closed form (a running schedule is
/// periodic), so a draw after a century costs about one pass over the loaders; times up to
/// `maximumTime`.
///
/// ## Toggles
/// `setAnimating(_:loader:at:)` takes times at or after `time`, non-decreasing per loader; a
/// repeat of the current value is ignored. Turning a loader off at `C` fires right away the
/// rest of its run before `C` (their turns read 0 until their time), so each loader has at most
/// one scheduled run.
///
/// ## Threads
/// `presentationAngles(at:into:)` and the epoch's rebase are element-wise over rings, so past
/// `minimumRingsPerThread` rings per worker they split into contiguous ranges on up to
/// `threadCount` threads of `WorkerPool.shared`, bit-identical and allocation-free. A step with
/// many triggers fires the common ones on the same threads, then moves the entries on the
/// calling thread.
///
/// ## Layout (struct of arrays, grouped by who reads them)
/// The presentation pass reads one `Float` per ring (`relativeStart`), plus three for styles
/// with other than 360-degree turns or mixed durations. The step touches only loaders with a
/// trigger in it, through a timing wheel of `WheelEntry` cursors; it reads `LoaderRun` only for
/// a run's first `n` triggers or a style that can overlap, and `RingHistory` at a run's start
/// and end. Overlapping turns live in a small side pool.
package struct RotationEngine: Sendable {
  /// A loader's handle (`LoaderCore.LoaderID`).
  package typealias LoaderID = LoaderCore.LoaderID

  package enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
    case invalidStep(Double)
    case invalidStyle(LoaderStyle.Error)
    case staleLoader(LoaderID)
    case ringOutOfRange(ring: Int, ringCount: Int)
    case timeNotFinite(Double)
    case timeOutOfRange(Double)
    case timeBeforeNow(time: Double, now: Double)
    case timeDecreasing(loader: LoaderID, time: Double, previous: Double)
    case renderTimeOutsideWindow(time: Double, window: ClosedRange<Double>)
    case bufferTooSmall(count: Int, needed: Int)
    case invalidThreadCount(Int)
    /// A `capacity` below 0 or above `maximumLoaders`.
    case invalidCapacity(Int)

    package var description: String {
      switch self {
      case .invalidStep(let dt): "step dt must be finite and > 0, got \(dt)"
      case .invalidStyle(let e): "invalid loader style: \(e)"
      case .staleLoader(let id): "loader \(id) was removed (stale id)"
      case .ringOutOfRange(let r, let n): "ring \(r) out of range 0..<\(n)"
      case .timeNotFinite(let t): "time must be finite, got \(t)"
      case .timeOutOfRange(let t):
        "time \(millisecondText(t)) is past the last time loaders can show (about 140,000"
          + " years of loader time)"
      case .timeBeforeNow(let t, let now):
        "time \(millisecondText(t)) is before the engine's time \(millisecondText(now))"
          + " (the simulated past cannot change)"
      case .timeDecreasing(let id, let t, let p):
        "loader \(id): toggle time \(millisecondText(t)) is before its previous toggle at"
          + " \(millisecondText(p))"
      case .renderTimeOutsideWindow(let t, let w):
        "render time \(millisecondText(t)) is outside the presentable window"
          + " \(millisecondText(w.lowerBound))...\(millisecondText(w.upperBound))"
      case .bufferTooSmall(let c, let n): "angle buffer holds \(c) rings, needs \(n)"
      case .invalidThreadCount(let n):
        "thread count must be 1...\(RotationEngine.maximumThreadCount), got \(n)"
      case .invalidCapacity(let n):
        "capacity must be 0...\(RotationEngine.maximumLoaders) loaders, got \(n)"
      }
    }
  }

  /// One loader: its style and current run, written only by toggles.
  struct LoaderRun {
    /// `R`, when the current run started.
    var runStart: Double = 0
    var stagger: Double = 0
    var turnDuration: Double = 0
    var turnDegrees: Double = 0
    var firstRing: Int32 = 0
    var ringCount: Int32 = 0
    var generation: UInt32 = 0
    /// Bumped by every start or end of a run and by removal: wheel entries of older runs
    /// no longer match `runTags[slot]`.
    var runStamp: UInt32 = 0
    var isAnimating = false
    var isLive = false
    /// `turnDegrees == 360`: the whole-turn base is always 0 mod 360.
    var isFullTurn = false

    @inline(__always) func triggerTime(_ j: Int) -> Double { runStart + stagger * Double(j) }

    /// Triggers of the current run before `horizon`: the least `j >= 0` with
    /// `triggerTime(j) >= horizon`, by the same products the step fires with (they grow with
    /// `j`, so the fired triggers are always a prefix).
    func triggers(before horizon: Double) -> Int {
      guard isAnimating else { return 0 }
      return RotationEngine.triggers(runStart: runStart, stagger: stagger, before: horizon)
    }

    /// Of `fired` triggers of the current run, those that turned ring `i` of this loader.
    func runTriggers(ofRing i: Int, fired: Int) -> Int {
      fired > i ? (fired - 1 - i) / Int(ringCount) + 1 : 0
    }

    /// The cursor of a run with `fired` triggers so far.
    func cursor(fired: Int, slot: Int, tag: UInt32) -> WheelEntry {
      WheelEntry(
        runStart: runStart, stagger: stagger, next: fired, firstRing: UInt32(firstRing),
        slot: UInt32(slot), tag: tag, nextRing: UInt16(fired % Int(ringCount)),
        ringCount: UInt16(ringCount))
    }
  }

  /// A running loader's place in the timing wheel, with everything the common trigger needs.
  struct WheelEntry {
    var runStart: Double
    var stagger: Double
    /// `j` of the next trigger, at `runStart + stagger * j`.
    var next: Int
    var firstRing: UInt32
    var slot: UInt32
    /// `runTags[slot]` when this run started; a mismatch means the run is over.
    var tag: UInt32
    /// `next % ringCount`, kept to spare a division per trigger.
    var nextRing: UInt16
    var ringCount: UInt16

    @inline(__always) func triggerTime(_ j: Int) -> Double { runStart + stagger * Double(j) }

    /// A simple run past its first `ringCount` triggers: its trigger writes one `Float` and
    /// nothing else (`RotationEngine.fireCommon`).
    @inline(__always) var isCommon: Bool { tag & 1 == 1 && next >= Int(ringCount) }
  }

  /// A ring's turns before its loader's current run: how many, and when the latest started.
  struct RingHistory {
    var count: Int = 0
    var latestStart: Double = -.infinity
  }

  /// An earlier turn of `ring` still running when a later one started (additive overlap).
  struct OverlapTurn {
    var ring: Int
    var start: Double
    var duration: Double
    var degrees: Double
  }

  /// Timing shared by every live loader's rings when all have 360-degree turns of one duration:
  /// then the presentation pass needs only the start per ring.
  struct Timing: Hashable {
    var duration: Double
    var degrees: Double
  }

  /// Step length, seconds.
  package let dt: Double
  /// `1 / dt`, for a first guess at the tick of a time.
  let inverseDt: Double
  /// Steps taken.
  package internal(set) var tick: Int = 0
  /// Threads the per-ring passes (presentation angles, the epoch's rebase) may spread over;
  /// see `setThreadCount(_:)`.
  package internal(set) var threadCount: Int
  package var time: Double { Double(tick) * dt }
  /// Render times at which angles are exact now.
  package var presentableTimes: ClosedRange<Double> { (time - dt)...time }

  var loaderRuns = CacheAlignedArray<LoaderRun>()
  var lastToggle: [Double] = []
  /// Per slot: loader time from which no turn of the loader's ended runs moves (`-infinity`
  /// before any run ended); written by `endRun`, read by `nextMotion(atOrAfter:)`.
  var quietFrom: [Double] = []
  var freeSlots: [Int] = []
  var liveCount = 0

  var ringHistory = CacheAlignedArray<RingHistory>()
  /// `Float(latestStart - epoch)`; the presentation pass's only per-ring input in the common case.
  var relativeStart = CacheAlignedArray<Float>()
  /// `(count - 1) * D` reduced to `[0, 360)` (`-D` before the first trigger).
  var wrappedBase = CacheAlignedArray<Float>()
  var inverseDuration = CacheAlignedArray<Float>()
  var ringDegrees = CacheAlignedArray<Float>()
  var freeRingBlocks: [Int: [Int]] = [:]

  var overlaps: [OverlapTurn] = []

  /// Bucket `k & wheelMask` holds the entries whose next trigger falls in step `k` or a later
  /// lap of the wheel. Entries of ended runs stay until their bucket comes round.
  var wheel: TimingWheel
  let wheelMask: Int
  /// Per bucket: runs ended since it was last fired. Only such a bucket checks its entries'
  /// tags (a random 4-byte read each); the others trust every entry.
  var endedRuns: [Int]
  /// Per slot: `runStamp << 1 | 1` when the run's common trigger needs nothing but its entry
  /// (whole 360-degree turns that cannot overlap within the run), else `runStamp << 1`.
  var runTags = CacheAlignedArray<UInt32>()

  /// Origin of `relativeStart`, moved forward every `rebaseInterval` so `Float` keeps the
  /// fraction of a turn.
  var epoch: Double = 0
  static let rebaseInterval = 2.0
  static let neverStarted: Float = -1e30

  /// `remove` compacts storage once `count` is at or below this (`compactIfSparse()`).
  var compactBelow = 0
  /// The highest generation of a slot `compactStorage()` dropped: a slot made again starts
  /// there, so ids of the dropped one stay stale.
  var retiredGeneration: UInt32 = 0
  /// `compactStorage()` calls so far: a host that caches storage of its own (or holds on to
  /// the allocator's free pages) knows from a change that the engine shrank.
  package internal(set) var compactions = 0

  var timingUse: [Timing: Int] = [:]
  /// `Float(360 / d)`, degrees per second, when every live loader turns 360 degrees in `d`.
  var uniformTurnRate: Float? = nil

  /// - Parameters:
  ///   - dt: step length in seconds, finite and > 0.
  ///   - capacity: loaders to reserve storage for.
  ///   - wheelSize: buckets in the timing wheel (rounded up to a power of two); triggers
  ///     further apart than `wheelSize * dt` cost a look per lap, nothing more.
  ///   - threadCount: threads for the per-ring passes, 1...`maximumThreadCount` (default:
  ///     every core, at most that; 1 keeps them on the calling thread). See
  ///     `setThreadCount(_:)`.
  /// - Throws: `Error.invalidStep` for a `dt` that is not finite and > 0,
  ///   `Error.invalidCapacity` for a `capacity` outside 0...`maximumLoaders`,
  ///   `Error.invalidThreadCount` for a `threadCount` outside 1...`maximumThreadCount`; each
  ///   before anything is allocated.
  package init(
    dt: Double, capacity: Int = 0, wheelSize: Int = 64,
    threadCount: Int = RotationEngine.availableCores
  ) throws(Error) {
    guard dt.isFinite, dt > 0 else { throw .invalidStep(dt) }
    guard (0...Self.maximumLoaders).contains(capacity) else { throw .invalidCapacity(capacity) }
    guard Self.threadCountRange.contains(threadCount) else {
      throw .invalidThreadCount(threadCount)
    }
    self.dt = dt
    self.threadCount = threadCount
    inverseDt = 1 / dt
    var size = 1
    while size < Swift.max(2, Swift.min(wheelSize, 1 << 16)) { size <<= 1 }
    wheelMask = size - 1
    wheel = TimingWheel(size: size)
    endedRuns = Array(repeating: 0, count: size)
    // Overlapping turns are few (at most a ring's worth a loader, in practice): a small
    // engine reserves a few, a large one 256, and either grows on demand.
    overlaps.reserveCapacity(Swift.min(256, Swift.max(8, capacity * LoaderStyle.seed.ringCount)))
    reserveCapacity(loaders: capacity, rings: capacity * LoaderStyle.seed.ringCount)
  }

  /// Reserves storage so that adding up to `loaders` loaders (`rings` rings) does not grow arrays.
  package mutating func reserveCapacity(loaders: Int, rings: Int) {
    loaderRuns.reserveCapacity(loaders)
    lastToggle.reserveCapacity(loaders)
    quietFrom.reserveCapacity(loaders)
    ringHistory.reserveCapacity(rings)
    runTags.reserveCapacity(loaders)
    relativeStart.reserveCapacity(rings)
    wrappedBase.reserveCapacity(rings)
    inverseDuration.reserveCapacity(rings)
    ringDegrees.reserveCapacity(rings)
  }

  package var count: Int { liveCount }
  /// Loader slots, holes included: per-slot tables of a host (indexed by `LoaderID.slot`)
  /// need this many entries.
  package var slotCount: Int { loaderRuns.count }
  /// Length of the buffer `presentationAngles(at:into:)` fills: ring storage, holes included.
  package var ringSlotCount: Int { relativeStart.count }

  /// Every live loader's id, in slot order.
  package var loaderIDs: [LoaderID] {
    loaderRuns.indices.compactMap { i in
      loaderRuns[i].isLive ? LoaderID(slot: i, generation: loaderRuns[i].generation) : nil
    }
  }
}
