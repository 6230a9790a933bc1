/// The Fix Your Timestep accumulator (Glenn Fiedler): real time in, a whole number of constant
/// steps out, and how far real time is past the last step (`alpha`) for drawing.
///
/// ```
/// frame  = min(now - last, maxFrameTime)        // a stall costs at most maxFrameTime
/// lag   += frame
/// while lag >= dt, steps < maxStepsPerFrame { step(); tick += 1; lag -= dt }
/// alpha  = lag / dt
/// ```
/// Nothing is summed in floating point while frames are steady: the loop keeps an anchor
/// (a clock reading and the tick at that reading) and compares `now - anchor` with
/// `Double(tick + 1 - anchorTick) * dt`, so a clock that reads exactly on step boundaries gets
/// exactly one step per boundary, never one skipped and then two. Only a capped frame or the
/// step cap moves the anchor.
public struct FixedStepLoop {
  public enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
    case invalidStep(Double)
    case invalidFrameCap(Double)
    case invalidStepCap(Int)
    public var description: String {
      switch self {
      case .invalidStep(let dt): "dt must be finite and > 0, got \(dt)"
      case .invalidFrameCap(let c): "maxFrameTime must be finite and > 0, got \(c)"
      case .invalidStepCap(let n): "maxStepsPerFrame must be > 0, got \(n)"
      }
    }
  }

  /// Step length, seconds.
  public let dt: Double
  /// The most real time one frame may add (the spiral-of-death clamp), seconds.
  public let maxFrameTime: Double
  /// The most steps one `advance()` runs; time beyond it is dropped.
  public let maxStepsPerFrame: Int
  /// Monotonic seconds.
  public let clock: () -> Double

  /// Steps run since the start.
  public private(set) var tick = 0
  /// Real time past the last step, in steps: `[0, 1)` except when the step cap cut a frame short.
  public private(set) var alpha = 0.0

  var lastReading: Double
  var anchorReading: Double
  var anchorTick = 0
  /// Lag carried into the current anchor when it moved.
  var anchorLag = 0.0

  /// Reads the clock once, as the start.
  public init(
    dt: Double, maxFrameTime: Double = 0.25, maxStepsPerFrame: Int = 8,
    clock: @escaping () -> Double
  ) throws(Error) {
    guard dt.isFinite, dt > 0 else { throw .invalidStep(dt) }
    guard maxFrameTime.isFinite, maxFrameTime > 0 else { throw .invalidFrameCap(maxFrameTime) }
    guard maxStepsPerFrame > 0 else { throw .invalidStepCap(maxStepsPerFrame) }
    self.dt = dt
    self.maxFrameTime = maxFrameTime
    self.maxStepsPerFrame = maxStepsPerFrame
    self.clock = clock
    let now = clock()
    lastReading = now.isFinite ? now : 0
    anchorReading = lastReading
  }

  /// A loop on the system's monotonic clock.
  public static func monotonic(
    dt: Double, maxFrameTime: Double = 0.25, maxStepsPerFrame: Int = 8
  ) throws(Error) -> FixedStepLoop {
    let origin = ContinuousClock.now
    return try FixedStepLoop(dt: dt, maxFrameTime: maxFrameTime, maxStepsPerFrame: maxStepsPerFrame)
    {
      let d = ContinuousClock.now - origin
      return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
  }

  /// `Double(tick) * dt`: the time the simulation has reached.
  public var time: Double { Double(tick) * dt }
  /// The time to draw: between the previous and the latest step, `alpha` of the way
  /// (`time - dt + alpha * dt`), where `RotationEngine` is exact.
  public var renderTime: Double { Double(tick - 1) * dt + Swift.min(alpha, 1) * dt }
  /// The real time of the last `advance()` on the simulation's clock (`time + alpha * dt`):
  /// stamp input with it. It is never before `time`.
  public var inputTime: Double { Double(tick) * dt + alpha * dt }

  /// Reads the clock and returns how many steps to run now (0 up to `maxStepsPerFrame`);
  /// `tick` and `alpha` already count them.
  public mutating func advance() -> Int {
    var now = clock()
    if !now.isFinite || now < lastReading { now = lastReading }  // a clock must not go back
    let frame = now - lastReading
    lastReading = now
    if frame > maxFrameTime {
      // Pretend the frame took maxFrameTime: re-anchor with the lag it would have left.
      anchorLag = lag(at: now - frame) + maxFrameTime
      anchorReading = now
      anchorTick = tick
    }
    var steps = 0
    while steps < maxStepsPerFrame, isDue(tick + 1, at: now) {
      tick += 1
      steps += 1
    }
    var left = lag(at: now)
    if isDue(tick + 1, at: now) {
      // Step cap reached: drop the whole steps still owed, keep the fraction.
      anchorLag = left - (left / dt).rounded(.down) * dt
      anchorReading = now
      anchorTick = tick
      left = anchorLag
    }
    alpha = Swift.max(0, left / dt)
    return steps
  }

  /// Calls `step` once per step due now, then returns how many ran.
  @discardableResult
  public mutating func advance(_ step: () throws -> Void) rethrows -> Int {
    let n = advance()
    for _ in 0..<n { try step() }
    return n
  }

  /// Whether step `k` has come at reading `now`: the same products every time, so readings on
  /// exact boundaries compare exactly.
  func isDue(_ k: Int, at now: Double) -> Bool {
    (now - anchorReading) + anchorLag >= Double(k - anchorTick) * dt
  }

  /// Real time at reading `now` not yet turned into steps.
  func lag(at now: Double) -> Double {
    (now - anchorReading) + anchorLag - Double(tick - anchorTick) * dt
  }
}
