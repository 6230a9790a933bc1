import CSDL2
import LoaderCore

/// The rasterizers `--backend` can pick, by name.
///
/// Each case makes its `RingRasterizer` for a given renderer, so a backend that keeps
/// textures on the renderer can create them up front.
public enum RingBackend: String, CaseIterable, Sendable {
  /// SDL2_gfx primitives: exact per-pixel coverage drawn with `hlineRGBA` and `pixelRGBA`
  /// (`GfxRingRasterizer`).
  case gfx
  /// Precomputed coverage masks blended span by span in Swift into the target's pixels
  /// (`CoverageSpanRasterizer`).
  case spans
  /// Every dash tessellated, with an antialiasing fringe, into one `SDL_RenderGeometry` call
  /// per frame (`GeometryRingRasterizer`): for GPU renderers; SDL's software renderer rounds
  /// its vertices to whole pixels, which costs it the quality bar.
  case geometry

  /// Every name `--backend` accepts, comma-separated, in declaration order.
  public static var namesList: String { allCases.map(\.rawValue).joined(separator: ",") }

  /// `surface`: the surface `renderer` draws into when the caller owns it (an
  /// `OffscreenCanvas`'s), so CPU backends can write it directly (see `attach(surface:)`).
  public func makeRasterizer(
    for renderer: OpaquePointer, surface: UnsafeMutablePointer<SDL_Surface>? = nil
  ) throws(SDLError) -> any RingRasterizer {
    let r: any RingRasterizer =
      switch self {
      case .gfx: GfxRingRasterizer()
      case .spans: CoverageSpanRasterizer()
      case .geometry: GeometryRingRasterizer()
      }
    r.attach(surface: surface)
    return r
  }
}
