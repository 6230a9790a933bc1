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
/// them, and a run's end folds them into the ring's history. A trigger fired ahead of `t` contributes 0 by the clamp, so nothing lags by a step
/// and nothing is interpolated. Whole turns stay an integer, so after 30 simulated days the
/// fraction still comes from two nearby `Double` times.
///
/// A game loop that renders between its previous and current state (`FixedStepLoop.renderTime`)
/// always asks for a time in the window; input is stamped with `FixedStepLoop.inputTime`, which
/// is never before `time`, as toggles must be.
///
/// ## Toggles
/// `setAnimating(_:loader:at:)` takes times at or after `time` (the simulated past is fixed),
/// non-decreasing per loader. A repeat of the current value is ignored. Turning a loader off at
/// `C` fires right away the rest of its run before `C` (they are due anyway; their turns read 0
/// until their time), so each loader has at most one scheduled run. Apply toggles no earlier
/// than the step that reaches them (`ToggleSchedule.Player` does) and that is at most a step's
/// worth of triggers.
///
/// ## Layout (struct of arrays, grouped by who reads them)
/// - The presentation pass reads one `Float` per ring, the latest trigger's start relative to
///   a moving epoch (`relativeStart`), and writes one `Float` angle per ring. Loaders with other
///   than 360-degree turns or mixed durations add three `Float`s per ring (wrapped whole-turn
///   base, `1 / d`, `D`).
/// - The step touches only loaders with a trigger in it, found through a timing wheel: one
///   bitmap of loader slots per tick, modulo the wheel size, so a step visits its loaders in
///   slot order (ascending addresses) and a bucket costs one bit per loader. Everything the
///   firing path reads for one loader is one 64-byte record (`Schedule`); per ring it writes only
///   `relativeStart` (and `wrappedBase` for turns that are not whole turns).
/// - Per ring history (`RingHistory`: turns and latest start before the current run) is read at
///   a run's first trigger per ring and written when the run ends.
/// - Overlapping turns (a ring re-triggered while its last turn still runs, only after quick
///   toggles) live in a small side pool, reserved up front.
public struct RotationEngine: Sendable {
  /// A loader's handle. `slot` is reused after `remove`; `generation` tells the old handle
  /// from the new one, so a stale id is rejected instead of steering someone else's loader.
  public struct LoaderID: Hashable, Sendable, CustomStringConvertible {
    public let slot: Int
    public let generation: UInt32
    public var description: String { "\(slot).\(generation)" }
  }

  public enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
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

