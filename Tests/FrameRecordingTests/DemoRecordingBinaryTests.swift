import Foundation
import LoaderCore
import SwiftLoaderFrameRecording
import SwiftLoaderSupport
import Testing

/// `demo --record` as a user runs it: each file decoded back by its own library and compared
/// with the demo's headless PNGs at the same simulated times.
@Suite struct DemoRecordingBinaryTests {
  static let loop = try? RecordingSchedule(
    format: .gif, fps: 50, duration: nil, loop: true, style: .seed)

  func scratch(_ name: String) throws -> String {
    let dir = temporaryPath(name)
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
  }

  /// Records `file` with `arguments` and returns what it printed.
  func record(_ file: String, _ arguments: [String], in dir: String) throws -> String {
    let r = try DemoBinary.run(["--record", file] + arguments, in: dir)
    try #require(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.isEmpty, "\(r.stderr)")
    return r.stdout
  }

  /// A loop as a GIF whose colours fit one exact palette (three rings of one colour: the
  /// background and that colour's coverage levels): one frame per schedule time, each the
  /// headless PNG at that time exactly, and frame 0 the same picture as one period later, so
  /// the file plays on without a seam.
  @Test func gifLoopWithAnExactPaletteIsTheHeadlessFramesExactly() throws {
    let dir = try scratch("gif")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    var style = LoaderStyle.seed
    style.ringCount = 3
    let schedule = try RecordingSchedule(
      format: .gif, fps: 50, duration: nil, loop: true, style: style)
    let look = ["--rings", "3", "--colors", "FFCC00"]
    let said = try record("l.gif", ["--loop"] + look, in: dir)
    #expect(said == "demo: wrote 37 frames, 0.75 s at 49.33 fps to l.gif\n")
    let decoded = try Decoded.gif(dir + "/l.gif")
    #expect(decoded.loops)
    let period = style.period
    let pngs = try DemoBinary.frames(
      at: schedule.times + [schedule.times[0] + period], extra: look, in: dir)
    #expect(decoded.frames.count == schedule.times.count)
    for k in decoded.frames.indices where decoded.frames[k] != pngs[k] {
      Issue.record("frame \(k) (t = \(schedule.times[k])) differs from the headless PNG")
    }
    #expect(pngs[0] == pngs[schedule.times.count], "the loop's first frame, one period later")
    #expect(pngs[0] != pngs[1])
  }

  /// The seed's five colours antialiased take about 600 colours a frame, more than a GIF
  /// palette holds: median cut keeps every frame within 50 dB of the headless PNG, and the
  /// loop's first frame is the picture one period later.
  @Test func seedGifLoopIsCloseToTheHeadlessFrames() throws {
    let dir = try scratch("gifseed")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let schedule = try #require(Self.loop)
    let said = try record("l.gif", ["--loop"], in: dir)
    #expect(said == "demo: wrote 62 frames, 1.25 s at 49.6 fps to l.gif\n")
    let decoded = try Decoded.gif(dir + "/l.gif")
    let period = LoaderStyle.seed.period
    let pngs = try DemoBinary.frames(
      at: schedule.times + [schedule.times[0] + period], in: dir)
    try #require(decoded.frames.count == schedule.times.count)
    var worst = Double.infinity
    for k in decoded.frames.indices {
      worst = min(worst, ImageComparison.psnr(decoded.frames[k], pngs[k], width: 390))
    }
    print("seed gif through the demo: worst frame \(String(format: "%.2f", worst)) dB")
    #expect(worst >= 50)
    #expect(pngs[0] == pngs[schedule.times.count])
  }

  /// Lossless WebP: every frame identical to the headless PNG at its time (libwebp merges no
  /// frames here: something turns in every one).
  @Test func webpIsTheHeadlessFramesExactly() throws {
    let dir = try scratch("webp")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let schedule = try RecordingSchedule(
      format: .webp, fps: 25, duration: 0.8, loop: false, style: .seed)
    _ = try record("l.webp", ["--fps", "25", "--duration", "0.8"], in: dir)
    let decoded = try Decoded.webp(dir + "/l.webp")
    let pngs = try DemoBinary.frames(at: schedule.times, in: dir)
    #expect(decoded.frames.count == schedule.times.count)
    #expect(decoded.timestamps.last == 800)
    for k in decoded.frames.indices where decoded.frames[k] != pngs[k] {
      Issue.record("frame \(k) (t = \(schedule.times[k])) differs from the headless PNG")
    }
  }

  /// H.264 yuv420p: each frame at least 35 dB against the headless PNG at its time.
  @Test func mp4IsTheHeadlessFramesAt35dB() throws {
    let dir = try scratch("mp4")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let schedule = try RecordingSchedule(
      format: .mp4, fps: 30, duration: 0.5, loop: false, style: .seed)
    _ = try record("l.mp4", ["--fps", "30", "--duration", "0.5"], in: dir)
    let decoded = try Decoded.video(dir + "/l.mp4")
    #expect(decoded.codec == "h264")
    let pngs = try DemoBinary.frames(at: schedule.times, in: dir)
    try #require(decoded.frames.count == schedule.times.count)
    var worst = Double.infinity
    for k in decoded.frames.indices {
      worst = min(worst, ImageComparison.psnr(decoded.frames[k], pngs[k], width: 390))
    }
    print("mp4 through the demo: worst frame \(String(format: "%.2f", worst)) dB")
    #expect(worst >= 35)
  }

  /// `--fps 60` into a GIF says what it becomes.
  @Test func gifSaysWhatItsFrameRateBecomes() throws {
    let dir = try scratch("gif60")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let said = try record("l.gif", ["--fps", "60", "--duration", "0.1"], in: dir)
    #expect(
      said
        == "demo: wrote 5 frames, 0.1 s at 50 fps (gif delays are whole centiseconds: --fps 60"
        + " becomes 50) to l.gif\n")
  }

  /// `--scene sprites --record` records the sprites: one GIF frame per 1/10 s, each the
  /// headless frame at its time within the GIF's palette (>= 30 dB), and the sprites move
  /// between frames.
  @Test func recordsTheSprites() throws {
    let dir = try scratch("sprites")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let scene = ["--scene", "sprites", "--count", "30", "--size", "320x200"]
    _ = try record("s.gif", scene + ["--duration", "0.3", "--fps", "10"], in: dir)
    let gif = try Decoded.gif(dir + "/s.gif")
    try #require(gif.frames.count == 3, "\(gif.frames.count) frames")
    #expect(gif.delays == [10, 10, 10])
    let headless = try DemoBinary.frames(at: [0, 0.1, 0.2], extra: scene, in: dir)
    for k in 0..<3 {
      let db = ImageComparison.psnr(gif.frames[k], headless[k], width: 320)
      #expect(db >= 30, "frame \(k): \(db) dB against the headless frame")
    }
    #expect(gif.frames[0] != gif.frames[1] && gif.frames[1] != gif.frames[2], "nothing moved")
  }
}
