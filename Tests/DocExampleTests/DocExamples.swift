import CSwiftLoaderCairo
import Foundation
import LoaderSDL
import SwiftLoaderCanvas
import SwiftLoaderFrameRecording

/// Every `swift` example of the documentation (doc comments, DocC articles, README), each in a
/// function that gives it the names it assumes (`renderer`, `now`, ...), so the build
/// compiles them: `DocExampleCoverageTests` checks each example appears here as written, and
/// `DocExampleRunTests` runs those that can run headless. An example's own `import` lines are
/// this file's imports.
enum DocExamples {
  // MARK: - Doc comments

  /// `LoaderExport` (LoaderCore).
  static func loaderExport() throws -> (String, Data) {
    let svg = try LoaderExport.svg(
      style: .seed.with(palette: .dark), background: LoaderPalette.dark.background)
    let json = try LoaderExport.lottie(style: .seed, width: 390, height: 120)
    return (svg, json)
  }

  /// `LoaderView` (LoaderPixels).
  static func loaderView(
    loaders: LoaderRenderer, buffer: PixelBuffer, now: Double
  ) throws -> LoaderView {
    let view = LoaderView(isAnimating: true)
    // every frame, on an SDL renderer (LoaderSDL; the caller clears, as with any SDL drawing):
    try view.draw(on: loaders, in: SDL_FRect(x: 0, y: 0, w: 390, h: 120), at: now)
    // or into a caller's pixels, no SDL (`PixelBuffer`: a Cairo surface, a texture's bytes):
    try view.draw(into: buffer, in: LoaderRect(x: 0, y: 0, width: 390, height: 120), at: now)
    // when work starts or stops:
    try view.setAnimating(false, at: now)
    return view
  }

  /// `PixelBuffer.init(bytes:...)` (LoaderPixels).
  static func pixelBufferBytes(view: LoaderView, now: Double) throws {
    var pixels = [UInt8](repeating: 0, count: 390 * 120 * 4)
    try pixels.withUnsafeMutableBytes { bytes in
      let buffer = try PixelBuffer(bytes: bytes, width: 390, height: 120, format: .rgbaStraight)
      try view.draw(into: buffer, in: LoaderRect(x: 0, y: 0, width: 390, height: 120), at: now)
    }
  }

  /// `LoaderPixelCache` (LoaderPixels).
  static func loaderPixelCache(
    view: LoaderView, buffer: PixelBuffer, now: Double
  ) throws -> LoaderPixelCache {
    let cache = LoaderPixelCache(budgetBytes: 32 << 20)
    try view.draw(
      into: buffer, in: LoaderRect(x: 0, y: 0, width: 390, height: 120), at: now, cache: cache)
    return cache
  }

  /// `LoaderField` (LoaderPixels).
  static func loaderField(
    renderer: OpaquePointer, buffer: PixelBuffer, now: Double
  ) throws -> LoaderField {
    let loaders = LoaderRenderer(renderer)  // once per SDL renderer (LoaderSDL)
    let field = try LoaderField(style: .seed, layout: .grid)
    try field.addLoaders(1000, isAnimating: true, at: 0)
    // every frame, `now` in seconds on your clock (the caller clears, as with any SDL drawing):
    try field.draw(on: loaders, in: SDL_FRect(x: 0, y: 0, w: 1280, h: 720), at: now)
    // or into a caller's pixels, no SDL:
    try field.draw(into: buffer, in: LoaderRect(x: 0, y: 0, width: 1280, height: 720), at: now)
    return field
  }

  /// `LoaderField.Error` (LoaderPixels): `loaders` is replaced when it was closed.
  static func loaderFieldError(
    view: LoaderView, loaders: inout LoaderRenderer, renderer: OpaquePointer, frame: SDL_FRect,
    now: Double
  ) {
    do {
      try view.draw(on: loaders, in: frame, at: now)
    } catch {
      switch error.reason {
      case .closed: loaders = LoaderRenderer(renderer)  // draw on a new one
      case .backendFailed: print("SDL failed: \(error)")  // try again next frame
      default: print("loader: \(error)")  // names the argument and its limits
      }
    }
  }

  /// `LoaderRenderer` (LoaderSDL).
  static func loaderRenderer(renderer: OpaquePointer, event: SDL_Event, now: Double) throws {
    let loaders = LoaderRenderer(renderer)
    let view = LoaderView(isAnimating: true)
    // every frame:
    try view.draw(on: loaders, in: SDL_FRect(x: 20, y: 20, w: 290, h: 50), at: now)
    // in the event loop:
    loaders.handle(event)  // SDL_RENDER_TARGETS_RESET / SDL_RENDER_DEVICE_RESET
  }

