import CSwiftLoaderSDL2
import Foundation
import LoaderCore
import LoaderSDL

/// An SDL renderer drawing into a 32-bit ARGB surface in memory: the demo's headless frames and
/// recordings, the tests and the bench.
///
/// `init(width:height:)` is SDL's software renderer on the surface itself and needs no video
/// driver. `openGL(width:height:)` is an OpenGL renderer (the one `gpu` runs on) drawing into
/// a target texture that `flush()` reads back into the surface; there the surface is only the
/// read-back copy, so `loaderRenderer` is made without it and CPU backends never write it.
package final class OffscreenCanvas {
  /// Size in pixels.
  package let width: Int
  package let height: Int
  /// The ARGB8888 surface the renderer draws into (an OpenGL canvas's read-back copy).
  package let surface: UnsafeMutablePointer<SDL_Surface>
  /// The `SDL_Renderer *` rasterizers draw on.
  package let renderer: OpaquePointer
  /// The loaders' side of `renderer` (its shared caches; on the software canvas, the surface
  /// the `spans` backend blends into).
  package let loaderRenderer: LoaderRenderer
  /// The SDL render driver's name: `software`, or `opengl` (or `opengles2`).
  package let rendererName: String
  /// `GL_RENDERER` of an OpenGL canvas (`llvmpipe ...` for Mesa's CPU rasterizer), else nil.
  package let glRendererName: String?
  /// `surface`'s pixels and row pitch in bytes (fixed for a surface SDL allocated itself).
  private let pixels: UnsafeMutableRawPointer
  private let pitch: Int
  /// The hidden window and target texture of an OpenGL canvas; nil for a software one.
  private let openGLTarget: (window: OpaquePointer, texture: OpaquePointer)?

  /// Serialises `bringUpVideo()` and the opening and closing of OpenGL canvases' windows:
  /// canvases may be made and freed on several threads at once, and SDL loads EGL with the
  /// first OpenGL window and unloads it with the last, unguarded ("EGL context already
  /// created", "EGL display: (nil)", or a crash inside SDL when two threads meet there).
  ///
  /// An `NSLock` (a pthread mutex), not a `Mutex`: ThreadSanitizer sees a pthread mutex's
  /// hand-over, and misses the kernel's hand-over of a contended `Mutex` on Linux.
  private static let videoLock = NSLock()

  /// Runs `body` holding the lock under which canvases open and close their windows: a process
  /// that makes OpenGL canvases on several threads makes, destroys and queries its other
  /// windows only in here.
  package static func withVideoLock<Result, Failure: Error>(
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    videoLock.lock()
    defer { videoLock.unlock() }
    return try body()
  }

  /// SDL's video subsystem is process-wide, and `SDL_VideoInit` shuts down one that is up
  /// (closing its windows). So an OpenGL canvas is one more hidden window of the driver that
  /// is up, and brings up SDL's offscreen driver only when none is: a process that opens
  /// windows of its own initialises video first. `package` so a test playing a host brings
  /// its video up under the same lock.
  package static func bringUpVideo() throws(SDLError) {
    try withVideoLock { () throws(SDLError) in try bringUpVideoHoldingLock() }
  }

  /// `bringUpVideo()`'s work, for a caller that holds `videoLock`.
  private static func bringUpVideoHoldingLock() throws(SDLError) {
    guard SDL_WasInit(SDL_INIT_VIDEO) == 0, SDL_GetCurrentVideoDriver() == nil else { return }
    guard SDL_VideoInit("offscreen") == 0 else { throw SDLError("SDL_VideoInit(offscreen)") }
  }

  package convenience init(width: Int, height: Int) throws(SDLError) {
    try self.init(width: width, height: height, openGL: false)
  }

  /// An OpenGL canvas, or why there is none (no EGL, no GL renderer); see `bringUpVideo()`.
  /// - Parameters:
  ///   - width: the canvas's width, pixels.
  ///   - height: its height, pixels.
  ///   - driver: SDL's render driver to ask for (`"opengles2"`: SDL's OpenGL ES 2 renderer, on
  ///     the ES context the GL library gives it); nil for SDL's first accelerated one
  ///     (`opengl` here).
  /// - Returns: the canvas.
  /// - Throws: `SDLError` when SDL has no such renderer here.
  package static func openGL(width: Int, height: Int, driver: String? = nil) throws(SDLError)
    -> OffscreenCanvas
  {
    try OffscreenCanvas(width: width, height: height, openGL: true, driver: driver)
  }

  private init(width: Int, height: Int, openGL: Bool, driver: String? = nil) throws(SDLError) {
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
    let r: OpaquePointer
    if openGL {
      do throws(SDLError) {
        let made = try Self.makeOpenGLTarget(width: width, height: height, driver: driver)
        r = made.renderer
        openGLTarget = (made.window, made.texture)
        rendererName = made.name
        glRendererName = RingBackend.currentGLRendererName()
      } catch {
        SDL_FreeSurface(s)
        throw error
      }
    } else {
      guard let software = SDL_CreateSoftwareRenderer(s) else {
        SDL_FreeSurface(s)
        throw SDLError("SDL_CreateSoftwareRenderer")
      }
      r = software
      openGLTarget = nil
      rendererName = "software"
      glRendererName = nil
    }
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND)
    self.width = width
    self.height = height
    surface = s
    renderer = r
    pixels = p
    pitch = Int(s.pointee.pitch)
    loaderRenderer = LoaderRenderer(r, surface: openGL ? nil : s)
  }

  private static func makeOpenGLTarget(width: Int, height: Int, driver: String?)
    throws(SDLError) -> (
      window: OpaquePointer, renderer: OpaquePointer, texture: OpaquePointer, name: String
    )
  {
    try withVideoLock { () throws(SDLError) in
      try bringUpVideoHoldingLock()
      try holdOpenGLLibraryHoldingLock()
      // The hint is process-wide: set only while this canvas's renderer is made, under the
      // lock every canvas makes its renderer under.
      let previous = SDL_GetHint(SDL_HINT_RENDER_DRIVER).map { String(cString: $0) }
      if let driver { SDL_SetHint(SDL_HINT_RENDER_DRIVER, driver) }
      defer { if driver != nil { SDL_SetHint(SDL_HINT_RENDER_DRIVER, previous) } }
      return try openOpenGLTarget(width: width, height: height)
    }
  }

  /// Whether this process holds SDL's OpenGL library loaded for good (`videoLock` guards it).
  /// Safe as `nonisolated(unsafe)`: read and written only under `videoLock`.
  private nonisolated(unsafe) static var holdsOpenGLLibrary = false

  /// Loads SDL's OpenGL library (EGL and Mesa's driver) once, for the rest of the process.
  ///
  /// SDL unloads it with the last OpenGL window, unmapping the driver while threads it started
  /// may still be on their way out of its code, which then crash the process. Canvases come
  /// and go on several threads, so one reference of our own, never released, keeps the driver
  /// mapped until the process exits.
  private static func holdOpenGLLibraryHoldingLock() throws(SDLError) {
    guard !holdsOpenGLLibrary else { return }
    guard SDL_GL_LoadLibrary(nil) == 0 else { throw SDLError("SDL_GL_LoadLibrary") }
    holdsOpenGLLibrary = true
  }

  /// `makeOpenGLTarget(width:height:)`'s window, renderer and target; under `videoLock`.
  private static func openOpenGLTarget(width: Int, height: Int) throws(SDLError) -> (
    window: OpaquePointer, renderer: OpaquePointer, texture: OpaquePointer, name: String
  ) {
    guard
      let w = SDL_CreateWindow(
        "offscreen", 0, 0, Int32(width), Int32(height),
        SDL_WINDOW_HIDDEN.rawValue | SDL_WINDOW_OPENGL.rawValue)
    else { throw SDLError("SDL_CreateWindow") }
    guard let r = SDL_CreateRenderer(w, -1, SDL_RENDERER_ACCELERATED.rawValue) else {
      SDL_DestroyWindow(w)
      throw SDLError("SDL_CreateRenderer")
    }
    var info = SDL_RendererInfo()
    let name = SDL_GetRendererInfo(r, &info) == 0 ? info.name.map { String(cString: $0) } : nil
    guard let name, name.hasPrefix("opengl") else {
      SDL_DestroyRenderer(r)
      SDL_DestroyWindow(w)
      throw SDLError("SDL_CreateRenderer", message: "got \(name ?? "no") renderer, not OpenGL")
    }
    guard
      let t = SDL_CreateTexture(
        r, SDL_PIXELFORMAT_ARGB8888.rawValue, Int32(SDL_TEXTUREACCESS_TARGET.rawValue),
        Int32(width), Int32(height))
    else {
      SDL_DestroyRenderer(r)
      SDL_DestroyWindow(w)
      throw SDLError("SDL_CreateTexture")
    }
    SDL_SetRenderTarget(r, t)
    return (w, r, t, name)
  }

  deinit {
    loaderRenderer.close()
    if let target = openGLTarget {
      let renderer = renderer
      Self.withVideoLock {
        SDL_DestroyTexture(target.texture)
        SDL_DestroyRenderer(renderer)
        SDL_DestroyWindow(target.window)
      }
    } else {
      SDL_DestroyRenderer(renderer)
    }
    SDL_FreeSurface(surface)
  }

  /// Fills the whole canvas with `color`, opaque.
  package func clear(_ color: RGBAColor) {
    SDL_SetRenderDrawColor(renderer, color.r, color.g, color.b, 255)
    SDL_RenderClear(renderer)
  }

  /// Finishes pending drawing into the surface (the software renderer batches commands; an
  /// OpenGL canvas reads its target back).
  package func flush() {
    SDL_RenderFlush(renderer)
    if openGLTarget != nil {
      SDL_RenderReadPixels(
        renderer, nil, SDL_PIXELFORMAT_ARGB8888.rawValue, pixels, Int32(pitch))
    }
  }

  /// Returns once everything drawn so far is in the target, without reading it all back, so a
  /// timed call ends with its work done: the software renderer's queue flushed, or on OpenGL
  /// one pixel read back (which waits for every queued command).
  package func finish() throws(SDLError) {
    SDL_RenderFlush(renderer)
    guard openGLTarget != nil else { return }
    try Self.finish(renderer)
  }

  /// Returns once every command queued on `renderer` so far has run: reads one pixel of its
  /// current target back, which waits for them all (SDL flushes its queue first; on OpenGL the
  /// driver, llvmpipe's threads included, finishes the work before the read returns).
  /// - Throws: `SDLError` when the read fails.
  package static func finish(_ renderer: OpaquePointer) throws(SDLError) {
    var one = SDL_Rect(x: 0, y: 0, w: 1, h: 1)
    var pixel: UInt32 = 0
    guard SDL_RenderReadPixels(renderer, &one, SDL_PIXELFORMAT_ARGB8888.rawValue, &pixel, 4) == 0
    else { throw SDLError("SDL_RenderReadPixels") }
  }

  /// Whether this is an OpenGL canvas (`openGL(width:height:)`).
  package var isOpenGL: Bool { openGLTarget != nil }

  /// `software`, or `opengl (llvmpipe ...)`: SDL's renderer and, on OpenGL, the GL
  /// implementation under it, so a figure from Mesa's CPU rasterizer cannot pass for a GPU's.
  package var rendererDescription: String {
    openGLTarget == nil ? rendererName : "\(rendererName) (\(glRendererName ?? "unknown GL"))"
  }

  /// Pixel `(x, y)`, opaque.
  package func pixel(x: Int, y: Int) -> RGBAColor {
    flush()
    precondition(x >= 0 && x < width && y >= 0 && y < height)
    let row = pixels.advanced(by: y * pitch)
    let v = row.assumingMemoryBound(to: UInt32.self)[x]
    return RGBAColor(hex: v & 0xFF_FFFF)
  }

  /// Every pixel, row-major, as `0xAARRGGBB`.
  package func argbPixels() -> [UInt32] {
    flush()
    var out = [UInt32](repeating: 0, count: width * height)
    for y in 0..<height {
      let row = pixels.advanced(by: y * pitch).assumingMemoryBound(to: UInt32.self)
      for x in 0..<width { out[y * width + x] = row[x] }
    }
    return out
  }

  /// The canvas encoded as a PNG file's bytes, for the caller's own writer: encoding into
  /// memory lets every failure be seen (`IMG_SavePNG` on a path ignores a failed `fclose`).
  ///
  /// The buffer is one no PNG of this canvas can outgrow: zlib's stored form of the filtered
  /// rows, `height * (4 * width + 1)` bytes, plus deflate's block, chunk and header overhead,
  /// covered by `raw / 64 + 4096`. Running out would fail a write, reported, never truncated.
  package func pngData() throws(SDLError) -> [UInt8] {
    flush()
    return try Self.pngData(of: surface)
  }

  /// Any 32-bit surface encoded as PNG bytes, the same way as `pngData()`.
  package static func pngData(of surface: UnsafeMutablePointer<SDL_Surface>) throws(SDLError)
    -> [UInt8]
  {
    let width = Int(surface.pointee.w)
    let height = Int(surface.pointee.h)
    let raw = height * (4 * width + 1)
    let capacity = raw + raw / 64 + 4096
    var bytes = [UInt8](repeating: 0, count: capacity)
    let written: Int = bytes.withUnsafeMutableBytes { buffer in
      guard let stream = SDL_RWFromMem(buffer.baseAddress, Int32(clamping: buffer.count)) else {
        return -1
      }
      defer { SDL_RWclose(stream) }
      guard IMG_SavePNG_RW(surface, stream, 0) == 0 else { return -1 }
      return Int(SDL_RWtell(stream))
    }
    guard written > 0, written <= capacity else { throw SDLError("IMG_SavePNG_RW") }
    bytes.removeSubrange(written...)
    return bytes
  }
}
