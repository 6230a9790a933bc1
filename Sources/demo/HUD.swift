import CSwiftLoaderSDL2
import CSwiftLoaderSDL2TTF
import Foundation
import LoaderSDL

/// The window's heads-up display, in the top-left corner: frame rate and frame-time
/// percentiles over the last second, a graph of the last 240 frame times against the 60 Hz
/// budget, what is on screen (loaders, rings, how many animate), the backend, the renderer
/// and the speed; on request (`showsKeys`) a panel listing the keys.
///
/// Text is DejaVu Sans Mono through SDL2_ttf (`HUDFont`), antialiased. Each line is rendered
/// to a texture once and reused while its text stays the same, so a steady HUD costs a few
/// texture copies and rectangles a frame.
final class HUD {
  /// What the HUD reports besides frame times.
  struct Info: Equatable {
    var loaders: Int
    var rings: Int
    var animating: Int
    var backend: String
    var renderer: String
    var speed: Double
    /// Rings the last draw rasterized and the ring sizes (shapes) they had, where loaders
    /// can be culled or differ in size (the sprites); nil elsewhere.
    var drawnRings: Int? = nil
    var shapes: Int? = nil
  }

  /// The keys the overlay lists, in order: key, what it does.
  static let keyHelp: [(key: String, action: String)] = [
    ("Space", "toggle isAnimating (grid, sprites: all)"),
    ("click", "toggle the loader clicked"),
    ("+ / -", "double / halve the grid"),
    ("B", "next backend"),
    ("[ / ]", "halve / double the speed"),
    ("M", "reduced motion policy"),
    ("H", "hide / show this HUD"),
    ("? / F1", "show / hide these keys"),
    ("S / PrtSc", "screenshot (PNG)"),
    ("R", "record to recording-*.gif"),
    ("Esc", "quit"),
  ]

  private(set) var statistics = HUDStatistics()
  var isVisible = true
  var showsKeys = false

  private let fontPath: String
  private var font: OpaquePointer?
  private var fontScale = 0.0
  private var cache: [String: (texture: OpaquePointer, width: Int32, height: Int32)] = [:]
  private var used: Set<String> = []
  private var cacheRenderer: OpaquePointer?

  /// Finds the font (`HUDFont.locate`), so a missing font is reported before the window opens.
  init() throws(HUDFont.Missing) {
    fontPath = try HUDFont.locate()
  }

  deinit {
    dropTextures()
    if let font { TTF_CloseFont(font) }
  }

  /// Adds the time the last frame took, seconds.
  func record(frameTime: Double) {
    statistics.record(frameTime: frameTime)
  }

  /// The renderer lost its textures (`SDL_RENDER_TARGETS_RESET`): forget the cached lines.
  func renderTargetsDidReset() {
    cache.removeAll()
    used.removeAll()
  }

  private func dropTextures() {
    for entry in cache.values { SDL_DestroyTexture(entry.texture) }
    cache.removeAll()
    used.removeAll()
  }

  /// Draws the HUD (when visible) over what `renderer` holds; `scale` is pixels per point.
  /// Returns the rectangle it covered, in pixels, or nil when it drew nothing.
  @discardableResult
  func draw(on renderer: OpaquePointer, stats info: Info, scale: Double = 1) throws(SDLError)
    -> SDL_Rect?
  {
    guard isVisible || showsKeys else { return nil }
    try prepare(renderer: renderer, scale: scale)
    var mode = SDL_BLENDMODE_NONE
    SDL_GetRenderDrawBlendMode(renderer, &mode)
    SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
    defer {
      SDL_SetRenderDrawBlendMode(renderer, mode)
      evictUnused()
    }
    var covered: SDL_Rect?
    if isVisible { covered = try drawPanel(on: renderer, info: info, scale: scale) }
    if showsKeys {
      let keys = try drawKeys(on: renderer, scale: scale)
      covered = covered.map { union($0, keys) } ?? keys
    }
    return covered
  }

