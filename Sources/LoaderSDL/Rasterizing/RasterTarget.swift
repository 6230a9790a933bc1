import CSwiftLoaderSDL2
import LoaderPixels

/// Where a draw goes: the renderer, what it can do, and the pixels that may change.
package struct RasterTarget {
  package let renderer: OpaquePointer
  /// Read once per `LoaderRenderer` (and again after a reset).
  package let traits: RendererTraits
  /// The visible pixels, viewport-relative (see `PixelRegion`).
  package let region: PixelRegion
  /// The surface the host made a software renderer on (`LoaderRenderer.surface`).
  let attachedSurface: UnsafeMutablePointer<SDL_Surface>?

  package init(
    renderer: OpaquePointer, traits: RendererTraits, region: PixelRegion,
    attachedSurface: UnsafeMutablePointer<SDL_Surface>? = nil
  ) {
    self.renderer = renderer
    self.traits = traits
    self.region = region
    self.attachedSurface = attachedSurface
  }

  /// The pixels the CPU may write directly while no render target is set: the attached
  /// surface, or the window surface of a software renderer; nil otherwise (and for formats
  /// other than 32-bit ARGB/XRGB).
  func writableSurface() -> UnsafeMutablePointer<SDL_Surface>? {
    guard SDL_GetRenderTarget(renderer) == nil else { return nil }
    let s: UnsafeMutablePointer<SDL_Surface>?
    if let attached = attachedSurface {
      s = attached
    } else if traits.isSoftware, let window = SDL_RenderGetWindow(renderer) {
      s = SDL_GetWindowSurface(window)
    } else {
      s = nil
    }
    guard let s, let f = s.pointee.format else { return nil }
    let format = f.pointee.format
    let ok =
      format == SDL_PIXELFORMAT_ARGB8888.rawValue || format == SDL_PIXELFORMAT_RGB888.rawValue
    return ok ? s : nil
  }
}
