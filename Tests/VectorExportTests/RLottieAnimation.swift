import CSwiftLoaderRLottie
import Foundation

/// A Lottie file loaded by rlottie (Debian's `librlottie0-1`), rendered frame by frame into
/// premultiplied `0xAARRGGBB` pixels.
final class RLottieAnimation {
  private let handle: OpaquePointer

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Parses `json`. rlottie caches models by key: each load gets a key of its own.
  init(json: Data) throws {
    let text = String(decoding: json, as: UTF8.self)
    let key = UUID().uuidString
    guard
      let h = text.withCString({ data in
        key.withCString { lottie_animation_from_data(data, $0, "") }
      })
    else { throw Failure(description: "rlottie could not parse the file") }
    handle = h
  }

  deinit { lottie_animation_destroy(handle) }

  var frameRate: Double { lottie_animation_get_framerate(handle) }
  var totalFrames: Int { lottie_animation_get_totalframe(handle) }
  var size: (width: Int, height: Int) {
    var w = 0
    var h = 0
    lottie_animation_get_size(handle, &w, &h)
    return (w, h)
  }

  /// Frame `frame` (from the file's `ip`) at `width` x `height` pixels.
  func render(frame: Int, width: Int, height: Int) -> [UInt32] {
    var pixels = [UInt32](repeating: 0, count: width * height)
    pixels.withUnsafeMutableBufferPointer { p in
      lottie_animation_render(handle, frame, p.baseAddress, width, height, width * 4)
    }
    return pixels
  }
}
