import LoaderSDL

extension HUD.Info {
  /// What `scene` shows now, drawn through `renderer` (its SDL driver's name). `animating` is
  /// counted by the caller: a walk over every loader, which a window does not do every frame.
  init(scene: LoaderScene, animating: Int, renderer: String) {
    self.init(
      loaders: scene.count, rings: scene.count * scene.field.style.ringCount,
      animating: animating, backend: scene.field.activeBackend?.rawValue ?? "none",
      renderer: renderer, speed: scene.field.speed,
      drawnRings: scene.kind == .sprites ? scene.field.drawnRingCount : nil,
      shapes: scene.kind == .sprites ? scene.field.drawnShapeCount : nil)
  }
}

extension LoaderScene {
  /// Loaders whose `isAnimating` is true.
  var animatingCount: Int {
    field.loaders.count { (try? field.isAnimating($0)) ?? false }
  }
}
