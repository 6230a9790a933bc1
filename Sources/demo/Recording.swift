import CSwiftLoaderSDL2
import LoaderCore
import LoaderSDL
import SwiftLoaderCanvas
import SwiftLoaderFrameRecording
import SwiftLoaderSupport

/// `--record FILE`: what to record, checked before anything is drawn, each problem naming its
/// flag.
struct RecordingPlan {
  var path: String
  var format: RecordingFormat
  var schedule: RecordingSchedule
  /// Frame size in pixels.
  var width: Int
  var height: Int
  /// `--fps` as given.
  var requestedFPS: Int
  /// `--pixel-format`: MP4's and WebM's chroma.
  var pixelFormat: VideoPixelFormat

  /// `fps`, `duration`, `loop` and `pixelFormat` as `--fps`, `--duration`, `--loop` and
  /// `--pixel-format` gave them (`duration` nil when not given), already checked as flags by
  /// `DemoOptions`; `format` the one `--record`'s extension named; `width` x `height` the
  /// frames' pixel size. Checks what only the frames' size and the file decide: what the
  /// encoder takes and where the file goes.
  init(
    path: String, format: RecordingFormat, fps: Int, duration: Double?, loop: Bool,
    style: LoaderStyle, width: Int, height: Int, pixelFormat: VideoPixelFormat = .yuv420p
  ) throws(UsageError) {
    do {
      schedule = try RecordingSchedule(
        format: format, fps: fps, duration: duration, loop: loop, style: style)
    } catch {
      throw UsageError(
        flag: duration != nil ? "--duration" : "--record", problem: error.description)
    }
    do {
      try FrameRecorder.validate(
        format: format, width: width, height: height, clock: schedule.clock,
        pixelFormat: pixelFormat)
    } catch {
      throw UsageError(flag: "--record", problem: "\(error) (--size times --zoom)")
    }
    do {
      try OutputFile.check(path)
    } catch {
      throw UsageError(flag: "--record", problem: error.description)
    }
    self.path = path
    self.format = format
    requestedFPS = fps
    self.pixelFormat = pixelFormat
    self.width = width
    self.height = height
  }

  /// What the file holds, for the line the demo prints: frames, seconds and the rate they play
  /// at, and why that rate is not `--fps` when it is not (a GIF's delays are whole
  /// centiseconds, so `--fps 60` plays at 50; a loop fits a whole number of frames into the
  /// period, so 50 becomes 49.6 for the seed).
  var summary: String {
    let n = schedule.times.count
    var s =
      "\(n) frame\(n == 1 ? "" : "s"), " + String(format: "%g", schedule.length) + " s at "
      + String(format: "%.4g", schedule.frameRate) + " fps"
    if requestedFPS > format.maximumFrameRate {
      s +=
        " (\(format.rawValue) delays are whole centiseconds: --fps \(requestedFPS) becomes"
        + " \(format.maximumFrameRate))"
    }
    return s
  }

  /// Draws every frame of the schedule on `canvas` with `draw(t)` and encodes it, telling
  /// `progress` (if any) after each; the file is renamed into place only once complete.
  /// Returns the number of frames.
  func record(
    on canvas: OffscreenCanvas, progress: ProgressLine? = nil,
    draw: (Double) throws(DrawFailure) -> Void
  ) throws(DrawFailure) -> Int {
    guard canvas.width == width, canvas.height == height else {
      throw .unrepresentable("recording is \(width)x\(height), the canvas is not")
    }
    let file: OutputFile
    let recorder: FrameRecorder
    do {
      file = try OutputFile(path: path)
      guard let temporary = file.temporaryPathForEncoder else {
        throw DrawFailure.unrepresentable("\(path): an encoder needs a file")
      }
      recorder = try FrameRecorder(
        format: format, width: width, height: height, clock: schedule.clock,
        pixelFormat: pixelFormat, temporaryPath: temporary)
    } catch {
      throw .output(file: path, error)
    }
    defer { progress?.finish() }
    do throws(DrawFailure) {
      for (k, t) in schedule.times.enumerated() {
        try draw(t)
        canvas.flush()
        guard let pixels = canvas.surface.pointee.pixels else {
          throw .unrepresentable("the canvas has no pixels")
        }
        do {
          try recorder.append(argb: pixels, pitch: Int(canvas.surface.pointee.pitch))
        } catch {
          throw .output(file: path, error)
        }
        progress?.update(done: k + 1)
      }
      do {
        try recorder.finish()
      } catch {
        throw .output(file: path, error)
      }
      do {
        try file.commit()
      } catch {
        throw .output(file: nil, error)
      }
    } catch {
      recorder.cancel()
      file.discard()
      throw error
    }
    return schedule.times.count
  }
}