    public var description: String {
      switch self {
      case .invalidStep(let dt): "step dt must be finite and > 0, got \(dt)"
      case .invalidStyle(let e): "invalid loader style: \(e)"
      case .staleLoader(let id): "loader \(id) was removed (stale id)"
      case .ringOutOfRange(let r, let n): "ring \(r) out of range 0..<\(n)"
      case .timeNotFinite(let t): "time must be finite, got \(t)"
      case .timeOutOfRange(let t): "time \(t) is too far in the future for the tick counter"
      case .timeBeforeNow(let t, let now):
        "time \(t) is before the engine's time \(now) (the simulated past cannot change)"
      case .timeDecreasing(let id, let t, let p):
        "loader \(id): toggle time \(t) is before its previous toggle at \(p)"
      case .renderTimeOutsideWindow(let t, let w):
        "render time \(t) is outside the presentable window \(w.lowerBound)...\(w.upperBound)"
      case .bufferTooSmall(let c, let n): "angle buffer holds \(c) rings, needs \(n)"
      }
    }
  }

  /// Everything the firing path reads for one loader: one cache line.
  struct Schedule {
    /// `R`, when the current run started.
    var runStart: Double = 0
    var stagger: Double = 0
    var turnDuration: Double = 0
    var turnDegrees: Double = 0
    /// `j` of the next trigger of the current run, at `runStart + stagger * j`: the triggers
    /// fired in this run so far.
    var nextTrigger: Int = 0
    var firstRing: Int32 = 0
    var ringCount: Int32 = 0
    /// `nextTrigger % ringCount`, kept to spare a division per trigger.
    var nextRing: Int32 = 0
    var generation: UInt32 = 0
    var isAnimating = false
    var isLive = false
    /// `turnDegrees == 360`: the whole-turn base is always 0 mod 360.
    var isFullTurn = false

    @inline(__always) func triggerTime(_ j: Int) -> Double { runStart + stagger * Double(j) }

    /// Triggers of ring `i` (of this loader) in the current run.
    func runTriggers(ofRing i: Int) -> Int {
      nextTrigger > i ? (nextTrigger - 1 - i) / Int(ringCount) + 1 : 0
    }
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
  public let dt: Double
  /// Steps taken.
  public internal(set) var tick: Int = 0
  /// `Double(tick) * dt`.
  public var time: Double { Double(tick) * dt }
  /// Render times at which angles are exact now.
  public var presentableTimes: ClosedRange<Double> { (time - dt)...time }

  var schedules = CacheAlignedArray<Schedule>()
  var lastToggle: [Double] = []
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

  /// Bucket `k & wheelMask` is the bitmap `wheel[bucket * wheelWords ..< (bucket + 1) * wheelWords]`
  /// of loader slots whose next trigger falls in step `k` or a later lap of the wheel. A bit
  /// may be stale (the loader was turned off, or restarted elsewhere); the step checks.
  var wheel = CacheAlignedArray<UInt64>()
  var wheelWords = 0
  let wheelMask: Int
  /// Scratch for the step: the slots of the bucket being fired, room for every slot.
  var dueSlots = CacheAlignedArray<Int32>()
  /// Where the step's look-ahead loads go, so the optimizer keeps them.
  var touchSink = 0

  /// Origin of `relativeStart`, moved forward every `rebaseInterval` so `Float` keeps the
  /// fraction of a turn.
  var epoch: Double = 0
  static let rebaseInterval = 2.0
  static let neverStarted: Float = -1e30

  var timingUse: [Timing: Int] = [:]
  /// `Float(1 / d)` when every live loader turns 360 degrees in `d`.
  var uniformInverseDuration: Float? = nil

  /// - Parameters:
  ///   - dt: step length in seconds, finite and > 0.
  ///   - capacity: loaders to reserve storage for.
  ///   - wheelSize: buckets in the timing wheel (rounded up to a power of two); triggers
  ///     further apart than `wheelSize * dt` cost a look per lap, nothing more.
  public init(dt: Double, capacity: Int = 0, wheelSize: Int = 64) throws(Error) {
    guard dt.isFinite, dt > 0 else { throw .invalidStep(dt) }
    self.dt = dt
    var size = 1
    while size < Swift.max(2, Swift.min(wheelSize, 1 << 16)) { size <<= 1 }
    wheelMask = size - 1
    overlaps.reserveCapacity(256)
    reserveCapacity(loaders: capacity, rings: capacity * LoaderStyle.seed.ringCount)
  }

  /// Reserves storage so that adding up to `loaders` loaders (`rings` rings) does not grow arrays.
  public mutating func reserveCapacity(loaders: Int, rings: Int) {
    schedules.reserveCapacity(loaders)
    lastToggle.reserveCapacity(loaders)
    ringHistory.reserveCapacity(rings)
    growWheel(toHold: loaders)
    relativeStart.reserveCapacity(rings)
    wrappedBase.reserveCapacity(rings)
    inverseDuration.reserveCapacity(rings)
    ringDegrees.reserveCapacity(rings)
  }

  /// Live loaders.
  public var count: Int { liveCount }
  /// Length of the buffer `presentationAngles(at:into:)` fills: ring storage, holes included.
  public var ringSlotCount: Int { relativeStart.count }

  /// Every live loader's id, in slot order.
  public var loaderIDs: [LoaderID] {
    schedules.indices.compactMap { i in
      schedules[i].isLive ? LoaderID(slot: i, generation: schedules[i].generation) : nil
    }
  }
}

// MARK: - Loaders

extension RotationEngine {
  /// Adds a loader, like `LoaderView(isAnimating:)` appearing at `time` (default: now).
  @discardableResult
  public mutating func addLoader(
    style: LoaderStyle = .seed, isAnimating: Bool = false, at time: Double? = nil
  ) throws(Error) -> LoaderID {
    do { try style.validate() } catch { throw .invalidStyle(error) }
    let start = time ?? self.time
    if isAnimating { try checkToggleTime(start) }

    let n = style.ringCount
    let firstRing: Int
    if var block = freeRingBlocks[n], let reused = block.popLast() {
      freeRingBlocks[n] = block
      firstRing = reused
    } else {
      firstRing = ringHistory.count
      ringHistory.append(repeating: RingHistory(), count: n)
      relativeStart.append(repeating: Self.neverStarted, count: n)
      wrappedBase.append(repeating: 0, count: n)
      inverseDuration.append(repeating: 0, count: n)
      ringDegrees.append(repeating: 0, count: n)
    }
    for r in firstRing..<(firstRing + n) {
      ringHistory[r] = RingHistory()
      relativeStart[r] = Self.neverStarted
      // With no trigger yet, `c` reads 1 at any time: start from `-D` so the sum is 0.
      wrappedBase[r] = Float(Self.wrapped(-style.turnDegrees))
      inverseDuration[r] = Float(1 / style.turnDuration)
      ringDegrees[r] = Float(style.turnDegrees)
    }

    let slot: Int
    if let reused = freeSlots.popLast() {
      slot = reused
    } else {
      slot = schedules.count
      schedules.append(Schedule())
      lastToggle.append(-.infinity)
      growWheel(toHold: slot + 1)
    }
    var s = schedules[slot]
    s.stagger = style.stagger
    s.turnDuration = style.turnDuration
    s.turnDegrees = style.turnDegrees
    s.firstRing = Int32(firstRing)
    s.ringCount = Int32(n)
    s.isLive = true
    s.isAnimating = false
    s.isFullTurn = style.turnDegrees == 360
    s.nextTrigger = 0
    s.nextRing = 0
    schedules[slot] = s
    lastToggle[slot] = -.infinity
    liveCount += 1
    useTiming(Timing(duration: style.turnDuration, degrees: style.turnDegrees), by: 1)

    let id = LoaderID(slot: slot, generation: s.generation)
    if isAnimating { startRun(slot: slot, at: start) }
    lastToggle[slot] = start
    return id
  }

