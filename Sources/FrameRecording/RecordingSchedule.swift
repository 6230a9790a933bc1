import LoaderCore

/// Which simulated instants a recording draws, and the rate the file plays them at.
///
/// Without `loop`, frame `k` of `N = round(duration * rate)` is drawn at `t_k = k / rate`
/// from the moment the loader turns on, where `rate = min(fps, format.maximumFrameRate)`.
///
/// With `loop`, the file holds exactly one period of the steady motion, so playing it over and
/// over shows no seam. With `n` rings, stagger `g` and turn duration `d`, ring `i` is triggered
/// at `i g + m P` for `m = 0, 1, ...`, where the period is `P = n g`. Then
/// ```
/// angle_i(t + P) = angle_i(t) + 360 * min(1, (t + P - i g) / d)
/// ```
/// which is a whole turn, invisible, for every ring once `t >= (n - 1) g + d - P`. The loop
/// starts at the first multiple of `P` (at least `P`) past that instant, so frame 0 shows
/// ring 0 just triggered; for the seed that is `t = 1.25`. The period holds
/// `N = floor(P * rate)` frames spaced `P / N` apart: never faster than the rate asked for
/// (so a GIF's delays stay at 2 cs or more), and the file's length is exactly `P`. For the
/// seed at 50 fps: 62 frames, `1.25 / 62 = 20.16 ms` apart, played at 49.6 fps.
public struct RecordingSchedule: Sendable, Hashable {
  /// Simulated time of each frame, seconds, ascending.
  public var times: [Double]
  /// Frames per second of the file: frame `k` is shown from `k / frameRate` to
  /// `(k + 1) / frameRate` seconds into it.
  public var frameRate: Double

  /// The longest recording, in frames: at 50 fps an hour.
  public static let maximumFrames = 180_000
  /// The frame rates a recording may ask for.
  public static let frameRates = 1...240

  /// The period of the seed's motion at the style's constants: every ring triggered once.
  public static func period(of style: LoaderStyle) -> Double {
    Double(style.ringCount) * style.stagger
  }

  /// The first instant, a multiple of the period, from which the motion repeats every period.
  public static func steadyStart(of style: LoaderStyle) -> Double {
    let p = period(of: style)
    let settled = Double(style.ringCount - 1) * style.stagger + style.turnDuration - p
    return p * max(1, (settled / p).rounded(.up))
  }

  /// `duration`: seconds of motion to record from the start; nil is one period. With `loop`
  /// it must be nil: the loop's length is the period.
  public init(
    format: RecordingFormat, fps: Int, duration: Double?, loop: Bool, style: LoaderStyle
  ) throws(RecordingError) {
    guard Self.frameRates.contains(fps) else {
      throw .invalid("frame rate \(fps) is outside \(Self.frameRates)")
    }
    let rate = Double(min(fps, format.maximumFrameRate))
    let p = Self.period(of: style)
    guard p.isFinite, p > 0 else { throw .invalid("the motion's period \(p) s is not positive") }
    let count: Double
    if loop {
      guard duration == nil else {
        throw .invalid("a loop is exactly one period (\(p) s): it takes no duration")
      }
      count = max(1, (p * rate + 1e-9).rounded(.down))
    } else {
      let d = duration ?? p
      guard d.isFinite, d > 0 else { throw .invalid("duration \(d) must be finite and > 0") }
      count = max(1, (d * rate).rounded())
    }
    guard count <= Double(Self.maximumFrames) else {
      throw .invalid(
        "\(count) frames is more than \(Self.maximumFrames) (\(Self.maximumFrames / 50) s at 50 fps)"
      )
    }
    let n = Int(count)
    if loop {
      let start = Self.steadyStart(of: style)
      times = (0..<n).map { start + p * Double($0) / Double(n) }
      frameRate = Double(n) / p
    } else {
      times = (0..<n).map { Double($0) / rate }
      frameRate = rate
    }
  }

  /// The whole-unit timestamp of frame `k` at `unitsPerSecond` (100 for GIF centiseconds, 1000
  /// for WebP milliseconds), rounded from the exact `k / frameRate`. Rounding the running
  /// time instead of each frame's length keeps the file's total length exact: at 30 fps a GIF's
  /// delays go 3, 4, 3 cs, 30 frames every 100 cs.
  public static func timestamp(ofFrame k: Int, frameRate: Double, unitsPerSecond: Double) -> Int {
    Int((Double(k) * unitsPerSecond / frameRate).rounded())
  }
}
