import LoaderSDL

/// The window's container for the scene: laid out in points, drawn in pixels at the window's
/// own density (not `--scale`).
struct WindowSize {
  let pointWidth: Double
  let pointHeight: Double
  let pixelDensity: Double

  init(of window: LoaderWindow) {
    let points = window.pointSize
    pointWidth = Double(max(points.width, 1))
    pointHeight = Double(max(points.height, 1))
    pixelDensity = window.pixelDensity
  }

  /// The whole window in output pixels.
  var pixelFrame: SDL_FRect {
    SDL_FRect(
      x: 0, y: 0, w: Float(pointWidth * pixelDensity), h: Float(pointHeight * pixelDensity))
  }
}