  private func prepare(renderer: OpaquePointer, scale: Double) throws(SDLError) {
    if cacheRenderer != renderer {
      // Textures belong to the renderer that made them.
      if cacheRenderer != nil { dropTextures() }
      cacheRenderer = renderer
    }
    let s = max(scale, 0.5)
    if font == nil || fontScale != s {
      if TTF_WasInit() == 0, TTF_Init() != 0 { throw SDLError("TTF_Init") }
      if let font { TTF_CloseFont(font) }
      dropTextures()
      guard let f = TTF_OpenFont(fontPath, Int32((12 * s).rounded())) else {
        throw SDLError("TTF_OpenFont(\(fontPath))")
      }
      font = f
      fontScale = s
    }
  }

  private func evictUnused() {
    for (key, entry) in cache where !used.contains(key) {
      SDL_DestroyTexture(entry.texture)
      cache[key] = nil
    }
    used.removeAll(keepingCapacity: true)
  }

  /// The texture of one line of text, rendered on first use.
  private func line(_ text: String, on renderer: OpaquePointer) throws(SDLError) -> (
    texture: OpaquePointer, width: Int32, height: Int32
  ) {
    used.insert(text)
    if let hit = cache[text] { return hit }
    guard let font else { throw SDLError("HUD", message: "no font") }
    let white = SDL_Color(r: 235, g: 235, b: 235, a: 255)
    guard let surface = TTF_RenderUTF8_Blended(font, text, white) else {
      throw SDLError("TTF_RenderUTF8_Blended")
    }
    defer { SDL_FreeSurface(surface) }
    guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else {
      throw SDLError("SDL_CreateTextureFromSurface")
    }
    let entry = (texture, surface.pointee.w, surface.pointee.h)
    cache[text] = entry
    return entry
  }

  private func text(_ s: String, x: Int32, y: Int32, on renderer: OpaquePointer) throws(SDLError)
    -> Int32
  {
    let l = try line(s, on: renderer)
    var dst = SDL_Rect(x: x, y: y, w: l.width, h: l.height)
    SDL_RenderCopy(renderer, l.texture, nil, &dst)
    return l.width
  }

  private static func milliseconds(_ t: Double) -> String { String(format: "%.1f ms", t * 1000) }

  private func panelLines(_ info: Info) -> [String] {
    let s = statistics
    return [
      String(format: "%.1f fps", s.framesPerSecond) + "  p50 "
        + Self.milliseconds(s.percentile(0.5)) + "  p99 " + Self.milliseconds(s.percentile(0.99)),
      "\(info.loaders) loader\(info.loaders == 1 ? "" : "s")  \(info.rings) rings  "
        + "\(info.animating) animating",
    ] + (info.drawnRings.map { ["\($0) rings drawn  \(info.shapes ?? 0) sizes"] } ?? []) + [
      "\(info.backend)  \(info.renderer)  speed " + String(format: "%g", info.speed) + "x"
    ]
  }

