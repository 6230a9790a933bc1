import CSDL2
import Foundation
import LoaderCore

/// An SDL software renderer drawing into a 32-bit ARGB surface in memory: headless frames,
/// tests and the bench. Needs no video driver.
public final class OffscreenCanvas {
  /// Size in pixels.
  public let width: Int
  public let height: Int
  /// The ARGB8888 surface the renderer draws into (pass it to `RingRasterizer.attach(surface:)`).
  public let surface: UnsafeMutablePointer<SDL_Surface>
  /// The `SDL_Renderer *` rasterizers draw on.
  public let renderer: OpaquePointer
  /// `surface`'s pixels and row pitch in bytes (fixed for a surface SDL allocated itself).
  private let pixels: UnsafeMutableRawPointer
  private let pitch: Int

  public init(width: Int, height: Int) throws(SDLError) {
    guard width > 0, height > 0, width <= 16384, height <= 16384 else {
      throw SDLError("OffscreenCanvas", message: "size \(width)x\(height) is outside 1...16384")
    }
    guard
      let s = SDL_CreateRGBSurfaceWithFormat(
        0, Int32(width), Int32(height), 32, SDL_PIXELFORMAT_ARGB8888.rawValue)
    else { throw SDLError("SDL_CreateRGBSurfaceWithFormat") }
    guard let p = s.pointee.pixels else {
      SDL_FreeSurface(s)
      throw SDLError("SDL_CreateRGBSurfaceWithFormat", message: "surface has no pixels")
    }
    guard let r = SDL_CreateSoftwareRenderer(s) else {
      SDL_FreeSurface(s)
      throw SDLError("SDL_CreateSoftwareRenderer")
    }
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND)
    self.width = width
    self.height = height
    surface = s
    renderer = r
    pixels = p
    pitch = Int(s.pointee.pitch)
  }

  deinit {
    SDL_DestroyRenderer(renderer)
    SDL_FreeSurface(surface)
  }

  /// Fills the whole canvas with `color`, opaque.
  public func clear(_ color: RGBAColor) {
    SDL_SetRenderDrawColor(renderer, color.r, color.g, color.b, 255)
    SDL_RenderClear(renderer)
  }

  /// Finishes pending drawing into the surface (the software renderer batches commands).
  public func flush() {
    SDL_RenderFlush(renderer)
  }

  /// Pixel `(x, y)`, opaque.
  public func pixel(x: Int, y: Int) -> RGBAColor {
    flush()
    precondition(x >= 0 && x < width && y >= 0 && y < height)
    let row = pixels.advanced(by: y * pitch)
    let v = row.assumingMemoryBound(to: UInt32.self)[x]
    return RGBAColor(hex: v & 0xFF_FFFF)
  }

  /// Every pixel, row-major, as `0xAARRGGBB`.
  public func argbPixels() -> [UInt32] {
    flush()
    var out = [UInt32](repeating: 0, count: width * height)
    for y in 0..<height {
      let row = pixels.advanced(by: y * pitch).assumingMemoryBound(to: UInt32.self)
      for x in 0..<width { out[y * width + x] = row[x] }
    }
    return out
  }

  /// Writes a PNG atomically: to a temporary file beside `path`, then renamed over it, so a
  /// failure never leaves a half-written file.
  public func savePNG(to path: String) throws(SDLError) {
    flush()
    let file = AtomicFile(path: path)
    guard IMG_SavePNG(surface, file.temporaryPath) == 0 else {
      let e = SDLError("IMG_SavePNG(\(path))")
      file.discard()
      throw e
    }
    do {
      try file.commit()
    } catch {
      throw SDLError("savePNG", message: error.description)
    }
  }
}
