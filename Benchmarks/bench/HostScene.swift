import CSwiftLoaderSDL2
import Foundation
import LoaderCore
import LoaderSDL
import SwiftLoaderCanvas

/// The program a `host/*` child runs: an SDL program that owns a 1920x1080 window, its
/// renderer and its frame, with `LoaderView`s (or the sprite peer) in a list.
///
/// A frame is what such a host does every 1/60 s: `SDL_RenderClear`, its own rects
/// (`HostLayout.stripes`), every view's draw at the frame's time, `SDL_RenderPresent`, then a
/// one-pixel `SDL_RenderReadPixels`, which waits until the renderer has done the frame's work
/// (llvmpipe rasterizes on its own threads), so the frame's whole cost is inside its timing.
/// The window is on SDL's offscreen video driver; vsync is off (the offscreen driver has none
/// anyway), so nothing waits for a display.
final class HostScene {
  let window: OpaquePointer
  let renderer: OpaquePointer
  let loaders: LoaderRenderer
  /// `opengl (llvmpipe ...)` or `software`.
  let description: String
  let content: any HostContent
  /// The frame's time, seconds; it moves on by `dt` every frame.
  private(set) var time = 0.0
  static let dt = 1.0 / 60
  private var stripes: [SDL_Rect] = HostLayout.stripes

  init(renderer kind: HostRendererKind, content make: (HostScene.Parts) throws -> any HostContent)
    throws
  {
    SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen")
    SDL_SetHint(SDL_HINT_RENDER_VSYNC, "0")
    SDL_SetHint(SDL_HINT_RENDER_DRIVER, kind == .opengl ? "opengl" : "software")
    // Without this SDL backs a non-dummy driver's window surface with a texture of a GPU
    // renderer of its own (`SDL_CreateWindowTexture`): every present of the software renderer
    // would upload the frame into OpenGL (llvmpipe here) and draw it there.
    SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0")
    guard SDL_Init(SDL_INIT_VIDEO) == 0 else { throw SDLError("SDL_Init(video, offscreen)") }
    let flags = SDL_WINDOW_SHOWN.rawValue | (kind == .opengl ? SDL_WINDOW_OPENGL.rawValue : 0)
    guard
      let w = SDL_CreateWindow(
        "host", 0, 0, Int32(HostLayout.width), Int32(HostLayout.height), flags)
    else { throw SDLError("SDL_CreateWindow") }
    let rendererFlags =
      kind == .opengl ? SDL_RENDERER_ACCELERATED.rawValue : SDL_RENDERER_SOFTWARE.rawValue
    guard let r = SDL_CreateRenderer(w, -1, rendererFlags) else {
      SDL_DestroyWindow(w)
      throw SDLError("SDL_CreateRenderer")
    }
    var info = SDL_RendererInfo()
    let name = SDL_GetRendererInfo(r, &info) == 0 ? info.name.map { String(cString: $0) } : nil
    guard let name, name.hasPrefix(kind == .opengl ? "opengl" : "software") else {
      SDL_DestroyRenderer(r)
      SDL_DestroyWindow(w)
      throw SDLError("SDL_CreateRenderer", message: "got \(name ?? "no") renderer, not \(kind)")
    }
    window = w
    renderer = r
    description =
      kind == .opengl
      ? "\(name) (\(RingBackend.currentGLRendererName() ?? "unknown GL"))" : name
    loaders = LoaderRenderer(r)
    content = try make(Parts(renderer: r, loaders: loaders))
  }

  /// What content is made from.
  struct Parts {
    var renderer: OpaquePointer
    var loaders: LoaderRenderer
  }

  deinit {
    // Textures go before their renderer.
    content.close()
    loaders.close()
    SDL_DestroyRenderer(renderer)
    SDL_DestroyWindow(window)
  }

  /// One frame at the next time; `drawingViews` false leaves the views out (the host's own
  /// frame alone, the baseline their cost is measured against).
  func frame(drawingViews: Bool = true) throws {
    time += Self.dt
    let background = LoaderPalette.light.background
    SDL_SetRenderDrawColor(renderer, background.r, background.g, background.b, 255)
    SDL_RenderClear(renderer)
    SDL_SetRenderDrawColor(renderer, 0xF2, 0xF2, 0xF7, 255)
    SDL_RenderFillRects(renderer, &stripes, Int32(stripes.count))
    if drawingViews { try content.draw(at: time) }
    SDL_RenderPresent(renderer)
    try OffscreenCanvas.finish(renderer)
  }
}

enum HostRendererKind: String, CaseIterable {
  case opengl
  case software
}

/// Where a host's list puts its views: 390x120-point frames (`LoaderView`'s SPEC size), in five
/// columns 380 points apart and twenty rows 54 points apart, filled column by column (view
/// `k` in column `k / 20`, row `k % 20`), so 100 views fill the 1920x1080 window. A row of
/// rings is 50 points tall, centred in its frame, so frames overlap like a dense list's rows
/// while rings never do; the first row's frame starts 33 points above the window (a list
/// scrolled a little), which puts its rings 2 points below the top.
enum HostLayout {
  static let width = 1920
  static let height = 1080
  static let rows = 20
  static let columns = 5
  static let rowPitch = 54
  static let columnPitch = 380
  static let frameSize = (width: 390, height: 120)
  static var capacity: Int { rows * columns }

  /// View `k`'s frame, window points.
  static func frame(ofView k: Int) -> SDL_FRect {
    let column = (k / rows) % columns
    let row = k % rows
    return SDL_FRect(
      x: Float(8 + columnPitch * column), y: Float(rowPitch * row - 33),
      w: Float(frameSize.width), h: Float(frameSize.height))
  }