  /// Removes a loader; its slot and rings are reused by a later `addLoader`, and its id goes stale.
  public mutating func remove(_ id: LoaderID) throws(Error) {
    let slot = try liveSlot(id)
    if schedules[slot].isAnimating { endRun(slot: slot, at: time) }
    var s = schedules[slot]
    let first = Int(s.firstRing)
    let n = Int(s.ringCount)
    overlaps.removeAll { $0.ring >= first && $0.ring < first + n }
    for r in first..<(first + n) {
      ringHistory[r] = RingHistory()
      relativeStart[r] = Self.neverStarted
      wrappedBase[r] = 0
    }
    freeRingBlocks[n, default: []].append(first)
    useTiming(Timing(duration: s.turnDuration, degrees: s.turnDegrees), by: -1)
    s.isLive = false
    s.isAnimating = false
    s.generation &+= 1
    schedules[slot] = s
    freeSlots.append(slot)
    liveCount -= 1
  }

  public func contains(_ id: LoaderID) -> Bool {
    id.slot >= 0 && id.slot < schedules.count && schedules[id.slot].isLive
      && schedules[id.slot].generation == id.generation
  }

  public func isAnimating(_ id: LoaderID) throws(Error) -> Bool {
    schedules[try liveSlot(id)].isAnimating
  }

  /// The first of `ringCount(of:)` entries for this loader in `presentationAngles(at:into:)`.
  public func firstRing(of id: LoaderID) throws(Error) -> Int {
    Int(schedules[try liveSlot(id)].firstRing)
  }

  public func ringCount(of id: LoaderID) throws(Error) -> Int {
    Int(schedules[try liveSlot(id)].ringCount)
  }

  /// `isAnimating = on` for one loader at `time` (>= `time` of the engine, and not before the
  /// loader's previous toggle). A repeat of the current value is ignored.
  public mutating func setAnimating(_ on: Bool, loader id: LoaderID, at time: Double) throws(Error)
  {
    let slot = try liveSlot(id)
    try checkToggleTime(time)
    guard time >= lastToggle[slot] else {
      throw .timeDecreasing(loader: id, time: time, previous: lastToggle[slot])
    }
    lastToggle[slot] = time
    guard on != schedules[slot].isAnimating else { return }
    if on { startRun(slot: slot, at: time) } else { endRun(slot: slot, at: time) }
  }

  /// `isAnimating = on` for every live loader at `time`.
  public mutating func setAnimatingAll(_ on: Bool, at time: Double) throws(Error) {
    try checkToggleTime(time)
    for slot in schedules.indices where schedules[slot].isLive {
      guard time >= lastToggle[slot] else {
        let id = LoaderID(slot: slot, generation: schedules[slot].generation)
        throw .timeDecreasing(loader: id, time: time, previous: lastToggle[slot])
      }
    }
    for slot in schedules.indices where schedules[slot].isLive {
      lastToggle[slot] = time
      guard on != schedules[slot].isAnimating else { continue }
      if on { startRun(slot: slot, at: time) } else { endRun(slot: slot, at: time) }
    }
  }

  func liveSlot(_ id: LoaderID) throws(Error) -> Int {
    guard contains(id) else { throw .staleLoader(id) }
    return id.slot
  }

  func checkToggleTime(_ t: Double) throws(Error) {
    guard t.isFinite else { throw .timeNotFinite(t) }
    guard t >= time else { throw .timeBeforeNow(time: t, now: time) }
    // Keeps `tickContaining` and the trigger index far from Int overflow.
    guard t / dt < 0x1p50 else { throw .timeOutOfRange(t) }
  }

  /// Widens every wheel bucket to at least `loaders` bits.
  mutating func growWheel(toHold loaders: Int) {
    let needed = (loaders + 63) >> 6
    guard needed > wheelWords else { return }
    let words = Swift.max(needed, 2 * wheelWords)
    var grown = CacheAlignedArray<UInt64>()
    grown.append(repeating: 0, count: (wheelMask + 1) * words)
    for b in 0...wheelMask {
      for w in 0..<wheelWords { grown[b * words + w] = wheel[b * wheelWords + w] }
    }
    wheel = grown
    wheelWords = words
    dueSlots.reserveCapacity(64 * words)
  }

  mutating func useTiming(_ timing: Timing, by delta: Int) {
    let n = timingUse[timing, default: 0] + delta
    timingUse[timing] = n == 0 ? nil : n
    if timingUse.count == 1, let only = timingUse.keys.first, only.degrees == 360 {
      uniformInverseDuration = Float(1 / only.duration)
    } else {
      uniformInverseDuration = timingUse.isEmpty ? 1 : nil
    }
  }
}
