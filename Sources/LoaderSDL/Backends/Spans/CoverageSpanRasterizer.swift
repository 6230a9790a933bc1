import CSwiftLoaderSDL2
import LoaderPixels

/// The CPU backend (`--backend spans`): LoaderPixels' `CoverageSpanKernel` (coverage masks
/// blended span by span in Swift) on an SDL renderer.
///
/// Where the pixels go, in order of preference, while no render target is set:
/// 1. the surface a host made its software renderer on (`LoaderRenderer.surface`, as an
///    `OffscreenCanvas` does);
/// 2. the window surface, when `renderer` is a window's software renderer;
/// 3. otherwise (and always under a render target) a streaming texture: the rings' bounding
///    box, cut to the visible region, is cleared to transparent in one shared texture, blended
///    premultiplied and composited with one `SDL_RenderCopy` 1:1 onto the same pixels (straight
///    alpha where the renderer lacks custom blend modes, as SDL's software renderer does). No
///    more pixels are uploaded than the box holds, whatever the window's size.
///
/// One instance draws on one renderer (its `LoaderRenderer`'s), which the texture belongs to.
package final class CoverageSpanRasterizer: RingRasterizer {
  package let name = "spans"
  package let maximumReach = RingMaskShape.maximumRadius
  /// Masks, bands and blending: the same kernel a `PixelBuffer` draw uses.
  let kernel = CoverageSpanKernel()
  private var overlay: OpaquePointer?
  /// `overlay`'s size; (0, 0) when there is none.
  private var overlaySize = (width: 0, height: 0)
  private var overlayBlend = SDL_BLENDMODE_BLEND

  /// The thread count the last frame was given (tests check a field's setting reaches it).
  package private(set) var threadsOfLastFrame = 0

  package init() {}

  deinit { close() }

  package func close() {
    if let t = overlay { SDL_DestroyTexture(t) }
    overlay = nil
    overlaySize = (0, 0)
  }

  package func makeCache(for shape: DashedRing, on target: RasterTarget, budgetBytes: Int)
    -> any RingShapeCache
  {
    RingMaskShape(shape: shape)
  }

  package var ownBytes: Int { overlaySize.width * overlaySize.height * 4 }

  /// The overlay goes when it is larger than `bytes`; the next draw through it makes one the
  /// size its rings need.
  package func trimOwnMemory(toBytes bytes: Int) {
    if ownBytes > bytes { close() }
  }

  package func renderTargetsDidReset() {
    // The texture's contents are gone: make a new one.
    close()
  }

  package func draw(
    _ frame: RasterFrame, on target: RasterTarget, stoppingWhen shouldStop: () -> Bool
  ) throws(SDLError) -> Bool {
    threadsOfLastFrame = frame.threads
    return try kernel.withShapes(of: frame) { (shapes) throws(SDLError) in
      try draw(frame, shapes: shapes, on: target)
    }
  }

  private func draw(_ frame: RasterFrame, shapes: FrameShapes, on target: RasterTarget)
    throws(SDLError) -> Bool
  {
    if let surface = target.writableSurface() {
      SDL_RenderFlush(target.renderer)  // the software renderer batches: land its work first
      try draw(frame, shapes: shapes, into: surface, region: target.region)
      return true
    }
    try drawThroughOverlay(frame, shapes: shapes, on: target)
    return true
  }

  private func draw(
    _ frame: RasterFrame, shapes: FrameShapes, into surface: UnsafeMutablePointer<SDL_Surface>,
    region: PixelRegion
  ) throws(SDLError) {
    // The visible region in the surface's pixels, cut to the surface.
    let left = max(0, region.originX + region.x)
    let top = max(0, region.originY + region.y)
    let right = min(Int(surface.pointee.w), region.originX + region.x + region.width)
    let bottom = min(Int(surface.pointee.h), region.originY + region.y + region.height)
    guard right > left, bottom > top else { return }
    let mustLock = surface.pointee.flags & UInt32(SDL_RLEACCEL) != 0  // SDL_MUSTLOCK
    if mustLock {
      guard SDL_LockSurface(surface) == 0 else { throw SDLError("SDL_LockSurface") }
    }
    defer { if mustLock { SDL_UnlockSurface(surface) } }
    guard let pixels = surface.pointee.pixels else { return }
    let pitch = Int(surface.pointee.pitch)
    let target = PixelTarget(
      base: pixels + top * pitch + left * 4, width: right - left, height: bottom - top,
      pitch: pitch, originPixelX: left - region.originX, originPixelY: top - region.originY)
    kernel.blend(frame, shapes: shapes, region: region, into: target, straight: false)
  }

  private func drawThroughOverlay(
    _ frame: RasterFrame, shapes: FrameShapes, on target: RasterTarget
  ) throws(SDLError) {
    let (renderer, region) = (target.renderer, target.region)
    guard
      let box = CoverageSpanKernel.bounds(
        of: frame.rings, reach: shapes.maximumReach, region: region)
    else {
      return
    }
    let side = target.traits.maximumTextureSide
    let texture = try overlay(on: renderer, holding: box.width, box.height, limit: side)
    var rect = SDL_Rect(x: 0, y: 0, w: Int32(box.width), h: Int32(box.height))
    var raw: UnsafeMutableRawPointer?
    var pitch: Int32 = 0
    guard SDL_LockTexture(texture, &rect, &raw, &pitch) == 0, let base = raw else {
      throw SDLError("SDL_LockTexture")
    }
    // A locked streaming texture's old contents are undefined: start transparent.
    for y in 0..<box.height {
      (base + y * Int(pitch)).initializeMemory(as: UInt32.self, repeating: 0, count: box.width)
    }
    let pixels = PixelTarget(
      base: base, width: box.width, height: box.height, pitch: Int(pitch),
      originPixelX: box.x, originPixelY: box.y)
    kernel.blend(
      frame, shapes: shapes, region: region, into: pixels,
      straight: overlayBlend == SDL_BLENDMODE_BLEND)
    SDL_UnlockTexture(texture)
    var destination = SDL_Rect(
      x: Int32(box.x), y: Int32(box.y), w: Int32(box.width), h: Int32(box.height))
    guard SDL_RenderCopy(renderer, texture, &rect, &destination) == 0 else {
      throw SDLError("SDL_RenderCopy")
    }
  }

  /// The shared streaming texture, at least `width x height`: grown in steps of 256 pixels a
  /// side (so a scene's boxes settle on one size).
  private func overlay(
    on renderer: OpaquePointer, holding width: Int, _ height: Int, limit side: Int
  ) throws(SDLError) -> OpaquePointer {
    if let t = overlay, overlaySize.width >= width, overlaySize.height >= height { return t }
    let w = max(overlaySize.width, (width + 255) / 256 * 256)
    let h = max(overlaySize.height, (height + 255) / 256 * 256)
    if let t = overlay { SDL_DestroyTexture(t) }
    overlay = nil
    overlaySize = (0, 0)
    let limit = side > 0 ? (side, side) : (16384, 16384)
    guard
      let t = SDL_CreateTexture(
        renderer, SDL_PIXELFORMAT_ARGB8888.rawValue,
        Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), Int32(min(w, limit.0)),
        Int32(min(h, limit.1)))
    else { throw SDLError("SDL_CreateTexture") }
    // The overlay holds premultiplied colour: composite it with "over".
    let premultiplied = SDL_ComposeCustomBlendMode(
      SDL_BLENDFACTOR_ONE, SDL_BLENDFACTOR_ONE_MINUS_SRC_ALPHA, SDL_BLENDOPERATION_ADD,
      SDL_BLENDFACTOR_ONE, SDL_BLENDFACTOR_ONE_MINUS_SRC_ALPHA, SDL_BLENDOPERATION_ADD)
    overlayBlend =
      SDL_SetTextureBlendMode(t, premultiplied) == 0 ? premultiplied : SDL_BLENDMODE_BLEND
    SDL_SetTextureBlendMode(t, overlayBlend)
    // Copies are 1:1 onto whole pixels; nearest sampling keeps a GPU from blurring them.
    SDL_SetTextureScaleMode(t, SDL_ScaleModeNearest)
    overlay = t
    overlaySize = (min(w, limit.0), min(h, limit.1))
    guard overlaySize.width >= width, overlaySize.height >= height else {
      throw SDLError(
        "spans backend",
        message: "a \(width)x\(height) px region exceeds the renderer's largest texture",
        reason: .tooLarge)
    }
    return t
  }
}
