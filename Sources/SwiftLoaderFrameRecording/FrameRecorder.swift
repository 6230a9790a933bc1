import Foundation

/// Encodes frames, one at a time, into an animated file at a temporary path.
///
/// ```swift
/// let schedule = try RecordingSchedule(
///   format: .gif, fps: 50, duration: nil, loop: true, style: .seed)
/// let recorder = try FrameRecorder(
///   format: .gif, width: 390, height: 120, clock: schedule.clock, temporaryPath: temporary)
/// for t in schedule.times {
///   draw(at: t)  // onto an OffscreenCanvas of 390 x 120, then canvas.flush()
///   try recorder.append(argb: canvas.argbPixels())
/// }
/// try recorder.finish()  // then the caller renames the temporary into place
/// ```
/// Frames are 32-bit `0xAARRGGBB` words, row-major (SDL's `ARGB8888`, an `OffscreenCanvas`'s
/// surface: bytes B, G, R, A in memory on a little-endian machine); alpha is ignored, every
/// frame is opaque. Frame `k` is shown from `clock.seconds(ofFrame: k)` into the file for
/// `clock.shownTicks(ofFrame: k)` ticks: a GIF delay, a WebP timestamp, a video frame's `pts`.
///
/// Costs: memory stays bounded by a frame or two, except WebP, whose encoder keeps the
/// compressed frames until `finish()`. Encoding runs on the caller's thread, one frame per
/// `append`; per pixel, GIF is the cheapest, then WebP and H.264, and VP9 costs several times
/// H.264; yuv444p codes twice the samples of yuv420p. After `finish()` or `cancel()` the
/// recorder takes nothing more; a failed `append` or `finish` removes the temporary, so a
/// failed recording leaves nothing.
package final class FrameRecorder {
  package let format: RecordingFormat
  package let width: Int
  package let height: Int
  /// When each frame starts in the file (`RecordingSchedule.Clock`).
  package let clock: RecordingSchedule.Clock
  /// MP4's and WebM's chroma layout; GIF and WebP store RGB and ignore it.
  package let pixelFormat: VideoPixelFormat
  package let temporaryPath: String
  package private(set) var frameCount = 0
  private var encoder: (any FrameEncoder)?

  /// The largest side any format takes (GIF's 16-bit sizes; H.264 level limits are far below).
  package static let maximumSide = 16384

  /// Throws `.invalid` for what no file of `format` can hold, before anything is drawn: a
  /// caller checks its options with this first. `clock` must tick on the container's grid
  /// (`RecordingFormat.ticksPerSecond`, or a grid it holds exactly), give every frame at least
  /// one tick, and play no faster than `RecordingFormat.maximumFrameRate`.
  package static func validate(
    format: RecordingFormat, width: Int, height: Int, clock: RecordingSchedule.Clock,
    pixelFormat: VideoPixelFormat = .yuv420p
  ) throws(RecordingError) {
    guard width > 0, height > 0, width <= maximumSide, height <= maximumSide else {
      throw .invalid("frame size \(width)x\(height) is outside 1...\(maximumSide) per side")
    }
    if format.needsEvenSize(at: pixelFormat), width % 2 != 0 || height % 2 != 0 {
      throw .invalid(
        "\(format.rawValue) (H.264 \(pixelFormat.rawValue)) needs an even width and height, not"
          + " \(width)x\(height)")
    }
    if let grid = format.ticksPerSecond, grid % clock.ticksPerSecond != 0 {
      throw .invalid(
        "\(format.rawValue) stores times in 1/\(grid) s: a clock of 1/\(clock.ticksPerSecond) s"
          + " does not fit it")
    }
    if format == .mp4, clock.ticksPerSecond > Int(Int32.max) {
      throw .invalid("mp4: a time base of 1/\(clock.ticksPerSecond) s is finer than a stream holds")
    }
    let rate = clock.framesPerSecond
    guard clock.ticksPerCycle >= clock.framesPerCycle,
      rate <= Double(format.maximumFrameRate) * (1 + 1e-12)
    else {
      throw .invalid(
        "frame rate \(rate) is outside (0, \(format.maximumFrameRate)] (\(clock.framesPerCycle)"
          + " frames in \(clock.ticksPerCycle) ticks of 1/\(clock.ticksPerSecond) s)")
    }
  }

  /// Opens the encoder; the file at `temporaryPath` is created (or replaced) now.
  package init(
    format: RecordingFormat, width: Int, height: Int, clock: RecordingSchedule.Clock,
    pixelFormat: VideoPixelFormat = .yuv420p, temporaryPath: String
  ) throws(RecordingError) {
    try Self.validate(
      format: format, width: width, height: height, clock: clock, pixelFormat: pixelFormat)
    self.format = format
    self.width = width
    self.height = height
    self.clock = clock
    self.pixelFormat = pixelFormat
    self.temporaryPath = temporaryPath
    do throws(RecordingError) {
      encoder =
        switch format {
        case .gif: try GIFEncoder(width: width, height: height, clock: clock, path: temporaryPath)
        case .webp:
          try WebPEncoder(width: width, height: height, clock: clock, path: temporaryPath)
        case .mp4, .webm:
          try VideoEncoder(
            format: format, width: width, height: height, clock: clock, pixelFormat: pixelFormat,
            path: temporaryPath)
        }
    } catch {
      unlink(temporaryPath)
      throw error
    }
  }

  deinit {
    if encoder != nil { cancel() }
  }

  /// Adds one frame: `height` rows of `width` `0xAARRGGBB` words, rows `pitch` bytes apart.
  package func append(argb pixels: UnsafeRawPointer, pitch: Int) throws(RecordingError) {
    guard let encoder else { throw .encode("\(format.rawValue): the recording is closed") }
    guard pitch >= width * 4 else {
      throw .invalid("row pitch \(pitch) is less than \(width) pixels of 4 bytes")
    }
    do {
      try encoder.append(Frame(pixels: pixels, pitch: pitch, index: frameCount))
      frameCount += 1
    } catch {
      cancel()
      throw error
    }
  }

  /// `append(argb:pitch:)` for a packed row-major array of `width * height` pixels.
  package func append(argb pixels: [UInt32]) throws(RecordingError) {
    guard pixels.count == width * height else {
      throw .invalid("frame has \(pixels.count) pixels, not \(width)x\(height)")
    }
    let result: Result<Void, RecordingError> = pixels.withUnsafeBytes { p in
      guard let base = p.baseAddress else { return .failure(.invalid("empty frame")) }
      do throws(RecordingError) {
        try append(argb: base, pitch: width * 4)
        return .success(())
      } catch {
        return .failure(error)
      }
    }
    try result.get()
  }

  /// Writes what the encoder holds and closes the file at `temporaryPath`; the caller renames it
  /// into place. Throws if no frame was appended.
  package func finish() throws(RecordingError) {
    guard let encoder else { throw .encode("\(format.rawValue): the recording is closed") }
    guard frameCount > 0 else {
      cancel()
      throw .invalid("\(format.rawValue): a recording needs at least one frame")
    }
    self.encoder = nil
    do {
      try encoder.finish(frameCount: frameCount)
    } catch {
      encoder.cancel()
      unlink(temporaryPath)
      throw error
    }
  }

  /// Abandons the recording and removes the temporary file.
  package func cancel() {
    encoder?.cancel()
    encoder = nil
    unlink(temporaryPath)
  }
}

/// One frame handed to an encoder: `FrameRecorder` has checked its size.
struct Frame {
  var pixels: UnsafeRawPointer
  var pitch: Int
  var index: Int

  func row(_ y: Int) -> UnsafePointer<UInt32> {
    pixels.advanced(by: y * pitch).assumingMemoryBound(to: UInt32.self)
  }
}

/// One format's encoder, driven by `FrameRecorder`.
protocol FrameEncoder: AnyObject {
  func append(_ frame: Frame) throws(RecordingError)
  /// Flushes and closes the file.
  func finish(frameCount: Int) throws(RecordingError)
  /// Releases everything without finishing; `FrameRecorder` removes the file.
  func cancel()
}
