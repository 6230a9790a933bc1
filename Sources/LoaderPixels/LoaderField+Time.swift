import Foundation
import LoaderCore

/// Time: the field's clock and speed, stepping the engine to a caller's time, when the picture
/// next changes, and the reduced motion's pulse.
extension LoaderField {
  /// The loaders' clock rate: loader seconds per caller second (1 = the seed, 0.25 = slow
  /// motion).
  public var speed: Double { clock.speed }

  /// The speeds `setSpeed(_:at:)` takes: a thousand times slower to a thousand times faster.
  /// Beyond them a caller's second would map to no visible change, or loader time would run
  /// past its last representable value (about 140,000 years) within hours.
  public static let speedRange = 0.001...1000.0

  /// Changes `speed` at `time`: loader time is continuous there, so no angle jumps, and runs
  /// at the new rate from then on. Times before `time` given later map at the new rate too.
  /// - Parameters:
  ///   - speed: the new rate, in `speedRange`.
  ///   - time: caller seconds the change takes effect at.
  /// - Throws: `LoaderField.Error` for a `speed` outside `speedRange` or a `time` that is not
  ///   finite.
  public func setSpeed(_ speed: Double, at time: Double) throws(Error) {
    guard Self.speedRange.contains(speed) else { throw .invalidSpeed(speed) }
    guard time.isFinite else { throw .timeNotFinite(time) }
    clock.change(speed: speed, at: time)
  }

  /// Loader time (the engine's) at caller time `time`.
  package func loaderTime(at time: Double) throws(Error) -> Double {
    guard time.isFinite else { throw .timeNotFinite(time) }
    return clock.loaderTime(at: time)
  }

  /// The earliest caller time `draw` can show now: the start of the last step drawn.
  package var earliestTime: Double { clock.callerTime(at: earliestLoaderTime) }

  private var earliestLoaderTime: Double { max(0, engine.presentableTimes.lowerBound) }

  func checkNotPast(_ tau: Double, time: Double) throws(Error) {
    guard tau >= earliestLoaderTime else {
      throw .timeBeforePast(time: time, earliest: earliestTime)
    }
  }

  /// The next caller time at or after `time` at which the picture may change: `time` itself
  /// while any ring turns (or pulses) or may still turn, the start of the earliest loader
  /// appearing later, nil when every loader is off and its last turn has ended. A host that
  /// draws at the returned time (or on input) never misses a change.
  ///
  /// A loader turned off at `C` in a run started at `R` is quiet from
  /// `R + stagger * j + turnDuration`, `j` its last trigger (`R + stagger * j < C`).
  ///
  /// With `maximumFrameRate` set, the answer is never earlier than the last drawn time plus
  /// one frame at that rate; with `motion` `.still`, it is nil (nothing ever moves).
  /// - Parameter time: caller seconds, usually now.
  /// - Returns: the caller time to draw next, or nil (also for a `time` that is not finite).
  public func nextChange(after time: Double) -> Double? {
    guard time.isFinite, !motion.isStill else { return nil }
    let tau = clock.loaderTime(at: time)
    guard let next = engine.nextMotion(atOrAfter: tau) else { return nil }
    let change = next > tau ? clock.callerTime(at: next) : time
    guard let rate = maximumFrameRate else { return change }
    return max(change, lastDrawTime + 1 / rate)
  }

  // MARK: - Reduced motion

  /// How far the pulse dims a ring at the middle of its turn.
  package static let reducedMotionDepth = 0.6

  /// A ring's opacity in `.pulse` motion, from its turn progress `c` in `[0, 1)` (the
  /// fraction of `turnDegrees` the full motion would have turned it past its last rest
  /// position; 0 at rest):
  /// ```
  /// opacity(c) = 1 - 0.6 * sin(pi * c)
  /// ```
  /// 1 at rest, 0.4 half way through a turn (0.3 s after its trigger in the seed), back to 1
  /// as the turn ends: continuous, and symmetric about the middle of the turn.
  package static func reducedMotionOpacity(turnProgress c: Double) -> Double {
    1 - reducedMotionDepth * sin(Double.pi * c)
  }
}