  /// The host's own rects: every other row's background (ten full-width stripes).
  static let stripes: [SDL_Rect] = stride(from: 0, to: rows, by: 2).map {
    SDL_Rect(x: 0, y: Int32($0 * rowPitch), w: Int32(width), h: Int32(rowPitch))
  }
}

/// What a host draws in its list: views added one at a time, all drawn every frame.
protocol HostContent: AnyObject {
  var count: Int { get }
  /// Adds view number `count` (its own object), appearing at `time` minus a seeded offset
  /// under one cycle (views start at different points of their animation, as in a list).
  func addView(at time: Double, offset: Double) throws
  func draw(at time: Double) throws
  /// What the host draws with: the backend every view used last, or the peer's name.
  var drawnWith: String { get }
  /// Bytes of masks, meshes and textures the drawing keeps (`LoaderRenderer.cachedBytes`, or
  /// the peer's one texture).
  var cachedBytes: Int { get }
  /// Frees what it holds on the renderer (before the renderer goes).
  func close()
}

/// `LoaderView`s, each its own object, on the host's `LoaderRenderer`.
final class LoaderViewContent: HostContent {
  let loaders: LoaderRenderer
  /// nil: each view takes the renderer's `defaultBackend(rings:)`.
  let backend: RingBackend?
  private var views: [LoaderView] = []
  private var frames: [SDL_FRect] = []

  init(loaders: LoaderRenderer, backend: RingBackend?) {
    self.loaders = loaders
    self.backend = backend
  }

  var count: Int { views.count }

  func addView(at time: Double, offset: Double) throws {
    frames.append(HostLayout.frame(ofView: views.count))
    views.append(
      try LoaderView(isAnimating: true, style: .seed, backend: backend, appearingAt: time - offset))
  }

  func draw(at time: Double) throws {
    for (view, frame) in zip(views, frames) { try view.draw(on: loaders, in: frame, at: time) }
  }

  var drawnWith: String {
    views.last?.activeBackend?.rawValue ?? (backend ?? loaders.defaultBackend(rings: 5)).rawValue
  }

  var cachedBytes: Int { loaders.cachedBytes }

  func close() {}
}

/// The peer an SDL programmer writes first: the ring painted once, white, into one texture
/// shared by every view (by the project's SDL2_gfx painter at the renderer's density, as
/// `raster/sprite` does), and per view its own animation object (`NaiveLoaderSimulation`'s
/// loader: its schedule and running turns) and five `SDL_RenderCopyExF` a frame, each turned
/// by its ring's angle about its centre, tinted by colour and alpha modulation, linearly
/// filtered.
///
/// The texture is painted when the first view is added, not when the host starts: the host
/// without views (the 0-view count) is a program that has shown no loader yet, so what showing
/// the first one costs (the texture, the painter's code and tables paged in, its CPU in the
/// first second) is in the peer's figures as it is in `LoaderView`'s, which paints its
/// texture on its first draw. (Painted in `init`, the peer's texture and the pages its
/// painting touched sat in the baseline: about 0.7 MB of the gap measured in one run.)
final class SpriteContent: HostContent {
  let renderer: OpaquePointer
  /// nil before the first view and once closed.
  private var texture: OpaquePointer?
  private var closed = false
  /// Half the texture's side: a ring centred at `c` is copied to `c - half`.
  private var half: Float = 0
  private var views: [(loader: NaiveLoaderSimulation.Loader, frame: SDL_FRect)] = []
  private let offsets: [(x: Float, y: Float)]
  private let colors = LoaderStyle.seed.colors

  init(renderer: OpaquePointer) {
    self.renderer = renderer
    let size = HostLayout.frameSize
    offsets = RowLayout.frames(width: Double(size.width), height: Double(size.height)).map {
      (Float($0.midX), Float($0.midY))
    }
  }

  deinit { close() }

  func close() {
    if let t = texture { SDL_DestroyTexture(t) }
    texture = nil
    closed = true
  }

  var count: Int { views.count }

  func addView(at time: Double, offset: Double) throws {
    if texture == nil, !closed {
      var sx: Float = 1
      var sy: Float = 1
      SDL_RenderGetScale(renderer, &sx, &sy)
      let shape = DashedRing(style: .seed).scaled(by: Double(min(sx, sy)))
      let (t, o) = try makeRingSprite(shape, on: renderer)
      texture = t
      half = Float(o) / min(sx, sy)
    }
    let loader = NaiveLoaderSimulation.Loader(style: .seed)
    loader.setAnimating(true, at: time - offset)
    views.append((loader, HostLayout.frame(ofView: views.count)))
  }

  func draw(at time: Double) throws {
    guard let texture else { return }
    for (loader, frame) in views {
      loader.step(from: time, to: time + HostScene.dt)
      for (i, o) in offsets.enumerated() {
        let c = colors[i % colors.count]
        SDL_SetTextureColorMod(texture, c.r, c.g, c.b)
        SDL_SetTextureAlphaMod(texture, c.a)
        var dst = SDL_FRect(
          x: frame.x + o.x - half, y: frame.y + o.y - half, w: 2 * half, h: 2 * half)
        let angle = loader.angle(ofRing: i, at: time).truncatingRemainder(dividingBy: 360)
        guard SDL_RenderCopyExF(renderer, texture, nil, &dst, angle, nil, SDL_FLIP_NONE) == 0
        else { throw SDLError("SDL_RenderCopyExF") }
      }
    }
  }

  var drawnWith: String { "sprite" }

  var cachedBytes: Int { texture == nil ? 0 : Int(4 * half * half * 4) }
}
