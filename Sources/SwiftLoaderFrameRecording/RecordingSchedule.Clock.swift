extension RecordingSchedule {
  /// When each frame of a file starts, in whole ticks of the container's clock.
  ///
  /// A container stores times on a grid: a GIF's delays are whole centiseconds, an animated
  /// WebP's timestamps and a WebM's (Matroska's default `TimestampScale`) whole milliseconds,
  /// an MP4's whatever time base the stream declares. A frame drawn between two ticks is shown
  /// at a time it was not drawn for, so the clock decides the ticks first and the recording
  /// draws each frame at its own tick: `framesPerCycle` frames span exactly `ticksPerCycle`
  /// ticks, and
  /// ```
  /// tick(k)     = round(k * ticksPerCycle / framesPerCycle)      (half up, integers only)
  /// start(k)    = tick(k) / ticksPerSecond   seconds into the file
  /// shown(k)    = tick(k + 1) - tick(k)      ticks, the frame's delay or duration
  /// ```
  /// so the shown durations of any `framesPerCycle` consecutive frames add up to exactly
  /// `ticksPerCycle`, and the running time never drifts from the rate.
  ///
  /// MP4 takes any time base, so its clock is the coarsest grid on which every frame's start
  /// is exact: `1 / fps` for a plain recording, 1/248 s for the seed's loop (62 frames in
  /// 1.25 s are 5 ticks each).
  package struct Clock: Sendable, Hashable {
    /// Ticks in one second of the file.
    package let ticksPerSecond: Int
    /// `framesPerCycle` frames last exactly this many ticks.
    package let ticksPerCycle: Int
    package let framesPerCycle: Int

    /// The finest grid an MP4 clock uses: MPEG's 90 kHz system clock.
    static let finestVideoGrid = 90_000

    /// A clock of `ticksPerCycle` ticks every `framesPerCycle` frames, `ticksPerSecond` a
    /// second; each at least 1.
    package init(ticksPerSecond: Int, ticksPerCycle: Int, framesPerCycle: Int) {
      precondition(ticksPerSecond > 0 && ticksPerCycle > 0 && framesPerCycle > 0)
      let g = Self.gcd(ticksPerCycle, framesPerCycle)
      self.ticksPerSecond = ticksPerSecond
      self.ticksPerCycle = ticksPerCycle / g
      self.framesPerCycle = framesPerCycle / g
    }

    /// `format`'s clock for `framesPerSecond` frames a second (an open-ended recording: the
    /// window's R), the rate at most `format.maximumFrameRate`.
    package init(format: RecordingFormat, framesPerSecond: Int) {
      precondition(framesPerSecond > 0 && framesPerSecond <= format.maximumFrameRate)
      self.init(format: format, frames: framesPerSecond, inSeconds: 1)
    }

    /// `format`'s clock for `frames` frames in `seconds` (positive and finite): on the
    /// container's fixed grid, or for MP4 the coarsest grid on which `seconds / frames` is a
    /// whole number of ticks (90 kHz, MPEG's clock, when no grid that fine is exact).
    package init(format: RecordingFormat, frames: Int, inSeconds seconds: Double) {
      precondition(frames > 0 && seconds.isFinite && seconds > 0)
      let perSecond = Self.ticksPerSecond(format: format, spacing: seconds / Double(frames))
      let ticks = max(1, Int((seconds * Double(perSecond)).rounded()))
      self.init(ticksPerSecond: perSecond, ticksPerCycle: ticks, framesPerCycle: frames)
    }

    /// Ticks a second of `format`'s grid; for MP4 the fewest in which `spacing` seconds is a
    /// whole number of ticks.
    static func ticksPerSecond(format: RecordingFormat, spacing: Double) -> Int {
      if let fixed = format.ticksPerSecond { return fixed }
      // The smallest b with b * spacing a whole number, to a Double's precision.
      for b in 1...finestVideoGrid {
        let a = spacing * Double(b)
        if a >= 0.5, abs(a - a.rounded()) <= 1e-12 * a { return b }
      }
      return finestVideoGrid
    }

    /// The tick frame `k` (`k >= 0`) starts at; `tick(ofFrame: n)` is where `n` frames end.
    package func tick(ofFrame k: Int) -> Int {
      let (q, r) = k.quotientAndRemainder(dividingBy: framesPerCycle)
      return q * ticksPerCycle + (2 * r * ticksPerCycle + framesPerCycle) / (2 * framesPerCycle)
    }

    /// Seconds into the file at which frame `k` starts (`tick(ofFrame:)` in seconds).
    package func seconds(ofFrame k: Int) -> Double {
      Double(tick(ofFrame: k)) / Double(ticksPerSecond)
    }

    /// How many ticks frame `k` is shown for.
    package func shownTicks(ofFrame k: Int) -> Int {
      tick(ofFrame: k + 1) - tick(ofFrame: k)
    }

    /// Frames a second on average: `framesPerCycle` every `ticksPerCycle` ticks.
    package var framesPerSecond: Double {
      Double(framesPerCycle) * Double(ticksPerSecond) / Double(ticksPerCycle)
    }

    /// The frame shown at `seconds` into the file (the last one started by then; 0 before).
    package func frame(at seconds: Double) -> Int {
      guard seconds > 0 else { return 0 }
      let estimate = seconds * Double(ticksPerSecond) * Double(framesPerCycle)
      var k = Int((estimate / Double(ticksPerCycle)).rounded(.down))
      // Rounded starts can sit a tick either side of the exact `k / rate`.
      while k > 0, self.seconds(ofFrame: k) > seconds { k -= 1 }
      while self.seconds(ofFrame: k + 1) <= seconds { k += 1 }
      return k
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int {
      var (x, y) = (a, b)
      while y != 0 { (x, y) = (y, x % y) }
      return x
    }
  }
}
