import CSDL2
import Foundation
import LoaderCore
import LoaderSDL

/// The interactive demo: the scene animating in a window until Esc or close.
///
/// Time is seconds since the window opened, from SDL's performance counter. `--toggle`
/// times are applied as the clock passes them; Space flips `isAnimating` now, with
/// SwiftUI's semantics (a new schedule from ring 0, running turns finish).
struct WindowRun {
  var options: DemoOptions

  /// Opens the window; throws when no window can be made (the caller goes headless).
  func open() throws(SDLError) -> LoaderWindow {
    let w = try LoaderWindow(
      title: "LoaderView", width: Int(options.width.rounded()),
      height: Int(options.height.rounded()))
    if let reason = w.softwareFallbackReason {
      printError("demo: no accelerated renderer (\(reason)); using the software renderer")
    }
    return w
  }

  func run(in window: LoaderWindow) throws(SDLError) {
    var scene = RowScene(palette: options.theme.palette)
    var pending = options.toggles[...]
    if pending.isEmpty { scene.setAnimating(true, at: 0) }
    let drawer = FrameDrawer(rasterizer: try options.backend.makeRasterizer(for: window.renderer))
    let start = SDL_GetPerformanceCounter()
    let frequency = Double(SDL_GetPerformanceFrequency())
    var isOn = false
    func now() -> Double { Double(SDL_GetPerformanceCounter() - start) / frequency }

    while true {
      let t = now()
      while let next = pending.first, next <= t {
        isOn.toggle()
        scene.setAnimating(isOn, at: next)
        pending = pending.dropFirst()
      }
      while let event = window.nextEvent() {
        switch event {
        case .quit: return
        case .toggleAnimating:
          // A toggle by hand replaces whatever `--toggle` had left to do.
          pending = []
          scene.setAnimating(!scene.isAnimating, at: t)
          isOn = scene.isAnimating
        case .renderTargetsReset:
          drawer.rasterizer.renderTargetsDidReset(on: window.renderer)
        }
      }
      // Lay out in points, draw in pixels: the window's own density, not --scale.
      let points = window.pointSize
      try drawer.draw(
        scene, at: t, width: Double(points.width), height: Double(points.height),
        scale: window.pixelDensity, on: window.renderer)
      window.present()
      if !window.hasVSync {
        // No vsync to wait on: pace to about 60 frames a second instead of spinning.
        let spent = now() - t
        if spent < 1.0 / 60 { SDL_Delay(UInt32((1.0 / 60 - spent) * 1000)) }
      }
    }
  }
}
