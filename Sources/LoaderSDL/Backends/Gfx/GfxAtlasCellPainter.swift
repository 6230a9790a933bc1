import CSwiftLoaderSDL2
import LoaderCore

/// Paints one ring, white, as straight-alpha coverage through SDL2_gfx into a square CPU
/// surface it owns (SDL's software renderer on it): the picture an atlas cell holds.
///
/// The surface starts as transparent white, `0x00FFFFFF`. SDL2_gfx draws fully covered runs
/// opaque (no blending) and fringe pixels white at alpha `a = coverage`, blended over it:
/// ```
/// rgb = 255 * (1 - a) + 255 * a = 255,   alpha = 0 * (1 - a) + a = a
/// ```
/// so every pixel is white with alpha equal to its coverage, and the painted ring can be
/// tinted to any colour by a texture's colour modulation (`rgb * mod`), its colour alpha
/// applied by the alpha modulation, and composited source-over. A renderer that filters
/// the texture mixes only white with white, so no dark fringe appears.
package final class GfxAtlasCellPainter {
  /// The square surface's side in pixels.
  package let side: Int
  private let surface: UnsafeMutablePointer<SDL_Surface>
  private let renderer: OpaquePointer
  private let painter = GfxRingPainter()

  /// A painted ring: its pixels, and the smallest rectangle holding every pixel of nonzero
  /// alpha (`width == 0` when the ring left no ink at all).
  package struct Painting {
    /// The first pixel of the surface, `pitch` bytes a row, ARGB8888.
    package var pixels: UnsafeRawPointer
    package var pitch: Int
    package var ink: SDL_Rect
  }

  package init(side: Int) throws(SDLError) {
    guard
      let s = SDL_CreateRGBSurfaceWithFormat(
        0, Int32(side), Int32(side), 32, SDL_PIXELFORMAT_ARGB8888.rawValue)
    else { throw SDLError("SDL_CreateRGBSurfaceWithFormat") }
    guard let r = SDL_CreateSoftwareRenderer(s) else {
      SDL_FreeSurface(s)
      throw SDLError("SDL_CreateSoftwareRenderer")
    }
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND)
    surface = s
    renderer = r
    self.side = side
  }

  deinit {
    SDL_DestroyRenderer(renderer)
    SDL_FreeSurface(surface)
  }

  var bytes: Int { side * Int(surface.pointee.pitch) }

  /// Paints `shape` turned `degrees` clockwise with its centre at `(centerX, centerY)`
  /// (surface pixels, continuous). Valid until the next call.
  package func paint(_ shape: DashedRing, degrees: Float, centerX: Float, centerY: Float)
    throws(SDLError) -> Painting
  {
    guard let base = surface.pointee.pixels else {
      throw SDLError("GfxAtlasCellPainter", message: "surface has no pixels")
    }
    let pitch = Int(surface.pointee.pitch)
    for j in 0..<side {
      base.advanced(by: j * pitch).assumingMemoryBound(to: UInt32.self)
        .update(repeating: 0x00FF_FFFF, count: side)
    }
    let ring = RingInstance(
      centerX: centerX, centerY: centerY, angle: degrees, color: RGBAColor(hex: 0xFFFFFF))
    try painter.paint(ring, shape: shape, on: renderer)
    SDL_RenderFlush(renderer)
    var (x0, y0, x1, y1) = (side, side, -1, -1)
    for j in 0..<side {
      let row = base.advanced(by: j * pitch).assumingMemoryBound(to: UInt32.self)
      for i in 0..<side where row[i] >> 24 != 0 {
        x0 = min(x0, i)
        x1 = max(x1, i)
        y0 = min(y0, j)
        y1 = j
      }
    }
    let ink =
      x1 < 0
      ? SDL_Rect(x: 0, y: 0, w: 0, h: 0)
      : SDL_Rect(x: Int32(x0), y: Int32(y0), w: Int32(x1 - x0 + 1), h: Int32(y1 - y0 + 1))
    return Painting(pixels: UnsafeRawPointer(base), pitch: pitch, ink: ink)
  }

  /// `shape` painted white at angle 0, centred at `(center, center)`, into a new static
  /// texture of `side x side` on `renderer`, blended and sampled linearly: a shape's one
  /// texture (`GfxShapeTexture`, and the bench's sprite peer). The caller destroys it.
  package static func texture(
    of shape: DashedRing, side: Int, center: Float, on renderer: OpaquePointer
  ) throws(SDLError) -> OpaquePointer {
    // The painting's pixels are the painter's surface: the painter lives until they are
    // uploaded.
    let painter = try GfxAtlasCellPainter(side: side)
    defer { withExtendedLifetime(painter) {} }
    let painting = try painter.paint(shape, degrees: 0, centerX: center, centerY: center)
    guard
      let t = SDL_CreateTexture(
        renderer, SDL_PIXELFORMAT_ARGB8888.rawValue, Int32(SDL_TEXTUREACCESS_STATIC.rawValue),
        Int32(side), Int32(side))
    else { throw SDLError("SDL_CreateTexture(\(side)x\(side))") }
    guard SDL_UpdateTexture(t, nil, painting.pixels, Int32(painting.pitch)) == 0 else {
      SDL_DestroyTexture(t)
      throw SDLError("SDL_UpdateTexture")
    }
    SDL_SetTextureScaleMode(t, SDL_ScaleModeLinear)
    SDL_SetTextureBlendMode(t, SDL_BLENDMODE_BLEND)
    return t
  }
}
