import CSwiftLoaderSDL2
import LoaderSDL
import SwiftLoaderFrameRecording
import SwiftLoaderSupport

/// R in the window: records what is on screen, in real time, until R again.
///
/// Every presented frame is offered with the wall-clock time it shows; a frame is read back
/// (`Screenshot`) and encoded whenever the file's next frame start has come (the format's
/// `RecordingSchedule.Clock` at `fps`), and repeated when the window fell behind by more
/// than one, so the file's clock matches the wall clock. The window's size is fixed for the
/// recording: a resize ends it. Reading back and encoding happen on the window's thread, so
/// a large window records at a lower frame rate than it draws without recording.
final class LiveRecording {
  let path: String
  private let file: OutputFile
  private let recorder: FrameRecorder
  private let start: Double
  private let clock: RecordingSchedule.Clock
  /// The file's next frame, in frames since `start`.
  private var next = 0

  /// `format`: the one `path` names; `fps` is lowered to the format's limit
  /// (`RecordingFormat.frameRate(asking:)`).
  init(
    path: String, format: RecordingFormat, fps: Int, renderer: OpaquePointer, at time: Double
  ) throws(UsageError) {
    var w: Int32 = 0
    var h: Int32 = 0
    SDL_GetRendererOutputSize(renderer, &w, &h)
    do {
      file = try OutputFile(path: path)
    } catch {
      throw UsageError(flag: "--record", problem: error.description)
    }
    guard let temporary = file.temporaryPathForEncoder else {
      throw UsageError(flag: "--record", problem: "an encoder needs a file: '-' is not one")
    }
    clock = RecordingSchedule.Clock(
      format: format, framesPerSecond: format.frameRate(asking: fps))
    do {
      recorder = try FrameRecorder(
        format: format, width: Int(w), height: Int(h), clock: clock, temporaryPath: temporary)
    } catch {
      throw UsageError(flag: "--record", problem: error.description)
    }
    self.path = path
    start = time
  }

  /// Called after drawing a frame, before presenting it.
  func offer(_ renderer: OpaquePointer, at time: Double) throws(DrawFailure) {
    let due = clock.frame(at: time - start)
    guard due >= next else { return }
    let shot: Screenshot
    do {
      shot = try Screenshot(of: renderer)
    } catch {
      throw .sdl(error)
    }
    guard shot.width == recorder.width, shot.height == recorder.height else {
      throw .unrepresentable("\(path): the window changed size while recording")
    }
    guard let pixels = shot.surface.pointee.pixels else {
      throw .unrepresentable("\(path): the screenshot has no pixels")
    }
    while next <= due {
      do {
        try recorder.append(argb: pixels, pitch: Int(shot.surface.pointee.pitch))
      } catch {
        throw .output(file: path, error)
      }
      next += 1
    }
  }

  /// Finishes the file and renames it into place; returns its path.
  func stop() throws(DrawFailure) -> String {
    do {
      try recorder.finish()
      try file.commit()
    } catch {
      file.discard()
      throw .output(file: path, error)
    }
    return path
  }

  /// Abandons the recording; nothing is left.
  func cancel() {
    recorder.cancel()
    file.discard()
  }
}
