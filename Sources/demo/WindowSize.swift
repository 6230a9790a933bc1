import LoaderSDL

/// The window's container for the scene: laid out in scene points, drawn in pixels at
/// ```
/// pixelDensity = zoom * window density     (zoom = --zoom; density = pixels / window points)
/// ```
/// so `--zoom 3` shows everything three times as large, on a HiDPI display as sharp as the
/// display allows, and the scene's container is the window's size divided by the zoom.
struct WindowSize {
  let pointWidth: Double
  let pointHeight: Double
  let pixelDensity: Double

  init(of window: LoaderWindow, zoom: Double = 1) {
    let points = window.pointSize
    pointWidth = Double(max(points.width, 1)) / zoom
    pointHeight = Double(max(points.height, 1)) / zoom
    pixelDensity = window.pixelDensity * zoom
  }

  /// The whole window in scene points (the renderer's coordinates at scale `pixelDensity`).
  var pointFrame: SDL_FRect {
    SDL_FRect(x: 0, y: 0, w: Float(pointWidth), h: Float(pointHeight))
  }
}