  /// `FrameRecorder` (SwiftLoaderFrameRecording): `draw(at:)` draws onto `canvas` with
  /// `drawFrame`.
  static func frameRecorder(
    canvas: OffscreenCanvas, temporary: String, drawFrame: (Double) throws -> Void
  ) throws {
    func draw(at t: Double) { try? drawFrame(t) }
    let schedule = try RecordingSchedule(
      format: .gif, fps: 50, duration: nil, loop: true, style: .seed)
    let recorder = try FrameRecorder(
      format: .gif, width: 390, height: 120, clock: schedule.clock, temporaryPath: temporary)
    for t in schedule.times {
      draw(at: t)  // onto an OffscreenCanvas of 390 x 120, then canvas.flush()
      try recorder.append(argb: canvas.argbPixels())
    }
    try recorder.finish()  // then the caller renames the temporary into place
  }

  // MARK: - LoaderCore's articles and the README

  /// ExportingForTheWeb.md, RecordingAndExport.md and the README.
  static func exportingForTheWeb() throws -> (String, Data) {
    let svg: String = try LoaderExport.svg(style: .seed, width: 390, height: 120)
    let lottie: Data = try LoaderExport.lottie(
      style: .seed.with(palette: .dark), width: 390, height: 120,
      background: LoaderPalette.dark.background)  // nil: transparent
    return (svg, lottie)
  }

  /// GettingStartedWithTheModel.md.
  static func gettingStartedWithTheModel() throws -> LoaderStyle {
    var style = LoaderStyle.seed.with(palette: .dark)  // the dark system colours
    style.dash = try DashPattern([3, 3])  // on 3, off 3 along the centreline
    style.lineCap = .butt
    style.turnDuration = 0.8
    return style
  }

  /// LoaderCore.md.
  static func loaderCore() throws -> String {
    let svg = try LoaderExport.svg(style: .seed, width: 390, height: 120)
    return svg
  }

  // MARK: - LoaderPixels' articles and the README

  /// InAnyProgram.md: the whole program, into an array; returns the pixels it drew.
  static func inAnyProgram() throws -> [UInt8] {
    // 580 x 100 pixels of opaque white, R, G, B, A bytes: the seed's row at density 2.
    var pixels = [UInt8](repeating: 255, count: 580 * 100 * 4)
    let view = LoaderView(isAnimating: true)
    let now = 0.35  // seconds on your clock
    let changed = try pixels.withUnsafeMutableBytes { bytes in
      let buffer = try PixelBuffer(
        bytes: bytes, width: 580, height: 100, format: .rgbaPremultiplied, density: 2)
      return try view.draw(
        into: buffer, in: LoaderRect(x: 0, y: 0, width: 290, height: 50), at: now)
    }
    print(changed.map { "changed \($0.width)x\($0.height) pixels" } ?? "changed nothing")
    return pixels
  }

  /// InAnyProgram.md: `surface` is a Cairo image surface of 580 x 100.
  static func inAnyProgramCairo(surface: OpaquePointer, view: LoaderView, now: Double) throws {
    let stride = Int(cairo_image_surface_get_stride(surface))
    let bytes = UnsafeMutableRawBufferPointer(
      start: cairo_image_surface_get_data(surface), count: stride * 100)
    let buffer = try PixelBuffer(
      bytes: bytes, width: 580, height: 100, bytesPerRow: stride, format: .bgraPremultiplied,
      density: 2)
    cairo_surface_flush(surface)
    try view.draw(into: buffer, in: LoaderRect(x: 0, y: 0, width: 290, height: 50), at: now)
    cairo_surface_mark_dirty(surface)
  }

  /// LoaderPixels.md.
  static func loaderPixels(view: LoaderView, buffer: PixelBuffer, now: Double) throws {
    try view.draw(into: buffer, in: LoaderRect(x: 0, y: 0, width: 290, height: 50), at: now)
  }

  /// The README's buffer example.
  static func readmePixels(now: Double) throws -> [UInt32] {
    var pixels = [UInt32](repeating: 0xFFFF_FFFF, count: 580 * 100)
    let view = LoaderView(isAnimating: true)
    try pixels.withUnsafeMutableBytes { raw in
      let buffer = PixelBuffer(
        base: raw.baseAddress, width: 580, height: 100, bytesPerRow: 580 * 4,
        format: .bgraPremultiplied, density: 2)
      try view.draw(into: buffer, in: LoaderRect(x: 0, y: 0, width: 290, height: 50), at: now)
    }
    return pixels
  }

  // MARK: - LoaderSDL's articles

