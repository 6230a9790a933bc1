import CSwiftLoaderSDL2
import Foundation
import LoaderCore
import LoaderSDL
import SwiftLoaderCanvas
import SwiftLoaderFrameRecording
import Testing

@testable import SwiftLoaderDemo

/// The demo's side of recording: what `--record` refuses, naming the flag, and the files its
/// headless and window paths write.
@Suite struct DemoRecordingTests {
  func plan(
    _ path: String, fps: Int = 50, duration: Double? = nil, loop: Bool = false,
    width: Int = 390, height: Int = 120, pixelFormat: VideoPixelFormat = .yuv420p
  ) throws(UsageError) -> RecordingPlan {
    guard let format = RecordingFormat(path: path) else {
      throw UsageError(flag: "--record", problem: "test: no format")
    }
    return try RecordingPlan(
      path: path, format: format, fps: fps, duration: duration, loop: loop, style: .seed,
      width: width, height: height, pixelFormat: pixelFormat)
  }

  func refusal(_ body: () throws(UsageError) -> RecordingPlan) -> String? {
    do {
      _ = try body()
      return nil
    } catch {
      return error.description
    }
  }

  /// What only the frames' size and the file decide (the flags themselves, `--record`'s
  /// extension, `--fps`, `--loop` with `--duration`, are `DemoOptions`' and `DemoFlagTests`').
  @Test func refusalsNameTheirFlag() {
    #expect(
      refusal { () throws(UsageError) in try plan("l.webp", duration: .nan) }
        == "demo: --duration: duration nan must be finite and > 0")
    #expect(
      refusal { () throws(UsageError) in try plan("l.mp4", duration: 2, width: 585, height: 180) }
        == "demo: --record: mp4 (H.264 yuv420p) needs an even width and height, not 585x180"
        + " (--size times --zoom)")
    // yuv444p keeps every chroma sample: H.264 takes the odd size then.
    #expect(
      refusal { () throws(UsageError) in
        try plan("l.mp4", duration: 2, width: 585, height: 180, pixelFormat: .yuv444p)
      } == nil)
    for ok in ["l.gif", "l.webp", "l.mp4", "l.webm", "L.GIF"] {
      #expect(refusal { () throws(UsageError) in try plan(ok, loop: true) } == nil, "\(ok)")
    }
    // Checked like every output before anything is drawn.
    #expect(
      refusal { () throws(UsageError) in try plan("no-such-dir/l.gif", loop: true) }
        == "demo: --record: directory 'no-such-dir' does not exist")
  }

  /// `--record l.gif --loop` through `RecordingPlan.record`: the file holds the frames drawn at
  /// the schedule's times, and nothing else is left beside it.
  @Test func headlessRecordingWritesTheDrawnFrames() throws {
    let dir = temporaryPath("dir")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    var frames = SeedFrames()
    frames.style.ringCount = 3
    frames.palette.ringColors = [frames.palette.ringColors[2]]
    let p = try RecordingPlan(
      path: dir + "/l.gif", format: .gif, fps: 50, duration: nil, loop: true, style: frames.style,
      width: 390, height: 120)
    let expected = try frames.render(at: p.schedule.times)
    let canvas = try OffscreenCanvas(width: 390, height: 120)
    var drawn: [Double] = []
    let n = try p.record(on: canvas) { (t) throws(DrawFailure) in
      drawn.append(t)
      let k = drawn.count - 1
      expected[k].withUnsafeBytes { src in
        guard let dst = canvas.surface.pointee.pixels, let s = src.baseAddress else { return }
        for y in 0..<120 {
          dst.advanced(by: y * Int(canvas.surface.pointee.pitch)).copyMemory(
            from: s.advanced(by: y * 390 * 4), byteCount: 390 * 4)
        }
      }
    }
    #expect(n == 37)
    #expect(drawn == p.schedule.times)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["l.gif"])
    #expect(try Decoded.gif(dir + "/l.gif").frames == expected)
  }

  /// A drawing failure mid-recording leaves no file and no temporary.
  @Test func failedRecordingLeavesNothing() throws {
    let dir = temporaryPath("fail")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    for ext in ["gif", "webp", "mp4"] {
      let p = try plan(dir + "/l.\(ext)", loop: true)
      let canvas = try OffscreenCanvas(width: 390, height: 120)
      var calls = 0
      #expect(throws: DrawFailure.self) {
        _ = try p.record(on: canvas) { (_) throws(DrawFailure) in
          calls += 1
          if calls == 5 { throw DrawFailure.unrepresentable("boom") }
        }
      }
      #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty, "\(ext)")
    }
  }

  /// R in the window: frames are taken at the file's rate from the frames offered, repeated
  /// when the window fell behind, skipped when it runs faster.
  @Test func liveRecordingFollowsTheWallClock() throws {
    let dir = temporaryPath("live")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let canvas = try OffscreenCanvas(width: 64, height: 32)
    let live = try LiveRecording(
      path: dir + "/r.webp", format: .webp, fps: 25, renderer: canvas.renderer, at: 10)
    // 100 Hz for 0.2 s (5 file frames), then a 0.2 s stall (5 more, repeated), then one frame.
    var shade: UInt8 = 0
    for k in 0..<20 {
      shade = UInt8(k * 10)
      canvas.clear(RGBAColor(r: shade, g: shade, b: shade))
      canvas.flush()
      try live.offer(canvas.renderer, at: 10.001 + Double(k) * 0.01)
    }
    canvas.clear(RGBAColor(r: 255, g: 0, b: 0))
    canvas.flush()
    try live.offer(canvas.renderer, at: 10.401)
    let path = try live.stop()
    #expect(path == dir + "/r.webp")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["r.webp"])
    let decoded = try Decoded.webp(path)
    // libwebp merges repeated frames into one longer one: 5 frames, then red for 6 frames.
    #expect(decoded.timestamps == [40, 80, 120, 160, 200, 440])
    #expect(
      decoded.frames.map { $0[0] } == [
        0xFF00_0000, 0xFF28_2828, 0xFF50_5050, 0xFF78_7878, 0xFFA0_A0A0, 0xFFFF_0000,
      ])
  }
}
