import LoaderCore

/// Which simulated instants a recording draws, and for how long the file shows each one.
///
/// The file shows frame `k` from `clock.seconds(ofFrame: k)` for `clock.shownTicks(ofFrame: k)`
/// ticks of its container's clock (`Clock`: whole centiseconds for GIF, milliseconds for WebP
/// and WebM, an exact time base for MP4), and frame `k` is drawn at exactly that time:
/// `times[k] = start + clock.seconds(ofFrame: k)`. No frame is shown at a time it was not
/// drawn for.
///
/// Without `loop`, `N = round(duration * rate)` frames at `rate = min(fps,
/// format.maximumFrameRate)` frames a second from the moment the loader turns on
/// (`start = 0`): a GIF at 30 fps has delays 3, 4, 3 cs and draws at 0, 0.03, 0.07, 0.1 s.
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
/// `N = floor(P * rate)` frames: never faster than the rate asked for (so a GIF's delays stay
/// at 2 cs or more), and their shown durations add up to the period, so the frame after the
/// last is frame 0 one period later. For the seed at 50 fps: 62 frames, 49.6 fps on average,
/// as a GIF 61 delays of 2 cs and one of 3, adding up to 125. A period that is not a whole
/// number of ticks (`--stagger 0.2525` into a GIF) lasts the period rounded to a tick, so the
/// seam is off by at most half a tick.
package struct RecordingSchedule: Sendable, Hashable {
  /// Simulated time of each frame, seconds, ascending: `start + clock.seconds(ofFrame: k)`.
  package var times: [Double]
  /// Simulated time of the file's first instant.
  package var start: Double
  /// When the file shows each frame, and for how long.
  package var clock: Clock

  /// Frames a second on average.
  package var frameRate: Double { clock.framesPerSecond }
  /// The file's length, seconds: the last frame's end.
  package var length: Double { clock.seconds(ofFrame: times.count) }

  /// The longest recording, in frames: at 50 fps an hour.
  package static let maximumFrames = 180_000
  /// The frame rates a recording may ask for.
  package static let frameRates = 1...240

  /// The first instant, a multiple of the period, from which the motion repeats every period.
  package static func steadyStart(of style: LoaderStyle) -> Double {
    let p = style.period
    let settled = Double(style.ringCount - 1) * style.stagger + style.turnDuration - p
    return p * max(1, (settled / p).rounded(.up))
  }

  /// `duration`: seconds of motion to record from the start; nil is one period. With `loop`
  /// it must be nil: the loop's length is the period.
  package init(
    format: RecordingFormat, fps: Int, duration: Double?, loop: Bool, style: LoaderStyle
  ) throws(RecordingError) {
    guard Self.frameRates.contains(fps) else {
      throw .invalid("frame rate \(fps) is outside \(Self.frameRates)")
    }
    let rate = Double(format.frameRate(asking: fps))
    let p = style.period
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
    let first = loop ? Self.steadyStart(of: style) : 0
    let c =
      loop
      ? Clock(format: format, frames: n, inSeconds: p)
      : Clock(format: format, framesPerSecond: Int(rate))
    times = (0..<n).map { first + c.seconds(ofFrame: $0) }
    start = first
    clock = c
  }
}
