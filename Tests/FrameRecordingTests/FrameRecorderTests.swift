import CSwiftLoaderFFmpeg
import Foundation
import LoaderCore
import LoaderSDL
import SwiftLoaderFrameRecording
import SwiftLoaderSupport
import Testing

/// Each format written from real ring frames and decoded back by its own library.
@Suite struct FrameRecorderTests {
  static let seed = SeedFrames()
  static let gif50 = RecordingSchedule.Clock(format: .gif, framesPerSecond: 50)

  /// Records `frames` into a fresh temporary file and returns its path (the caller removes it).
  func record(
    _ frames: [[UInt32]], format: RecordingFormat, clock: RecordingSchedule.Clock,
    pixelFormat: VideoPixelFormat = .yuv420p, width: Int = 390
  ) throws -> String {
    let path = temporaryPath("clip.\(format.rawValue)")
    let recorder = try FrameRecorder(
      format: format, width: width, height: frames[0].count / width, clock: clock,
      pixelFormat: pixelFormat, temporaryPath: path)
    for f in frames { try recorder.append(argb: f) }
    try recorder.finish()
    #expect(recorder.frameCount == frames.count)
    return path
  }

  static func clock25(_ format: RecordingFormat) -> RecordingSchedule.Clock {
    .init(format: format, framesPerSecond: 25)
  }

  static func loopSchedule(_ format: RecordingFormat) throws -> RecordingSchedule {
    try RecordingSchedule(format: format, fps: 50, duration: nil, loop: true, style: .seed)
  }

  /// Three rings in one colour: every frame's colours (about 130) fit a palette, so the GIF
  /// decodes pixel for pixel; one period (0.75 s) long, repeating forever.
  @Test func gifWhoseColoursFitIsExact() throws {
    var frames = SeedFrames()
    frames.style.ringCount = 3
    frames.palette.ringColors = [frames.palette.ringColors[4]]
    let schedule = try RecordingSchedule(
      format: .gif, fps: 50, duration: nil, loop: true, style: frames.style)
    let source = try frames.render(at: schedule.times)
    #expect(Set(source[0]).count <= 256, "the test's premise: the first frame fits")
    let path = try record(source, format: .gif, clock: schedule.clock)
    defer { unlink(path) }
    let decoded = try Decoded.gif(path)
    #expect(decoded.frames.count == 37)
    #expect(decoded.loops)
    #expect(decoded.delays.reduce(0, +) == 75)
    for k in source.indices {
      let same = decoded.frames[k] == source[k]
      #expect(same, "frame \(k) at t = \(schedule.times[k])")
      if !same { break }
    }
  }

  /// The seed's loop: 62 frames of about 620 colours each. The first is quantized; the others
  /// change only the turning rings, exact when their colours fit. No frame is far off, and the
  /// file stays small.
  @Test func gifOfTheSeedLoopIsCloseAndSmall() throws {
    let schedule = try Self.loopSchedule(.gif)
    let frames = try Self.seed.render(at: schedule.times)
    #expect(Set(frames[0]).count > 256, "the test's premise: the seed does not fit")
    let path = try record(frames, format: .gif, clock: schedule.clock)
    defer { unlink(path) }
    let decoded = try Decoded.gif(path)
    #expect(decoded.frames.count == 62)
    #expect(decoded.loops)
    #expect(decoded.delays.reduce(0, +) == 125)
    #expect(decoded.delays.allSatisfy { $0 == 2 || $0 == 3 })
    var worst = Double.infinity
    for k in frames.indices {
      worst = min(worst, ImageComparison.psnr(decoded.frames[k], frames[k], width: 390))
    }
    print("seed GIF: worst frame \(worst) dB")
    #expect(worst >= 45, "\(worst) dB")
    let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    #expect(size > 0 && size < 1_000_000, "\(size) bytes")
  }