  /// GettingStarted.md: the whole program (compiled only: it initialises and quits SDL, which
  /// the tests' canvases share, and runs until the window closes).
  static func gettingStarted() throws {
    guard SDL_Init(SDL_INIT_VIDEO) == 0,
      let window = SDL_CreateWindow("loader", 0, 0, 390, 120, 0),
      let renderer = SDL_CreateRenderer(window, -1, 0)
    else { fatalError("SDL: \(String(cString: SDL_GetError()))") }
    let view = LoaderView(isAnimating: true)
    let loaders = LoaderRenderer(renderer)  // once, beside the SDL renderer
    var running = true
    var event = SDL_Event()
    while running {
      while SDL_PollEvent(&event) != 0 {
        loaders.handle(event)  // textures lost: remade on the next draw
        if event.type == SDL_QUIT.rawValue { running = false }
      }
      let now = Double(SDL_GetTicks64()) / 1000  // seconds on your clock
      SDL_SetRenderDrawColor(renderer, 255, 255, 255, 255)
      SDL_RenderClear(renderer)
      try view.draw(on: loaders, in: SDL_FRect(x: 0, y: 0, w: 390, h: 120), at: now)
      SDL_RenderPresent(renderer)
    }
    loaders.close()  // before the renderer goes
    SDL_DestroyRenderer(renderer)
    SDL_DestroyWindow(window)
    SDL_Quit()
  }

  /// GettingStarted.md: turning it off, and a style of its own.
  static func gettingStartedToggleAndStyle(view: LoaderView, now: Double) throws -> LoaderView {
    try view.setAnimating(false, at: now)
    var style = LoaderStyle.seed.with(palette: .dark)
    style.lineCap = .butt
    let view = try LoaderView(isAnimating: true, style: style)
    return view
  }

  /// InYourSDLProgram.md: the whole program, HiDPI through a logical size (compiled only, as
  /// `gettingStarted()`).
  static func inYourSDLProgram() throws {
    guard SDL_Init(SDL_INIT_VIDEO) == 0,
      let window = SDL_CreateWindow("loader", 0, 0, 390, 120, SDL_WINDOW_ALLOW_HIGHDPI.rawValue),
      let renderer = SDL_CreateRenderer(window, -1, 0)
    else { fatalError("SDL: \(String(cString: SDL_GetError()))") }
    SDL_RenderSetLogicalSize(renderer, 390, 120)  // 390x120 coordinates at the output's density
    let loaders = LoaderRenderer(renderer)
    let view = LoaderView(isAnimating: true)
    var running = true
    var event = SDL_Event()
    while running {
      while SDL_PollEvent(&event) != 0 {
        loaders.handle(event)  // ignores every other event
        if event.type == SDL_QUIT.rawValue { running = false }  // ... your own handling
      }
      let now = Double(SDL_GetTicks64()) / 1000  // seconds on your clock
      SDL_SetRenderDrawColor(renderer, 255, 255, 255, 255)
      SDL_RenderClear(renderer)
      try view.draw(on: loaders, in: SDL_FRect(x: 0, y: 0, w: 390, h: 120), at: now)
      SDL_RenderPresent(renderer)
    }
    loaders.close()  // before SDL_DestroyRenderer (see Lifetime)
    SDL_DestroyRenderer(renderer)
    SDL_DestroyWindow(window)
    SDL_Quit()
  }

  /// LoaderSDL.md.
  static func loaderSDL(view: LoaderView, loaders: LoaderRenderer, now: Double) throws {
    try view.draw(on: loaders, in: SDL_FRect(x: 0, y: 0, w: 390, h: 120), at: now)
  }

  /// ManyLoaders.md: a grid.
  static func manyLoadersGrid(loaders: LoaderRenderer, now: Double) throws -> LoaderField {
    let field = try LoaderField(style: .seed, layout: .grid)
    try field.addLoaders(10_000, isAnimating: true, at: now)
    // every frame:
    try field.draw(on: loaders, in: SDL_FRect(x: 0, y: 0, w: 1280, h: 720), at: now)
    return field
  }

  /// ManyLoaders.md: loaders anywhere.
  static func manyLoadersFree(loaders: LoaderRenderer, now: Double) throws -> LoaderField {
    let field = try LoaderField(layout: .free)
    let id = try field.addLoader(
      isAnimating: true, at: now, frame: SDL_FRect(x: 40, y: 300, w: 116, h: 20))
    // any time, each O(1) and without allocating:
    try field.setFrame(SDL_FRect(x: 60, y: 280, w: 174, h: 30), of: id)  // moved and resized
    try field.setColors([RGBAColor(hex: 0xFF3B30)], of: id)  // its job failed: red
    try field.setOpacity(0.5, of: id)
    try field.setHidden(true, of: id)  // costs nothing to draw
    try field.raise(id)  // on top of the others
    // every frame: frames are in the renderer's coordinates, so no container is needed
    try field.draw(on: loaders, at: now)
    return field
  }

  /// ReducedMotion.md.
  static func reducedMotion(view: LoaderView, userPrefersReducedMotion: Bool) throws {
    try view.setMotion(userPrefersReducedMotion ? .pulse : .full)
  }
}
