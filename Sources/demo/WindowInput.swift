import LoaderSDL
import SwiftLoaderSupport

/// What the window's keys and clicks do to the scene, at the time they are stamped with:
/// Space toggles the seed's loader (the grid and the sprites: all), `A` all, a click the
/// loader under the pointer (the topmost sprite's where they overlap), `+` / `-` double and
/// halve the grid, `B` the next backend, `[` / `]` halve and double the speed (within
/// `DemoOptions.speedRange`), `M` reduced motion. The window's own keys (HUD, keys panel,
/// screenshot, recording) are `WindowExtras`'.
struct WindowInput {
  enum Outcome: Equatable {
    case handled
    case quit
  }

  /// `zoom` is `--zoom`: window points per scene point, for the click lookup.
  func handle(
    _ event: WindowCommand, scene: LoaderScene, layout: SceneLayout, window: LoaderWindow,
    zoom: Double = 1, at t: Double
  ) throws(LoaderField.Error) -> Outcome {
    switch event {
    case .quit: return .quit
    case .toggleAnimating:
      if scene.kind == .seed {
        try scene.toggle(loader: 0, at: t)
      } else {
        try scene.toggleAll(at: t)
      }
    case .toggleAll: try scene.toggleAll(at: t)
    case .click(let x, let y):
      if scene.kind == .sprites {
        // Sprites overlap: the field's hit test finds the topmost under the pointer.
        let point = SDL_FPoint(x: Float(x / zoom), y: Float(y / zoom))
        let at = "(\(FlagValue.text(Double(point.x))), \(FlagValue.text(Double(point.y))))"
        guard let id = scene.field.loader(at: point) else {
          printError("demo: click at \(at): no loader there")
          return .handled
        }
        try scene.toggle(id, at: t)
        let f = try scene.field.frame(of: id)
        let frame = [f.x, f.y, f.w, f.h].map { FlagValue.text(Double($0)) }
        printError(
          "demo: click at \(at): loader \(scene.field.loaders.firstIndex(of: id) ?? -1) in"
            + " (\(frame.joined(separator: ", "))), now "
            + (try scene.field.isAnimating(id) ? "on" : "off"))
      } else if let i = layout.loader(atX: x / zoom, y: y / zoom) {
        try scene.toggle(loader: i, at: t)
      }
    case .grow, .shrink:
      guard scene.kind == .grid else { return .handled }
      try scene.resize(to: event == .grow ? scene.count * 2 : scene.count / 2, at: t)
      printError("demo: \(scene.count) loaders")
    case .cycleBackend:
      var next = (scene.field.activeBackend ?? .spans).next
      // `gpu` only where the renderer runs it (SDL's OpenGL renderers).
      if next == .gpu, ![.softwareGL, .hardwareGL].contains(window.loaders.kind) {
        next = next.next
      }
      scene.field.backend = next
      printError("demo: backend \(next.rawValue)")
    case .slower, .faster:
      let range = DemoOptions.speedRange
      let wanted = scene.field.speed * (event == .faster ? 2 : 0.5)
      let speed = min(max(wanted, range.lowerBound), range.upperBound)
      try scene.field.setSpeed(speed, at: t)
      printError("demo: speed \(FlagValue.text(speed))x")
    case .toggleReducedMotion:
      let cycle = [("off", LoaderField.Motion.full)] + DemoOptions.reducedMotions
      let now = cycle.firstIndex { $0.1 == scene.field.motion } ?? 0
      let next = cycle[(now + 1) % cycle.count]
      try scene.field.setMotion(next.1)
      printError("demo: reduced motion \(next.0)")
    case .renderTargetsReset:
      break  // `LoaderWindow.nextEvent()` told its `LoaderRenderer`
    case .toggleHUD, .toggleKeys, .screenshot, .toggleRecording:
      break
    }
    return .handled
  }
}
