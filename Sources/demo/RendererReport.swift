import CSwiftLoaderSDL2
import Foundation
import LoaderSDL

/// `--info`: what SDL offers here and what the window would get, as SDL's own test programs
/// print it (`SDL_test_common`'s `--info render`).
enum RendererReport {
  /// The report's lines; throws when no window (hence no renderer) can be made.
  static func lines(for options: DemoOptions) throws(SDLError) -> [String] {
    let size = WindowRun.windowSize(options)
    let window = try LoaderWindow(
      title: "LoaderView", width: size.width, height: size.height, fullscreen: options.fullscreen,
      vsync: options.vsync, renderDriver: options.renderer, hidden: true)
    var out = ["video driver: \(SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "none")"]
    out.append("render drivers (SDL's order of preference):")
    out += RenderDriverInfo.available.map { "  " + $0.summary }
    let mine = RenderDriverInfo.of(renderer: window.renderer)
    out.append("window renderer: \(mine?.summary ?? window.rendererName)")
    if let gl = window.glRendererName { out.append("GL_RENDERER: \(gl)") }
    let rings = options.count * options.style.ringCount
    out.append(
      "default backend for \(rings) rings: \(window.loaders.backendDescription(rings: rings))")
    let px = window.pixelSize
    out.append("output: \(px.width)x\(px.height) px, \(window.pixelDensity) px per point")
    return out
  }
}
