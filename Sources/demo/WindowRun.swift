import Foundation
import LoaderSDL
import SwiftLoaderHarness
import SwiftLoaderSupport

/// The interactive demo: the scene in a window until Esc or close.
///
/// Each frame: input (stamped with the clock's time), the scene drawn at that time at the
/// window's own pixel density times `--zoom` (`WindowSize`), the HUD, a screenshot or
/// recording frame when asked (`WindowExtras`), present, status, then `FramePacing` waits: for
/// the next frame while anything moves or records, else for input or the scene's next
/// scheduled change (`SDL_WaitEventTimeout`), so a stopped window costs nothing. The status
/// goes to the title, and once a second to stderr with `--verbose`.
///
/// SIGINT and SIGTERM (`Cancellation`, installed before SDL so that SDL leaves them alone)
/// post a quit that wakes the wait; the loop then drops a recording in progress (nothing is
/// left behind) and `run` returns the `Interruption`, for a 130 / 143 exit.
struct WindowRun {
  var options: DemoOptions

  /// Opens the window; throws when no window can be made (the caller goes headless).
  func open() throws(SDLError) -> LoaderWindow {
    let size = Self.windowSize(options)
    let w = try LoaderWindow(
      title: "LoaderView", width: size.width, height: size.height, fullscreen: options.fullscreen,
      vsync: options.vsync, renderDriver: options.renderer)
    if let reason = w.softwareFallbackReason {
      printError("demo: no accelerated renderer (\(reason)); using the software renderer")
    }
    return w
  }

  /// The window's size, in the units `SDL_CreateWindow` takes: `--size` (for the seed without
  /// one, its taller window) at `--zoom`.
  static func windowSize(_ options: DemoOptions) -> (width: Int, height: Int) {
    let height =
      options.scene == .seed && !options.sizeGiven ? DemoOptions.seedWindowHeight : options.height
    return (
      Int(ScenePixelSizes.pixels(options.width, density: options.zoom)),
      Int(ScenePixelSizes.pixels(height, density: options.zoom))
    )
  }

  /// Runs until Esc or close (nil) or an interrupting signal (returned).
  func run(in window: LoaderWindow) throws(DrawFailure) -> Interruption? {
    Cancellation.whenSignalled {
      var quit = SDL_Event()
      quit.type = SDL_QUIT.rawValue
      _ = SDL_PushEvent(&quit)
    }
    do {
      return try loop(in: window)
    } catch {
      throw .field(error)
    }
  }

  private func loop(in window: LoaderWindow) throws(LoaderField.Error) -> Interruption? {
    let scene = try LoaderScene(options: options)
    scene.field.backend = options.backend
    let how =
      options.backend == nil ? "the fastest at the quality bar on this renderer" : "--backend"
    let kind =
      window.isAccelerated
      ? "accelerated\(window.glRendererName.map { ", \($0)" } ?? "")" : "software"
    // The default's choice is made (and on a GPU, the gpu backend checked) before the first
    // frame, and said once; a later fallback (a gpu draw that raised a GL error) is said once
    // when it happens.
    let rings = scene.count * scene.field.style.ringCount
    let backendName =
      options.backend?.rawValue ?? window.loaders.backendDescription(rings: rings)
    printError("demo: \(window.rendererName) renderer (\(kind)), backend \(backendName) (\(how))")
    var saidFallback = options.backend == nil ? window.loaders.gpuFallbackReason : nil
    let clock = WindowClock()
    let pacing = FramePacing(hasVSync: window.hasVSync)
    let input = WindowInput()
    var status = StatusLine()
    let extras = WindowExtras(options: options)
    let zoom = options.zoom

    frames: while true {
      if let signal = Cancellation.signal {
        extras.discard()
        return Interruption(signal: signal)
      }
      let t = clock.now()
      let size = WindowSize(of: window, zoom: zoom)
      let layout = try scene.layout(width: size.pointWidth, height: size.pointHeight)
      while let raw = window.nextEvent() {
        guard let event = WindowCommand(raw) else { continue }
        let outcome = try input.handle(
          event, scene: scene, layout: layout, window: window, zoom: zoom, at: t)
        if outcome == .quit {
          // A signal's quit: the top of the loop drops what is unfinished.
          if Cancellation.signal != nil { continue frames }
          extras.close()
          return nil
        }
        extras.handle(event, renderer: window.renderer, at: t)
      }
      // A frame too slow for the input (a million rings on a CPU rasterizer) is abandoned
      // when a key, click or quit arrives, so the loop reads it at once.
      // The host's HiDPI habit: scene points as the renderer's coordinates, at its density.
      let density = Float(size.pixelDensity)
      SDL_RenderSetScale(window.renderer, density, density)
      let drawn = try scene.draw(
        on: window.loaders, in: size.pointFrame, at: t, stoppingWhen: window.isInputWaiting)
      SDL_RenderSetScale(window.renderer, 1, 1)
      if options.backend == nil, saidFallback == nil,
        let reason = window.loaders.gpuFallbackReason
      {
        saidFallback = reason
        let now = scene.field.activeBackend?.rawValue ?? "none"
        printError("demo: the gpu backend is off on this renderer: \(reason); drawing with \(now)")
      }
      guard drawn else { continue }
      extras.frameDrawn(
        scene: scene, window: window, hudScale: window.pixelDensity, at: t, now: clock.now())
      window.present()
      let next = extras.needsFrame ? clock.now() : scene.nextChange(after: clock.now())
      if let line = status.frameDone(at: clock.now(), scene: scene, idle: next == nil) {
        SDL_SetWindowTitle(window.window, line)
        if options.verbose { printError("demo: \(line)") }
      }
      pacing.wait(frameStart: t, nextChange: next, clock: clock)
    }
  }
}

/// Seconds since the window opened, on SDL's performance counter.
struct WindowClock {
  private let start = SDL_GetPerformanceCounter()
  private let frequency = Double(SDL_GetPerformanceFrequency())

  func now() -> Double { Double(SDL_GetPerformanceCounter() - start) / frequency }
}
