import LoaderCore
import SwiftLoaderFrameRecording
import Testing

/// Which instants a recording draws, and the rate each format plays them at.
@Suite struct RecordingScheduleTests {
  /// The seed's loop as a GIF: 62 frames (62.5 do not fit; never faster than asked), each
  /// drawn at the centisecond the file shows it from, delays of 2 and 3 cs adding up to the
  /// 125 cs period.
  @Test func seedLoopIsOnePeriodFromTheSteadyState() throws {
    let s = try RecordingSchedule(format: .gif, fps: 50, duration: nil, loop: true, style: .seed)
    #expect(LoaderStyle.seed.period == 1.25)
    #expect(RecordingSchedule.steadyStart(of: .seed) == 1.25)
    #expect(s.times.count == 62)
    #expect(s.start == 1.25)
    #expect(s.times.first == 1.25)
    #expect(abs(s.frameRate - 49.6) < 1e-12)
    #expect(s.length == 1.25)
    let delays = (0..<62).map { s.clock.shownTicks(ofFrame: $0) }
    #expect(delays.reduce(0, +) == 125)
    #expect(delays.filter { $0 == 3 }.count == 1 && delays.filter { $0 == 2 }.count == 61)
    var running = 0
    for (k, t) in s.times.enumerated() {
      #expect(t == 1.25 + Double(running) / 100, "frame \(k) is drawn when the file shows it")
      #expect(abs(t - (1.25 + 1.25 * Double(k) / 62)) <= 0.005, "at most half a centisecond")
      running += delays[k]
    }
  }

  /// Every ring's angle one period later is a whole turn on, from the steady start on, for the
  /// seed and for styles whose turns overlap the next trigger or outlast the period.
  @Test(arguments: [
    (5, 0.25, 0.6), (5, 0.25, 2.0), (3, 0.5, 0.2), (1, 1.0, 0.6), (8, 0.1, 1.7), (2, 0.3, 0.3),
  ])
  func steadyStartRepeatsEveryPeriod(rings: Int, stagger: Double, turn: Double) {
    var style = LoaderStyle.seed
    style.ringCount = rings
    style.stagger = stagger
    style.turnDuration = turn
    let p = style.period
    let start = RecordingSchedule.steadyStart(of: style)
    #expect(start >= p)
    #expect(abs((start / p).rounded() * p - start) < 1e-12, "a multiple of the period")
    let timeline = LoaderTimeline(style: style, animatingFrom: 0)
    var worst = (gap: 0.0, ring: 0, t: 0.0)
    for step in 0..<40 {
      let t = start + p * Double(step) / 40
      for i in 0..<rings {
        let gap = abs(timeline.angle(ofRing: i, at: t + p) - timeline.angle(ofRing: i, at: t) - 360)
        if gap > worst.gap { worst = (gap, i, t) }
      }
    }
    #expect(worst.gap < 1e-9, "ring \(worst.ring) at t = \(worst.t) is \(worst.gap) degrees off")
    // Just before the steady start the repeat can fail: the bound is tight for long turns.
    if turn > p {
      let early = start - p - 0.01
      let gaps = (0..<rings).map {
        timeline.angle(ofRing: $0, at: early + p) - timeline.angle(ofRing: $0, at: early)
      }
      #expect(gaps.contains { abs($0 - 360) > 1e-6 }, "\(gaps)")
    }
  }

  @Test func withoutLoopFramesStartAtZeroAtTheRateAsked() throws {
    let s = try RecordingSchedule(format: .webp, fps: 60, duration: 2, loop: false, style: .seed)
    #expect(s.times.count == 120)
    #expect(s.frameRate == 60)
    #expect(s.times[0] == 0)
    // Each on its millisecond: 119 / 60 s is 1983.3 ms.
    #expect(s.times[119] == 1.983)
    #expect(s.times[1] == 0.017 && s.times[2] == 0.033)
    let one = try RecordingSchedule(format: .mp4, fps: 50, duration: nil, loop: false, style: .seed)
    #expect(one.times.count == 62 || one.times.count == 63)
    #expect(one.times.count == Int((1.25 * 50).rounded()))
    let short = try RecordingSchedule(
      format: .mp4, fps: 10, duration: 0.001, loop: false, style: .seed)
    #expect(short.times == [0])
  }

