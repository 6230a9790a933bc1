import FrameRecording
import LoaderCore
import Testing

/// Which instants a recording draws, and the rate each format plays them at.
@Suite struct RecordingScheduleTests {
  @Test func seedLoopIsOnePeriodFromTheSteadyState() throws {
    let s = try RecordingSchedule(format: .gif, fps: 50, duration: nil, loop: true, style: .seed)
    #expect(RecordingSchedule.period(of: .seed) == 1.25)
    #expect(RecordingSchedule.steadyStart(of: .seed) == 1.25)
    // 62.5 frames do not fit: 62, never faster than asked, spaced so the file lasts 1.25 s.
    #expect(s.times.count == 62)
    #expect(s.times.first == 1.25)
    #expect(abs(s.frameRate - 49.6) < 1e-12)
    for (k, t) in s.times.enumerated() {
      #expect(abs(t - (1.25 + 1.25 * Double(k) / 62)) < 1e-12)
    }
    #expect(abs(s.times[61] + 1.25 / 62 - 2.5) < 1e-12, "the next frame would be the first again")
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
    let p = RecordingSchedule.period(of: style)
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
    #expect(s.times[119] == 119.0 / 60)
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

  @Test func timestampsRoundTheRunningTime() {
    func delays(_ rate: Double, _ n: Int, _ units: Double) -> [Int] {
      (0..<n).map {
        RecordingSchedule.timestamp(ofFrame: $0 + 1, frameRate: rate, unitsPerSecond: units)
          - RecordingSchedule.timestamp(ofFrame: $0, frameRate: rate, unitsPerSecond: units)
      }
    }
    #expect(delays(30, 6, 100) == [3, 4, 3, 3, 4, 3])
    #expect(delays(50, 4, 100) == [2, 2, 2, 2])
    let seed = delays(49.6, 62, 100)
    #expect(seed.reduce(0, +) == 125)
    #expect(seed.allSatisfy { $0 == 2 || $0 == 3 })
    #expect(delays(49.6, 62, 1000).reduce(0, +) == 1250)
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