  /// More than 256 colours in a frame: median cut, deterministic, every pixel near its colour.
  @Test func gifQuantizesAFrameWithTooManyColours() throws {
    let w = 64
    let h = 64
    var frame = [UInt32](repeating: 0, count: w * h)
    for y in 0..<h {
      for x in 0..<w {
        frame[y * w + x] = 0xFF00_0000 | UInt32(x * 4) << 16 | UInt32(y * 4) << 8 | 0x80
      }
    }
    let a = try record([frame], format: .gif, clock: Self.gif50, width: w)
    let b = try record([frame], format: .gif, clock: Self.gif50, width: w)
    defer {
      unlink(a)
      unlink(b)
    }
    let da = try Decoded.gif(a).frames[0]
    #expect(try Decoded.gif(b).frames[0] == da, "the same frame, the same palette")
    #expect(Set(da).count <= 256)
    #expect(Set(da).count > 200, "median cut uses the whole palette")
    #expect(ImageComparison.psnr(da, frame, width: w) > 30)
  }

  @Test func webpOfTheSeedLoopIsLossless() throws {
    let schedule = try Self.loopSchedule(.webp)
    let frames = try Self.seed.render(at: schedule.times)
    let path = try record(frames, format: .webp, clock: schedule.clock)
    defer { unlink(path) }
    let decoded = try Decoded.webp(path)
    #expect(decoded.loopCount == 0, "repeats forever")
    #expect(decoded.frames.count == frames.count)
    #expect(decoded.timestamps.last == 1250)
    for k in frames.indices {
      let same = decoded.frames[k] == frames[k]
      #expect(same, "frame \(k)")
      if !same { break }
    }
  }