  /// GIF delays are whole centiseconds and browsers slow 0 and 1 cs down to 10: GIFs cap at 50.
  @Test func gifCapsAt50FramesPerSecond() throws {
    for fps in [50, 60, 120, 240] {
      let s = try RecordingSchedule(format: .gif, fps: fps, duration: 1, loop: false, style: .seed)
      #expect(s.frameRate == 50)
      #expect(s.times.count == 50)
    }
    let webm = try RecordingSchedule(format: .webm, fps: 60, duration: 1, loop: false, style: .seed)
    #expect(webm.frameRate == 60)
  }

  /// Rounding each frame's running start rather than its length keeps the total exact: at 30
  /// fps a GIF's delays go 3, 4, 3 cs, 30 frames every 100 cs.
  @Test func clockRoundsTheRunningTime() {
    func delays(_ c: RecordingSchedule.Clock, _ n: Int) -> [Int] {
      (0..<n).map { c.shownTicks(ofFrame: $0) }
    }
    #expect(delays(.init(format: .gif, framesPerSecond: 30), 6) == [3, 4, 3, 3, 4, 3])
    #expect(delays(.init(format: .gif, framesPerSecond: 50), 4) == [2, 2, 2, 2])
    let seed = delays(.init(format: .gif, frames: 62, inSeconds: 1.25), 62)
    #expect(seed.reduce(0, +) == 125)
    #expect(seed.allSatisfy { $0 == 2 || $0 == 3 })
    #expect(delays(.init(format: .webp, frames: 62, inSeconds: 1.25), 62).reduce(0, +) == 1250)
    // MP4 takes any time base: the coarsest exact one, 1/fps, or 1/248 s for 62 in 1.25 s.
    let mp4 = RecordingSchedule.Clock(format: .mp4, frames: 62, inSeconds: 1.25)
    #expect(mp4.ticksPerSecond == 248)
    #expect(delays(mp4, 62) == [Int](repeating: 5, count: 62))
    #expect(RecordingSchedule.Clock(format: .mp4, framesPerSecond: 30).ticksPerSecond == 30)
    #expect(RecordingSchedule.Clock(format: .mp4, framesPerSecond: 240).ticksPerSecond == 240)
    // 7 frames in 0.1000001 s are whole ticks of no grid up to 90 kHz: MPEG's 90 kHz then.
    let odd = RecordingSchedule.Clock(format: .mp4, frames: 7, inSeconds: 0.1 + 1e-7)
    #expect(odd.ticksPerSecond == 90_000)
    #expect(odd.tick(ofFrame: 7) == 9000)
  }

