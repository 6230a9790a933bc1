import CSwiftLoaderWebP
import Foundation

/// Animated WebP through libwebp's `WebPAnimEncoder`, every frame lossless (`exact`, so even
/// the colour under full transparency is kept), repeating forever. The encoder finds the
/// changed rectangle of each frame itself. It keeps every compressed frame until `finish()`,
/// which assembles the file and writes it in one go. Frame `k`'s timestamp is the millisecond
/// it starts at, `clock.tick(ofFrame: k)`, the one the recording drew it for. libwebp merges a
/// frame identical to the one before into it, one longer frame.
final class WebPEncoder: FrameEncoder {
  private var encoder: OpaquePointer?
  private var config = WebPConfig()
  private let width: Int
  private let height: Int
  private let clock: RecordingSchedule.Clock
  /// Milliseconds per tick of `clock` (`FrameRecorder.validate` checked that it is whole).
  private let millisecondsPerTick: Int
  private let path: String

  init(width: Int, height: Int, clock: RecordingSchedule.Clock, path: String)
    throws(RecordingError)
  {
    self.width = width
    self.height = height
    self.clock = clock
    millisecondsPerTick = 1000 / clock.ticksPerSecond
    self.path = path
    var options = WebPAnimEncoderOptions()
    guard WebPAnimEncoderOptionsInit(&options) != 0, WebPConfigInit(&config) != 0 else {
      throw .encode("webp: libwebp's headers and library disagree on its version")
    }
    options.anim_params.loop_count = 0
    options.anim_params.bgcolor = 0xFFFF_FFFF
    config.lossless = 1
    config.exact = 1
    // Lossless effort, 0 (fastest) to 100 (smallest file); the pixels are exact at any effort.
    config.quality = 50
    config.method = 2
    guard WebPValidateConfig(&config) != 0 else { throw .encode("webp: invalid configuration") }
    guard let e = WebPAnimEncoderNew(Int32(width), Int32(height), &options) else {
      throw .encode("webp: cannot create an animation encoder for \(width)x\(height)")
    }
    encoder = e
    // Created now, like every other format, so an unwritable path fails before any frame.
    guard let f = fopen(path, "wb") else {
      throw .encode("webp: cannot create '\(path)': \(String(cString: strerror(errno)))")
    }
    fclose(f)
  }

  private func timestamp(_ k: Int) -> Int32 {
    Int32(clamping: clock.tick(ofFrame: k) * millisecondsPerTick)
  }

  func append(_ frame: Frame) throws(RecordingError) {
    guard let encoder else { throw .encode("webp: the file is closed") }
    var picture = WebPPicture()
    guard WebPPictureInit(&picture) != 0 else { throw .encode("webp: WebPPictureInit failed") }
    defer { WebPPictureFree(&picture) }
    picture.use_argb = 1
    picture.width = Int32(width)
    picture.height = Int32(height)
    // ARGB8888 words are B, G, R, A bytes on a little-endian machine.
    let bytes = frame.pixels.assumingMemoryBound(to: UInt8.self)
    guard WebPPictureImportBGRX(&picture, bytes, Int32(frame.pitch)) != 0 else {
      throw .encode("webp: cannot import frame \(frame.index) (out of memory)")
    }
    guard WebPAnimEncoderAdd(encoder, &picture, timestamp(frame.index), &config) != 0 else {
      throw .encode("webp: frame \(frame.index): \(Self.error(encoder))")
    }
  }

  private static func error(_ encoder: OpaquePointer) -> String {
    WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? "unknown error"
  }

  func finish(frameCount: Int) throws(RecordingError) {
    guard let encoder else { throw .encode("webp: the file is closed") }
    defer { cancel() }
    guard WebPAnimEncoderAdd(encoder, nil, timestamp(frameCount), nil) != 0 else {
      throw .encode("webp: ending the animation: \(Self.error(encoder))")
    }
    var data = WebPData()
    guard WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else {
      throw .encode("webp: assembling the file: \(Self.error(encoder))")
    }
    defer { WebPFree(UnsafeMutableRawPointer(mutating: bytes)) }
    guard let f = fopen(path, "wb") else {
      throw .encode("webp: cannot open '\(path)': \(String(cString: strerror(errno)))")
    }
    let written = fwrite(bytes, 1, data.size, f)
    let flushed = fflush(f) == 0
    let closed = fclose(f) == 0
    guard written == data.size, flushed, closed else {
      throw .encode("webp: writing '\(path)' failed: \(String(cString: strerror(errno)))")
    }
  }

  func cancel() {
    if let encoder { WebPAnimEncoderDelete(encoder) }
    encoder = nil
  }
}