  private func drawPanel(on renderer: OpaquePointer, info: Info, scale: Double) throws(SDLError)
    -> SDL_Rect
  {
    let s = max(scale, 0.5)
    func px(_ v: Double) -> Int32 { Int32((v * s).rounded()) }
    let lines = panelLines(info) + ["? keys  H hides"]
    let lineHeight = font.map { TTF_FontHeight($0) } ?? px(14)
    let pad = px(6)
    let barWidth = max(1, px(1))
    let graphWidth = Int32(HUDStatistics.graphLength) * barWidth
    let graphHeight = px(40)
    var textWidth: Int32 = 0
    for l in lines { textWidth = max(textWidth, try line(l, on: renderer).width) }
    var panel = SDL_Rect(
      x: px(8), y: px(8), w: max(textWidth, graphWidth) + 2 * pad,
      h: Int32(lines.count - 1) * lineHeight + graphHeight + lineHeight + 4 * pad)
    SDL_SetRenderDrawColor(renderer, 0, 0, 0, 190)
    SDL_RenderFillRect(renderer, &panel)

    var y = panel.y + pad
    for l in lines.dropLast() {
      _ = try text(l, x: panel.x + pad, y: y, on: renderer)
      y += lineHeight
    }
    y += pad
    // Bars: 0 at the bottom, twice the budget at the top, so the budget line is half-way.
    let graphTop = y
    let full = 2 * HUDStatistics.budget
    let times = statistics.graph()
    let x0 = panel.x + pad + graphWidth - Int32(times.count) * barWidth
    for (i, t) in times.enumerated() {
      let h = max(1, Int32((min(t / full, 1) * Double(graphHeight)).rounded()))
      switch HUDStatistics.budget(of: t) {
      case .met: SDL_SetRenderDrawColor(renderer, 52, 199, 89, 255)
      case .missed: SDL_SetRenderDrawColor(renderer, 255, 204, 0, 255)
      case .far: SDL_SetRenderDrawColor(renderer, 255, 59, 48, 255)
      }
      var bar = SDL_Rect(
        x: x0 + Int32(i) * barWidth, y: graphTop + graphHeight - h, w: barWidth, h: h)
      SDL_RenderFillRect(renderer, &bar)
    }
    SDL_SetRenderDrawColor(renderer, 255, 255, 255, 170)
    var budgetLine = SDL_Rect(
      x: panel.x + pad, y: graphTop + graphHeight / 2, w: graphWidth, h: max(1, px(1)))
    SDL_RenderFillRect(renderer, &budgetLine)
    let label = try line("16.7 ms", on: renderer)
    var labelRect = SDL_Rect(
      x: panel.x + pad + graphWidth - label.width, y: graphTop + graphHeight / 2 - label.height,
      w: label.width, h: label.height)
    SDL_RenderCopy(renderer, label.texture, nil, &labelRect)
    y = graphTop + graphHeight + pad
    _ = try text(lines[lines.count - 1], x: panel.x + pad, y: y, on: renderer)
    return panel
  }

  private func drawKeys(on renderer: OpaquePointer, scale: Double) throws(SDLError) -> SDL_Rect {
    let s = max(scale, 0.5)
    let pad = Int32((10 * s).rounded())
    let lineHeight = font.map { TTF_FontHeight($0) } ?? 14
    let keyWidth =
      try Self.keyHelp.map { (k) throws(SDLError) in try line(k.key, on: renderer).width }
      .max() ?? 0
    let actionWidth =
      try Self.keyHelp.map { (k) throws(SDLError) in try line(k.action, on: renderer).width }.max()
      ?? 0
    var w: Int32 = 0
    var h: Int32 = 0
    SDL_GetRendererOutputSize(renderer, &w, &h)
    let panelWidth = keyWidth + actionWidth + 3 * pad
    let panelHeight = Int32(Self.keyHelp.count) * lineHeight + 2 * pad
    var panel = SDL_Rect(
      x: max(0, (w - panelWidth) / 2), y: max(0, (h - panelHeight) / 2), w: panelWidth,
      h: panelHeight)
    SDL_SetRenderDrawColor(renderer, 0, 0, 0, 215)
    SDL_RenderFillRect(renderer, &panel)
    var y = panel.y + pad
    for k in Self.keyHelp {
      _ = try text(k.key, x: panel.x + pad, y: y, on: renderer)
      _ = try text(k.action, x: panel.x + 2 * pad + keyWidth, y: y, on: renderer)
      y += lineHeight
    }
    return panel
  }

  private func union(_ a: SDL_Rect, _ b: SDL_Rect) -> SDL_Rect {
    let x0 = min(a.x, b.x)
    let y0 = min(a.y, b.y)
    let x1 = max(a.x + a.w, b.x + b.w)
    let y1 = max(a.y + a.h, b.y + b.h)
    return SDL_Rect(x: x0, y: y0, w: x1 - x0, h: y1 - y0)
  }
}