  /// H.264 and VP9 at each pixel format: the stream's pixel format is the one asked for,
  /// every frame's `pts` is its start on the schedule's clock, and every frame is at least
  /// 35 dB from what was drawn (yuv420p's bound at scale 1; yuv444p does better).
  @Test(arguments: [RecordingFormat.mp4, .webm], VideoPixelFormat.allCases)
  func videoOfTheSeedIsAbove35dB(format: RecordingFormat, pixelFormat: VideoPixelFormat) throws {
    let schedule = try RecordingSchedule(
      format: format, fps: 50, duration: nil, loop: true, style: .seed)
    let frames = try Self.seed.render(at: schedule.times)
    let path = try record(frames, format: format, clock: schedule.clock, pixelFormat: pixelFormat)
    defer { unlink(path) }
    let decoded = try Decoded.video(path)
    #expect(decoded.codec == (format == .mp4 ? "h264" : "vp9"))
    #expect(
      decoded.pixelFormat == (pixelFormat == .yuv420p ? AV_PIX_FMT_YUV420P : AV_PIX_FMT_YUV444P))
    #expect(decoded.frames.count == frames.count)
    for (k, shown) in decoded.shown.enumerated() {
      let seconds = Double(shown.ticks * Int64(shown.base.num)) / Double(shown.base.den)
      #expect(seconds == schedule.clock.seconds(ofFrame: k), "frame \(k)")
    }
    var worst = Double.infinity
    for k in 0..<min(frames.count, decoded.frames.count) {
      let db = ImageComparison.psnr(decoded.frames[k], frames[k], width: 390)
      #expect(db >= 35, "frame \(k): \(db) dB")
      worst = min(worst, db)
    }
    print("seed \(format.rawValue) \(pixelFormat.rawValue): worst frame \(worst) dB")
  }

  /// The loop's first frame is the frame one period later, pixel for pixel: no seam.
  @Test func loopFirstFrameEqualsTheFrameOnePeriodLater() throws {
    let schedule = try Self.loopSchedule(.gif)
    let p = LoaderStyle.seed.period
    let pair = try Self.seed.render(at: [schedule.times[0], schedule.times[0] + p])
    #expect(pair[0] == pair[1])
    let mid = try Self.seed.render(at: [schedule.times[20], schedule.times[20] + p])
    #expect(ImageComparison.psnr(mid[0], mid[1], width: 390) > 50)
  }

  @Test func oddSizesAreRefusedForMP4Only() throws {
    let odd = temporaryPath("odd.mp4")
    #expect(throws: RecordingError.self) {
      _ = try FrameRecorder(
        format: .mp4, width: 391, height: 120, clock: .init(format: .mp4, framesPerSecond: 50),
        temporaryPath: odd)
    }
    #expect(!FileManager.default.fileExists(atPath: odd))
    do {
      try FrameRecorder.validate(format: .mp4, width: 390, height: 121, clock: Self.gif50)
      Issue.record("odd height accepted")
    } catch {
      #expect(error == .invalid("mp4 (H.264 yuv420p) needs an even width and height, not 390x121"))
    }
    for format in [RecordingFormat.gif, .webp, .webm] {
      try FrameRecorder.validate(
        format: format, width: 391, height: 121, clock: .init(format: format, framesPerSecond: 50))
    }
    // yuv444p keeps every chroma sample: H.264 takes odd sizes then.
    let odd444 = try record(
      [[UInt32]](repeating: [UInt32](repeating: 0xFF33_66CC, count: 391 * 121), count: 2),
      format: .mp4, clock: .init(format: .mp4, framesPerSecond: 50), pixelFormat: .yuv444p,
      width: 391)
    defer { unlink(odd444) }
    #expect(try Decoded.video(odd444).frames.count == 2)
    for (w, h) in [(0, 10), (10, 0), (-2, 10), (16386, 10)] {
      #expect(throws: RecordingError.self) {
        try FrameRecorder.validate(format: .gif, width: w, height: h, clock: Self.gif50)
      }
    }
    // Faster than a GIF plays (1-cs delays), or on a grid the container does not hold.
    let refused: [(RecordingFormat, RecordingSchedule.Clock)] = [
      (.gif, .init(ticksPerSecond: 100, ticksPerCycle: 100, framesPerCycle: 60)),
      (.gif, .init(ticksPerSecond: 1000, ticksPerCycle: 1000, framesPerCycle: 50)),
      (.webp, .init(ticksPerSecond: 248, ticksPerCycle: 310, framesPerCycle: 62)),
      (.webm, .init(ticksPerSecond: 1000, ticksPerCycle: 1, framesPerCycle: 2)),
    ]
    for (format, clock) in refused {
      #expect(throws: RecordingError.self, "\(format) \(clock)") {
        try FrameRecorder.validate(format: format, width: 10, height: 10, clock: clock)
      }
    }
  }

  /// A failed or abandoned recording leaves no file behind.
  @Test(arguments: RecordingFormat.allCases)
  func failuresLeaveNothing(format: RecordingFormat) throws {
    let missing = "/nonexistent-\(getpid())/clip.\(format.rawValue)"
    do {
      _ = try FrameRecorder(
        format: format, width: 16, height: 16, clock: Self.clock25(format), temporaryPath: missing)
      Issue.record("opened \(missing)")
    } catch {
      guard case .encode = error else {
        Issue.record("\(error)")
        return
      }
    }

    let frame = [UInt32](repeating: 0xFFFF_FFFF, count: 16 * 16)
    let cancelled = temporaryPath("cancel.\(format.rawValue)")
    let r = try FrameRecorder(
      format: format, width: 16, height: 16, clock: Self.clock25(format), temporaryPath: cancelled)
    try r.append(argb: frame)
    r.cancel()
    #expect(!FileManager.default.fileExists(atPath: cancelled))
    #expect(throws: RecordingError.self) { try r.append(argb: frame) }

    let empty = temporaryPath("empty.\(format.rawValue)")
    let e = try FrameRecorder(
      format: format, width: 16, height: 16, clock: Self.clock25(format), temporaryPath: empty)
    #expect(throws: RecordingError.self) { try e.finish() }
    #expect(!FileManager.default.fileExists(atPath: empty))

    let wrong = temporaryPath("wrong.\(format.rawValue)")
    let w = try FrameRecorder(
      format: format, width: 16, height: 16, clock: Self.clock25(format), temporaryPath: wrong)
    #expect(throws: RecordingError.self) { try w.append(argb: [0, 0, 0]) }
    w.cancel()
    #expect(!FileManager.default.fileExists(atPath: wrong))
  }
}
