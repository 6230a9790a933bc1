import LoaderSDL

extension HUD.Info {
  /// What `scene` shows now, drawn through `renderer` (its SDL driver's name). `animating` is
  /// counted by the caller: a walk over every loader, which a window does not do every frame.
  /// `gpuFallback`: why the renderer draws without `gpu` on a GPU
  /// (`LoaderRenderer.gpuFallbackReason`), shown beside the backend.
  init(scene: LoaderScene, animating: Int, renderer: String, gpuFallback: String? = nil) {
    let backend = scene.field.activeBackend?.rawValue ?? "none"
    self.init(
      loaders: scene.count, rings: scene.count * scene.field.style.ringCount,
      animating: animating,
      backend: gpuFallback.map { "\(backend) (gpu off: \(HUD.Info.shortened($0)))" } ?? backend,
      renderer: renderer, speed: scene.field.speed,
      drawnRings: scene.kind == .sprites ? scene.field.drawnRingCount : nil,
      shapes: scene.kind == .sprites ? scene.field.drawnShapeCount : nil)
  }
}

extension HUD.Info {
  /// A reason on the HUD's line: without its leading "the gpu " (the line says "gpu off"),
  /// cut to 64 characters, an ellipsis marking the cut.
  static func shortened(_ reason: String) -> String {
    let text = reason.hasPrefix("the gpu ") ? String(reason.dropFirst(8)) : reason
    return text.count <= 64 ? text : String(text.prefix(63)) + "\u{2026}"
  }
}

extension LoaderScene {
  /// Loaders whose `isAnimating` is true.
  var animatingCount: Int {
    field.loaders.count { (try? field.isAnimating($0)) ?? false }
  }
}
