import LoaderSDL

/// Frames per second, reported about once a second while frames are drawn, and once when the
/// window stops drawing (nothing moves).
struct StatusLine {
  private var frames = 0
  private var since: Double? = nil
  private var saidIdle = false

  /// Counts a frame; returns the status once a second has passed since the last one, or when
  /// the scene has just stopped moving.
  mutating func frameDone(at t: Double, scene: LoaderScene, idle: Bool) -> String? {
    let backend = scene.field.activeBackend?.rawValue ?? "none"
    let what =
      switch scene.kind {
      case .seed: "seed"
      case .grid: "grid of \(scene.count)"
      case .sprites: "\(scene.count) sprites"
      }
    if idle {
      frames = 0
      since = nil
      if saidIdle { return nil }
      saidIdle = true
      return "LoaderView: \(what), backend \(backend), stopped (waiting for input)"
    }
    saidIdle = false
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
    return "LoaderView: \(what), backend \(backend), \(String(format: "%.1f", fps)) fps"
  }
}
