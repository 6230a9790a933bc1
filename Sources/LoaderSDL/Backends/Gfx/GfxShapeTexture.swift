import CSwiftLoaderSDL2
import LoaderPixels

/// One ring shape painted once by SDL2_gfx, white, at angle 0 and `supersampling` (2) times the
/// shape's size, into one texture sampled linearly: an accelerated renderer's `gfx` cache.
/// Every ring of the shape is an upright square over the texture turned back by the ring's
/// angle (`SDL_RenderGeometry`, the ring's colour as the vertices'), shrunk back to its size:
/// the GPU's filtering does the rotation and sub-pixel position that `GfxAtlas` keeps cells for.
///
/// The ink lies within `o = ceil(S (r + w/2) + f)` texels of the texture's centre (`S` the
/// supersampling, `f` the fringe), so a ring centred at `c` (target pixels) is the square
/// `c + (+-h, +-h)`, `h = o / S`, and the pixel at `c + p` samples the texture at its centre
/// plus `S R(-a) p` (the ring turned `a` degrees clockwise). The texture is `side x side`,
/// `side = 2 ceil(sqrt(2) o)`, transparent beyond the ink, so that point stays inside it at
/// every angle (SDL refuses texture coordinates outside 0...1). Upright squares, not turned
/// ones: fewer partly covered blocks along their edges for a software GL, the same samples.
final class GfxShapeTexture: RingShapeCache {
  /// nil once closed.
  private(set) var texture: OpaquePointer?
  /// The square's half side, target pixels: `o / S`.
  let half: Float
  let side: Int
  /// Texture coordinates a target pixel away from the ring's centre moves: `S / side`.
  let texturePerPixel: Float

  /// Texels per target pixel on each axis: 2, or 1 for a ring whose texture at 2 would take
  /// more than `fineBytes` or exceed the renderer's texture side (rings hundreds of pixels
  /// across, whose edges filtering blurs the least). Decided by the shape and the renderer
  /// alone, never by a cache's budget: the pixels do not depend on it.
  let supersampling: Double

  /// The most a texture at twice the ring's size takes (a ring about 1,400 px across).
  static let fineBytes = 32 << 20

  /// `fineBytes`: `Self.fineBytes` but in tests.
  init(
    shape: DashedRing, renderer: OpaquePointer, traits: RendererTraits,
    fineBytes: Int = GfxShapeTexture.fineBytes
  ) throws(SDLError) {
    let limit = traits.maximumTextureSide
    // `ink`: the ink's reach `o`; `origin`: the texture's centre, `side / 2`.
    func side(at scale: Double) -> (side: Int, origin: Int, ink: Int) {
      let s = shape.scaled(by: scale)
      let fringe = DashedRing.DistanceTable.fringeReach(halfWidth: s.halfWidth)
      let ink = (s.radius + s.halfWidth + fringe).rounded(.up)
      let origin = Int((ink * 2.0.squareRoot()).rounded(.up))
      return (2 * origin, origin, Int(ink))
    }
    let fine = side(at: 2)
    let fits = fine.side * fine.side * 4 <= fineBytes && (limit == 0 || fine.side <= limit)
    supersampling = fits ? 2 : 1
    let big = shape.scaled(by: supersampling)
    let reach = big.radius + big.halfWidth
    let (_, origin, ink) = fits ? fine : side(at: 1)
    self.side = 2 * origin
    let side = self.side
    guard reach.isFinite, limit == 0 || side <= limit else {
      throw SDLError(
        "gfx backend",
        message: "a ring of \(Int(shape.radius + shape.halfWidth)) px needs a \(side) px"
          + " texture, over the renderer's \(limit) px", reason: .tooLarge)
    }
    let t = try GfxAtlasCellPainter.texture(
      of: big, side: side, center: Float(origin), on: renderer)
    texture = t
    half = Float(Double(ink) / supersampling)
    texturePerPixel = Float(supersampling / Double(side))
  }

  deinit { close() }

  /// Destroys the texture (its renderer is going, or lost its textures).
  func close() {
    if let t = texture { SDL_DestroyTexture(t) }
    texture = nil
  }

  /// The texture: `side x side x 4` bytes.
  var bytes: Int { texture == nil ? 0 : side * side * 4 }

  var cullingReach: Float { half + 1 }

  /// The texture coordinate, each axis within 0...1, that the point `(dx, dy)` target pixels
  /// from a ring's centre samples when the ring is turned by the angle of cosine `c` and sine
  /// `s`.
  @inline(__always)
  func textureCoordinate(dx: Float, dy: Float, cos c: Float, sin s: Float) -> SDL_FPoint {
    let k = texturePerPixel
    // Rounding cannot carry a point of the square past the texture's edge by more than a
    // float's last bits; SDL refuses any.
    return SDL_FPoint(
      x: min(1, max(0, 0.5 + k * (dx * c + dy * s))),
      y: min(1, max(0, 0.5 + k * (dy * c - dx * s))))
  }
}
