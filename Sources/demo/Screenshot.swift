import CSwiftLoaderSDL2
import Foundation
import LoaderSDL
import SwiftLoaderCanvas
import SwiftLoaderSupport

/// The pixels a renderer has drawn, read back into a surface of their own: what S and
/// PrintScreen save, and what a window recording encodes.
///
/// `SDL_RenderReadPixels` reads the current target (the window's back buffer after drawing,
/// before `SDL_RenderPresent`, which may leave the back buffer undefined), converted to
/// ARGB8888, the format `FrameRecorder` and `IMG_SavePNG` take.
final class Screenshot {
  let surface: UnsafeMutablePointer<SDL_Surface>
  var width: Int { Int(surface.pointee.w) }
  var height: Int { Int(surface.pointee.h) }

  /// Reads the whole output of `renderer`.
  init(of renderer: OpaquePointer) throws(SDLError) {
    var w: Int32 = 0
    var h: Int32 = 0
    guard SDL_GetRendererOutputSize(renderer, &w, &h) == 0 else {
      throw SDLError("SDL_GetRendererOutputSize")
    }
    guard w > 0, h > 0 else {
      throw SDLError("Screenshot", message: "the renderer's output is \(w)x\(h)")
    }
    guard
      let s = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888.rawValue)
    else { throw SDLError("SDL_CreateRGBSurfaceWithFormat") }
    guard
      SDL_RenderReadPixels(
        renderer, nil, SDL_PIXELFORMAT_ARGB8888.rawValue, s.pointee.pixels, s.pointee.pitch) == 0
    else {
      let e = SDLError("SDL_RenderReadPixels")
      SDL_FreeSurface(s)
      throw e
    }
    surface = s
  }

  deinit { SDL_FreeSurface(surface) }

  /// `screenshot-YYYYMMDD-HHMMSS-mmm.png`: sorts by time, never repeats within a run.
  static func fileName(at date: Date = Date()) -> String {
    let f = DateFormatter()
    f.locale = Locale(identifier: "en_US_POSIX")
    f.dateFormat = "yyyyMMdd-HHmmss-SSS"
    return "screenshot-\(f.string(from: date)).png"
  }

  /// Saves the frame on screen as `directory/fileName(...)` through the demo's atomic writer and
  /// returns the path.
  static func save(of renderer: OpaquePointer, in directory: String) throws(SDLError) -> String {
    let shot = try Screenshot(of: renderer)
    let path = (directory as NSString).appendingPathComponent(fileName())
    do {
      try OutputFile.write(try OffscreenCanvas.pngData(of: shot.surface), to: path)
    } catch {
      throw SDLError("Screenshot", message: "\(error)")
    }
    return path
  }
}