  /// Every schedule, for every format, frame rate and style: each frame is drawn at a whole
  /// tick of its container's grid (centiseconds, milliseconds, the MP4 time base), shown for
  /// at least one tick (a GIF two), in order; the shown durations add up to the file's length
  /// and, for a loop, to the period rounded to a tick (exactly the period when it is whole).
  @Test(arguments: RecordingFormat.allCases)
  func everyFrameStartsOnTheContainersGrid(format: RecordingFormat) throws {
    var styles: [LoaderStyle] = [.seed]
    for (rings, stagger, turn) in [(3, 0.5, 0.2), (1, 1.0, 0.6), (8, 0.1, 1.7), (5, 0.2525, 0.6)] {
      var style = LoaderStyle.seed
      style.ringCount = rings
      style.stagger = stagger
      style.turnDuration = turn
      styles.append(style)
    }
    for style in styles {
      for fps in [1, 7, 24, 25, 30, 49, 50, 60, 120, 240] {
        for loop in [true, false] {
          let s = try RecordingSchedule(
            format: format, fps: fps, duration: loop ? nil : 1.3, loop: loop, style: style)
          let c = s.clock
          let label =
            "\(format) fps \(fps) loop \(loop) rings \(style.ringCount) stagger \(style.stagger)"
          if let grid = format.ticksPerSecond { #expect(c.ticksPerSecond == grid, "\(label)") }
          try FrameRecorder.validate(format: format, width: 10, height: 10, clock: c)
          var total = 0
          for k in s.times.indices {
            let tick = c.tick(ofFrame: k)
            #expect(tick == total, "\(label): frame \(k) starts where the ones before end")
            #expect(s.times[k] == s.start + Double(tick) / Double(c.ticksPerSecond), "\(label)")
            let shown = c.shownTicks(ofFrame: k)
            #expect(shown >= (format == .gif ? 2 : 1), "\(label): frame \(k) shown \(shown)")
            total += shown
          }
          #expect(s.length == Double(total) / Double(c.ticksPerSecond), "\(label)")
          if loop {
            let p = style.period * Double(c.ticksPerSecond)
            #expect(total == Int(p.rounded()), "\(label)")
            if abs(p - p.rounded()) < 1e-9 {
              #expect(s.length == style.period, "\(label): no seam")
            }
            // A period shorter than a frame at the rate asked still holds one frame.
            let rate = Double(min(fps, format.maximumFrameRate))
            #expect(s.times.count == 1 || s.frameRate <= rate + 1e-9, "\(label)")
          }
        }
      }
    }
  }

  /// `frame(at:)` is the frame on show: the last one started at or before that time.
  @Test func frameAtIsTheFrameOnShow() {
    let clocks: [RecordingSchedule.Clock] = [
      .init(format: .gif, framesPerSecond: 30), .init(format: .gif, frames: 62, inSeconds: 1.25),
      .init(format: .webm, framesPerSecond: 7), .init(format: .mp4, frames: 62, inSeconds: 1.25),
    ]
    for c in clocks {
      #expect(c.frame(at: -1) == 0)
      for k in 0..<200 {
        let start = c.seconds(ofFrame: k)
        #expect(c.frame(at: start) == k, "\(c) frame \(k)")
        let end = c.seconds(ofFrame: k + 1)
        #expect(c.frame(at: (start + end) / 2) == k, "\(c) frame \(k)")
      }
    }
  }

  @Test func refusesWhatNoFileHolds() {
    func invalid(_ body: () throws(RecordingError) -> RecordingSchedule) -> Bool {
      do {
        _ = try body()
        return false
      } catch {
        if case .invalid = error { return true }
        return false
      }
    }
    for fps in [0, -1, 241, Int.max, Int.min] {
      #expect(
        invalid { () throws(RecordingError) in
          try RecordingSchedule(format: .gif, fps: fps, duration: 1, loop: false, style: .seed)
        }, "fps \(fps)")
    }
    for d in [0, -1, Double.nan, .infinity, 3601, 1e300] {
      #expect(
        invalid { () throws(RecordingError) in
          try RecordingSchedule(format: .gif, fps: 50, duration: d, loop: false, style: .seed)
        }, "duration \(d)")
    }
    #expect(
      invalid { () throws(RecordingError) in
        try RecordingSchedule(format: .gif, fps: 50, duration: 1, loop: true, style: .seed)
      })
  }

  @Test func formatComesFromTheExtension() {
    #expect(RecordingFormat(path: "a.gif") == .gif)
    #expect(RecordingFormat(path: "dir/Loader.WEBP") == .webp)
    #expect(RecordingFormat(path: "/tmp/x.y/clip.mp4") == .mp4)
    #expect(RecordingFormat(path: "clip.webm") == .webm)
    for bad in ["gif", "a.avi", "a.gif.partial", "a.gif/", "x.gif/clip", "", ".", "a."] {
      #expect(RecordingFormat(path: bad) == nil, "\(bad)")
    }
    #expect(RecordingFormat.extensionsList == ".gif, .webp, .mp4, .webm")
  }
}
