import CSwiftLoaderSDL2
import LoaderPixels

/// One ring shape painted once by SDL2_gfx, white, at angle 0 and `supersampling` (2) times the
/// shape's size, into one texture sampled linearly: an accelerated renderer's `gfx` cache.
/// Every ring of the shape is a quad turned by its angle over the texture (`SDL_RenderGeometry`
/// with the ring's colour as the vertices' colour), shrunk back to its size: the GPU's
/// filtering does the rotation and the sub-pixel position that `GfxAtlas` keeps a cell for
/// each of, so the shape holds one small texture, painted once, whatever the angles and
/// positions.
///
/// The texture is `side x side` texels, `side = 2 ceil(S (r + w/2) + f)` (`S` the
/// supersampling, `f` the fringe), the ring's centre at its centre, so a ring centred at
/// `c` (target pixels) turned `a` degrees clockwise is the quad with corners
/// `c + R(a) (+-h, +-h)`, `h = side / (2 S)`.
final class GfxSpriteCell: RingShapeCache {
  /// nil once closed.
  private(set) var texture: OpaquePointer?
  /// The quad's half side, target pixels.
  let half: Float
  let side: Int

  /// Texels per target pixel on each axis: 2, or 1 for a ring whose texture at 2 would take
  /// more than `budgetBytes` or exceed the renderer's texture side (rings hundreds of pixels
  /// across, whose edges filtering blurs the least).
  let supersampling: Double

  init(shape: DashedRing, renderer: OpaquePointer, traits: RendererTraits, budgetBytes: Int)
    throws(SDLError)
  {
    let limit = traits.maximumTextureSide
    func side(at scale: Double) -> (side: Int, origin: Int) {
      let s = shape.scaled(by: scale)
      let fringe = DashedRing.DistanceTable.fringeReach(halfWidth: s.halfWidth)
      let origin = Int((s.radius + s.halfWidth + fringe).rounded(.up))
      return (2 * origin, origin)
    }
    let fine = side(at: 2)
    let fits = fine.side * fine.side * 4 <= budgetBytes && (limit == 0 || fine.side <= limit)
    supersampling = fits ? 2 : 1
    let big = shape.scaled(by: supersampling)
    let reach = big.radius + big.halfWidth
    let origin = fits ? fine.origin : side(at: 1).origin
    self.side = 2 * origin
    let side = self.side
    guard reach.isFinite, limit == 0 || side <= limit else {
      throw SDLError(
        "gfx backend",
        message: "a ring of \(Int(shape.radius + shape.halfWidth)) px needs a \(side) px"
          + " texture, over the renderer's \(limit) px")
    }
    let painter = try GfxAtlasCellPainter(side: side)
    let painting = try painter.paint(
      big, degrees: 0, centerX: Float(origin), centerY: Float(origin))
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
    texture = t
    half = Float(Double(origin) / supersampling)
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
}
