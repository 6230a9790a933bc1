import CSwiftLoaderSDL2

/// The render state a host set, read once per draw, and the pixel space the loaders draw in
/// meanwhile.
///
/// SDL maps a logical point `p` of the current target to the output pixel
/// ```
/// pixel = floor(viewport) + p * scale            (viewport in pixels, scale = render scale)
/// ```
/// where the render scale carries `SDL_RenderSetScale` and `SDL_RenderSetLogicalSize`, and
/// the drawing is clipped to the viewport and the clip rect. `enter` saves the scale, the draw
/// colour and blend mode, sets the scale to 1 so the backends address whole output pixels
/// (SDL applies the scale when a call is queued, so the host's earlier calls keep theirs), and
/// reads the viewport and clip rect back exactly, in pixels, never through a getter that
/// rounds at the host's scale (`SDL_RenderGetViewport` floors `viewport / scale`). `restore`
/// puts back what it saved; the viewport, clip rect and target are never changed.
package struct HostRenderState {
  package let renderer: OpaquePointer
  /// The host's render scale: output pixels per logical unit on each axis.
  package let scaleX: Float
  package let scaleY: Float
  private let color: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)
  private let blendMode: SDL_BlendMode
  /// The pixels the loaders may change, as `PixelRegion` documents.
  package let region: PixelRegion

  /// Saves the state and switches the renderer to pixel space (scale 1) until `restore`.
  package static func enter(_ renderer: OpaquePointer) -> HostRenderState {
    HostRenderState(renderer)
  }

  private init(_ renderer: OpaquePointer) {
    self.renderer = renderer
    var sx: Float = 1
    var sy: Float = 1
    SDL_RenderGetScale(renderer, &sx, &sy)
    scaleX = sx
    scaleY = sy
    var r: UInt8 = 0
    var g: UInt8 = 0
    var b: UInt8 = 0
    var a: UInt8 = 0
    SDL_GetRenderDrawColor(renderer, &r, &g, &b, &a)
    color = (r, g, b, a)
    var mode = SDL_BLENDMODE_NONE
    SDL_GetRenderDrawBlendMode(renderer, &mode)
    blendMode = mode
    SDL_RenderSetScale(renderer, 1, 1)
    // At scale 1 the getters floor the stored pixel values, as SDL's own commands do.
    var viewport = SDL_Rect()
    SDL_RenderGetViewport(renderer, &viewport)
    var visible = SDL_Rect(x: 0, y: 0, w: viewport.w, h: viewport.h)
    if SDL_RenderIsClipEnabled(renderer) == SDL_TRUE {
      var clip = SDL_Rect()
      SDL_RenderGetClipRect(renderer, &clip)
      var cut = SDL_Rect()
      if SDL_IntersectRect(&visible, &clip, &cut) == SDL_TRUE {
        visible = cut
      } else {
        visible = SDL_Rect(x: 0, y: 0, w: 0, h: 0)
      }
    }
    region = PixelRegion(
      originX: Int(viewport.x), originY: Int(viewport.y), x: Int(visible.x), y: Int(visible.y),
      width: Int(visible.w), height: Int(visible.h))
  }

  /// Puts back the scale, draw colour and draw blend mode `enter` found.
  package func restore() {
    SDL_RenderSetScale(renderer, scaleX, scaleY)
    SDL_SetRenderDrawColor(renderer, color.r, color.g, color.b, color.a)
    SDL_SetRenderDrawBlendMode(renderer, blendMode)
  }
}
