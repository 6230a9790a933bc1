import CSwiftLoaderSDL2
import LoaderCore
import LoaderSDL

/// A resizable, HiDPI-aware SDL window with its renderer.
///
/// Asks for an accelerated renderer with vsync and falls back to the software renderer,
/// recording why in `softwareFallbackReason` (the demo prints it as one line on stderr);
/// `init`'s options ask for a named driver, no vsync or full screen instead. Sizes are in
/// points (the window's coordinates); the renderer draws in pixels, `pixelDensity` pixels
/// per point.
package final class LoaderWindow {
  /// The `SDL_Window *`.
  package let window: OpaquePointer
  /// The `SDL_Renderer *` drawing into the window, in pixels.
  package let renderer: OpaquePointer
  /// The loaders' side of `renderer`: its shared caches (told of resets by `nextEvent()`).
  package let loaders: LoaderRenderer
  /// Why the accelerated renderer could not be created; nil when it was.
  package let softwareFallbackReason: String?
  /// Whether SDL gave an accelerated renderer (see `glRendererName` for what it runs on).
  package var isAccelerated: Bool { softwareFallbackReason == nil }
  /// The SDL render driver's name (`software`, `opengl`, ...).
  package let rendererName: String
  /// `GL_RENDERER` when the renderer runs on OpenGL (e.g. `llvmpipe (LLVM 15.0.6, 256 bits)`
  /// for Mesa's CPU rasterizer), else nil: "accelerated" says only that SDL's renderer is not
  /// its software one.
  package let glRendererName: String?
  /// Whether `present()` waits for the display's refresh (otherwise the caller paces frames).
  package let hasVSync: Bool

  /// What the event loop needs to know about. Which key does what is the program's own map:
  /// the window reports the key.
  package enum Event: Sendable, Equatable {
    /// `SDL_QUIT` or the window's close button.
    case quit
    /// A key went down (repeats left out): its keycode, and whether Shift was held.
    case key(SDL_Keycode, shift: Bool)
    /// A left click at this point, in window points.
    case click(x: Double, y: Double)
    /// The renderer lost its textures: rasterizers must rebuild them.
    case renderTargetsReset
  }

  /// SDL's render drivers by name, the values `renderDriver:` accepts.
  package static var renderDriverNames: [String] { RenderDriverInfo.available.map(\.name) }

  /// Initialises SDL's video subsystem and opens the window.
  /// - `fullscreen`: the desktop's resolution (`SDL_WINDOW_FULLSCREEN_DESKTOP`), so no mode
  ///   change; sizes in points follow the display.
  /// - `vsync`: ask the renderer to wait for the display's refresh when presenting.
  /// - `renderDriver`: one of `renderDriverNames`, used or refused (no fallback: the caller
  ///   asked for it by name); nil asks SDL for an accelerated renderer and falls back to the
  ///   software one.
  /// - `hidden`: never shown (`--info` asks what the window would get).
  package init(
    title: String, width: Int, height: Int, fullscreen: Bool = false, vsync: Bool = true,
    renderDriver: String? = nil, hidden: Bool = false
  ) throws(SDLError) {
    guard SDL_InitSubSystem(SDL_INIT_VIDEO) == 0 else { throw SDLError("SDL_Init(VIDEO)") }
    var flags = SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
    if fullscreen { flags |= SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue }
    if hidden { flags |= SDL_WINDOW_HIDDEN.rawValue }
    let pos = Int32(bitPattern: UInt32(SDL_WINDOWPOS_CENTERED_MASK))  // SDL_WINDOWPOS_CENTERED
    guard
      let w = SDL_CreateWindow(
        title, pos, pos, Int32(clamping: width), Int32(clamping: height), flags)
    else {
      let e = SDLError("SDL_CreateWindow")
      SDL_QuitSubSystem(SDL_INIT_VIDEO)
      throw e
    }
    let presentFlags = vsync ? SDL_RENDERER_PRESENTVSYNC.rawValue : 0
    var fallbackReason: String? = nil
    var r: OpaquePointer?
    if let renderDriver {
      guard let index = Self.renderDriverNames.firstIndex(of: renderDriver) else {
        SDL_DestroyWindow(w)
        SDL_QuitSubSystem(SDL_INIT_VIDEO)
        throw SDLError("SDL_CreateRenderer", message: "no render driver named \(renderDriver)")
      }
      r = SDL_CreateRenderer(w, Int32(index), presentFlags)
      if renderDriver == "software" { fallbackReason = "the software renderer was asked for" }
    } else {
      r = SDL_CreateRenderer(w, -1, SDL_RENDERER_ACCELERATED.rawValue | presentFlags)
      if r == nil {
        fallbackReason = String(cString: SDL_GetError())
        // A render-driver hint naming an unusable driver would refuse this one too.
        SDL_SetHintWithPriority(SDL_HINT_RENDER_DRIVER, "software", SDL_HINT_OVERRIDE)
        r = SDL_CreateRenderer(w, -1, SDL_RENDERER_SOFTWARE.rawValue | presentFlags)
      }
    }
    guard let r else {
      let e = SDLError("SDL_CreateRenderer")
      SDL_DestroyWindow(w)
      SDL_QuitSubSystem(SDL_INIT_VIDEO)
      throw e
    }
    // Some drivers (SDL's software one) report vsync whatever the flags asked: say it again.
    _ = SDL_RenderSetVSync(r, vsync ? 1 : 0)
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND)
    window = w
    renderer = r
    softwareFallbackReason = fallbackReason
    var info = SDL_RendererInfo()
    let known = SDL_GetRendererInfo(r, &info) == 0
    hasVSync = known && info.flags & SDL_RENDERER_PRESENTVSYNC.rawValue != 0
    rendererName = known ? info.name.map { String(cString: $0) } ?? "unknown" : "unknown"
    glRendererName = fallbackReason == nil ? RingBackend.currentGLRendererName() : nil
    loaders = LoaderRenderer(r)
  }

  deinit {
    loaders.close()
    SDL_DestroyRenderer(renderer)
    SDL_DestroyWindow(window)
    SDL_QuitSubSystem(SDL_INIT_VIDEO)
  }

  /// The window's size in points.
  package var pointSize: (width: Int, height: Int) {
    var w: Int32 = 0
    var h: Int32 = 0
    SDL_GetWindowSize(window, &w, &h)
    return (Int(w), Int(h))
  }

  /// The renderer's output size in pixels.
  package var pixelSize: (width: Int, height: Int) {
    var w: Int32 = 0
    var h: Int32 = 0
    if SDL_GetRendererOutputSize(renderer, &w, &h) != 0 { return pointSize }
    return (Int(w), Int(h))
  }

  /// Pixels per point: `pixelSize / pointSize` (2 on a typical HiDPI display), 1 when the
  /// window has no size yet.
  package var pixelDensity: Double {
    let p = pointSize
    let px = pixelSize
    guard p.width > 0, px.width > 0 else { return 1 }
    return Double(px.width) / Double(p.width)
  }

  /// The next event the loop cares about, or nil once the queue is empty.
  package func nextEvent() -> Event? {
    var e = SDL_Event()
    while SDL_PollEvent(&e) != 0 {
      switch SDL_EventType(e.type) {
      case SDL_QUIT:
        return .quit
      case SDL_WINDOWEVENT where e.window.event == UInt8(SDL_WINDOWEVENT_CLOSE.rawValue):
        return .quit
      case SDL_KEYDOWN where e.key.repeat == 0:
        return .key(e.key.keysym.sym, shift: e.key.keysym.mod & UInt16(KMOD_SHIFT.rawValue) != 0)
      case SDL_MOUSEBUTTONDOWN where e.button.button == UInt8(SDL_BUTTON_LEFT):
        return .click(x: Double(e.button.x), y: Double(e.button.y))
      case SDL_RENDER_TARGETS_RESET, SDL_RENDER_DEVICE_RESET:
        loaders.renderTargetsDidReset()
        return .renderTargetsReset
      default:
        continue
      }
    }
    return nil
  }

  /// Shows the frame drawn since the last call (`SDL_RenderPresent`).
  package func present() {
    SDL_RenderPresent(renderer)
  }
}
