import CSDL2
import Foundation
import LoaderCore
import LoaderSDL

/// The interactive demo: the scene animating in a window until Esc or close.
///
/// A `FixedStepLoop` on SDL's performance counter runs the engine's steps (`--toggle` and
/// `--toggle-random` toggles applied inside the steps that reach them) and each frame is drawn
/// at the loop's `renderTime`, where the engine's angles are exact. Keys and clicks are
/// stamped with the loop's `inputTime`.
struct WindowRun {
  var options: DemoOptions

  /// Opens the window; throws when no window can be made (the caller goes headless).
  func open() throws(SDLError) -> LoaderWindow {
    let w = try LoaderWindow(
      title: "LoaderView", width: Int(options.width.rounded()),
      height: Int(options.height.rounded()), fullscreen: options.fullscreen,
      vsync: options.vsync, renderDriver: options.renderer)
    if let reason = w.softwareFallbackReason {
      printError("demo: no accelerated renderer (\(reason)); using the software renderer")
    }
    return w
  }

  func run(in window: LoaderWindow) throws(DrawFailure) {
    var scene: LoaderScene
    do {
      scene = try LoaderScene(
        kind: options.scene, count: options.count, palette: options.theme.palette,
        script: options.script)
    } catch {
      throw DrawFailure(description: error.description)
    }
    var backend =
      options.backend
      ?? .preferred(accelerated: window.isAccelerated, glRenderer: window.glRendererName)
    let drawer: FrameDrawer
    do {
      drawer = FrameDrawer(rasterizer: try backend.makeRasterizer(for: window.renderer))
    } catch {
      throw DrawFailure(description: error.description)
    }
    let how =
      options.backend == nil ? "the fastest at the quality bar on this renderer" : "--backend"
    let kind =
      window.isAccelerated
      ? "accelerated\(window.glRendererName.map { ", \($0)" } ?? "")" : "software"
    printError(
      "demo: \(window.rendererName) renderer (\(kind)), backend \(backend.rawValue) (\(how))")
    let start = SDL_GetPerformanceCounter()
    let frequency = Double(SDL_GetPerformanceFrequency())
    func now() -> Double { Double(SDL_GetPerformanceCounter() - start) / frequency }
    var loop: FixedStepLoop
    do {
      // Up to a quarter second of steps per frame, so a slow frame catches up in one go.
      loop = try FixedStepLoop(
        dt: LoaderScene.stepLength, maxFrameTime: 0.25,
        maxStepsPerFrame: Int((0.25 / LoaderScene.stepLength).rounded(.up)), clock: now)
    } catch {
      throw DrawFailure(description: error.description)
    }
    var layout: SceneLayout? = nil
    var status = StatusLine()

    while true {
      let frameStart = now()
      do {
        try loop.advance { try scene.step() }
      } catch {
        throw DrawFailure(description: "\(error)")
      }
      let points = window.pointSize
      let size = (width: Double(max(points.width, 1)), height: Double(max(points.height, 1)))
      if layout == nil || layout?.count != scene.count || layout?.width != size.width
        || layout?.height != size.height
      {
        do {
          layout = try scene.layout(width: size.width, height: size.height)
        } catch {
          throw DrawFailure(description: error.description)
        }
      }
      guard let currentLayout = layout else { continue }

      let t = loop.inputTime
      do {
        while let event = window.nextEvent() {
          switch event {
          case .quit: return
          case .toggleAnimating:
            if scene.kind == .seed {
              try scene.toggle(loader: 0, at: t)
            } else {
              try scene.toggleAll(at: t)
            }
          case .toggleAll: try scene.toggleAll(at: t)
          case .click(let x, let y):
            if let i = currentLayout.loader(atX: x, y: y) { try scene.toggle(loader: i, at: t) }
          case .grow, .shrink:
            guard scene.kind == .grid else { continue }
            try scene.resize(to: event == .grow ? scene.count * 2 : scene.count / 2, at: t)
            printError("demo: \(scene.count) loaders")
          case .cycleBackend:
            // Build the next backend first: the current one keeps drawing if that fails.
            let next = backend.next
            do {
              drawer.replaceRasterizer(with: try next.makeRasterizer(for: window.renderer))
              backend = next
              printError("demo: backend \(backend.rawValue)")
            } catch {
              printError("demo: cannot switch to backend \(next.rawValue): \(error)")
            }
          case .renderTargetsReset:
            drawer.rasterizer.renderTargetsDidReset(on: window.renderer)
          }
        }
      } catch {
        throw DrawFailure(description: error.description)
      }
      if layout?.count != scene.count { continue }  // laid out again before drawing

      // Lay out in points, draw in pixels: the window's own density, not --scale.
      try drawer.draw(
        scene, at: loop.renderTime, layout: currentLayout, scale: window.pixelDensity,
        on: window.renderer)
      window.present()
      if let line = status.frameDone(at: now(), scene: scene, backend: backend) {
        SDL_SetWindowTitle(window.window, line)
        printError("demo: \(line)")
      }
      if !window.hasVSync {
        // No vsync to wait on: pace to about 60 frames a second instead of spinning.
        let spent = now() - frameStart
        if spent < 1.0 / 60 { SDL_Delay(UInt32((1.0 / 60 - spent) * 1000)) }
      }
    }
  }
}

/// Frames per second, reported about once a second.
struct StatusLine {
  private var frames = 0
  private var since: Double? = nil

  /// Counts a frame; returns the status once a second has passed since the last one.
  mutating func frameDone(at t: Double, scene: LoaderScene, backend: RingBackend) -> String? {
    frames += 1
    guard let s = since else {
      since = t
      frames = 0
      return nil
    }
    guard t - s >= 1 else { return nil }
    let fps = Double(frames) / (t - s)
    frames = 0
    since = t
    let what = scene.kind == .seed ? "seed" : "grid of \(scene.count)"
    return "LoaderView: \(what), backend \(backend.rawValue), \(String(format: "%.1f", fps)) fps"
  }
}
