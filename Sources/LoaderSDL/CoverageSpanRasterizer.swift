import CSDL2
import Foundation
import LoaderCore

/// The CPU backend: blends precomputed 8-bit coverage masks span by span, in Swift, straight
/// into the pixels the software renderer draws into (`--backend spans`).
///
/// Every ring of one shape differs only by rotation and position, so `RingCoverageAtlas`
/// keeps one mask per rotation phase and sub-pixel offset, and a frame is copies of masks:
/// per span, pixels are blended `dst = src * a * c + dst * (1 - a * c)` (coverage `c`, the
/// colour's straight alpha `a`: source-over, as every backend). Rings whose masks miss the
/// target are culled; rings that cross its edge are clipped span by span. Rings larger than
/// `RingCoverageAtlas.maximumRadius` are refused with an error.
///
/// A frame's bands are blended on `threads` threads (`RingBandBuckets`: each band's rows
/// belong to one worker, so nothing is locked and the output does not depend on the count).
///
/// Where the pixels go, in order of preference:
/// 1. a surface given by `attach(surface:)` (an `OffscreenCanvas`);
/// 2. the window surface, when `renderer` is a window's software renderer drawing to the
///    window (SDL's software renderer draws there and presents it);
/// 3. otherwise a streaming texture the size of the output, cleared to transparent, drawn
///    premultiplied and composited over the target with one `SDL_RenderCopy` (straight
///    alpha where the renderer lacks custom blend modes, as SDL's software renderer does).
public final class CoverageSpanRasterizer: RingRasterizer {
  public let name = "spans"
  private var atlases: [RingCoverageAtlas] = []
  private var attachedSurface: UnsafeMutablePointer<SDL_Surface>?
  private var overlay: OpaquePointer?
  /// The renderer `overlay` was made on: a texture is only ever destroyed through its own.
  private var overlayRenderer: OpaquePointer?
  private var overlaySize = (width: 0, height: 0)
  private var overlayBlend = SDL_BLENDMODE_BLEND
  /// Per frame: where each visible ring lands, and the band order they are drawn in.
  var placements: [Placement] = []
  let bands = RingBandBuckets()

  /// Threads a frame's bands are blended on: all cores by default, 1 for the calling thread
  /// alone. Each band is one worker's, so no pixel is written by two and the frame is byte for
  /// byte the one thread's, whatever the count.
  public var threads: Int

  /// The workers of `threads`, made on the first frame that uses more than one.
  private var workers: BandWorkerPool?

  public init(threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
    self.threads = max(1, threads)
  }

  /// The pool for `threads` threads, made anew when the count changed.
  func pool(threads: Int) -> BandWorkerPool {
    if let w = workers, w.threads == threads { return w }
    let w = BandWorkerPool(threads: threads)
    workers = w
    return w
  }

  deinit {
    if let t = overlay { SDL_DestroyTexture(t) }
  }

  public func attach(surface: UnsafeMutablePointer<SDL_Surface>?) {
    attachedSurface = surface
  }

  public func renderTargetsDidReset(on renderer: OpaquePointer) {
    // The texture's contents are gone: make a new one. On a new renderer the old one went
    // with its renderer, and is only forgotten.
    if let t = overlay, overlayRenderer == renderer { SDL_DestroyTexture(t) }
    overlay = nil
  }

  public func draw(
    _ rings: UnsafeBufferPointer<RingInstance>, shape: DashedRing, on renderer: OpaquePointer
  ) throws(SDLError) {
    guard try shape.isDrawable(by: name, limit: RingCoverageAtlas.maximumRadius) else { return }
    let atlas = self.atlas(for: shape)
    atlas.trimIfOverBudget()
    if let surface = directSurface(for: renderer) {
      SDL_RenderFlush(renderer)  // the software renderer batches: land its work first
      try draw(rings, atlas: atlas, into: surface)
      return
    }
    try drawThroughOverlay(rings, atlas: atlas, on: renderer)
  }

  /// The atlas of `shape`, made on first use; a handful of shapes (one per density) are kept.
  private func atlas(for shape: DashedRing) -> RingCoverageAtlas {
    if let a = atlases.first, a.shape == shape { return a }
    if let i = atlases.firstIndex(where: { $0.shape == shape }) {
      let a = atlases.remove(at: i)
      atlases.insert(a, at: 0)
      return a
    }
    let a = RingCoverageAtlas(shape: shape)
    atlases.insert(a, at: 0)
    if atlases.count > 4 { atlases.removeLast() }
    return a
  }

  private func directSurface(for renderer: OpaquePointer) -> UnsafeMutablePointer<SDL_Surface>? {
    if let s = attachedSurface { return Self.isWritable(s) ? s : nil }
    guard SDL_GetRenderTarget(renderer) == nil, let window = SDL_RenderGetWindow(renderer)
    else { return nil }
    var info = SDL_RendererInfo()
    guard SDL_GetRendererInfo(renderer, &info) == 0, let name = info.name,
      String(cString: name) == "software", let s = SDL_GetWindowSurface(window)
    else { return nil }
    return Self.isWritable(s) ? s : nil
  }

  /// 32-bit pixels with alpha, red, green, blue from the top byte down (alpha may be unused).
  private static func isWritable(_ s: UnsafeMutablePointer<SDL_Surface>) -> Bool {
    guard let f = s.pointee.format else { return false }
    let format = f.pointee.format
    return format == SDL_PIXELFORMAT_ARGB8888.rawValue || format == SDL_PIXELFORMAT_RGB888.rawValue
  }

  private func draw(
    _ rings: UnsafeBufferPointer<RingInstance>, atlas: RingCoverageAtlas,
    into surface: UnsafeMutablePointer<SDL_Surface>
  ) throws(SDLError) {
    let mustLock = csdl_must_lock(surface) != 0
    if mustLock {
      guard SDL_LockSurface(surface) == 0 else { throw SDLError("SDL_LockSurface") }
    }
    defer { if mustLock { SDL_UnlockSurface(surface) } }
    guard let pixels = surface.pointee.pixels else { return }
    let target = PixelTarget(
      base: pixels, width: Int(surface.pointee.w), height: Int(surface.pointee.h),
      pitch: Int(surface.pointee.pitch))
    blend(rings, atlas: atlas, into: target)
  }

  private func drawThroughOverlay(
    _ rings: UnsafeBufferPointer<RingInstance>, atlas: RingCoverageAtlas, on renderer: OpaquePointer
  ) throws(SDLError) {
    var w: Int32 = 0
    var h: Int32 = 0
    if let target = SDL_GetRenderTarget(renderer) {
      guard SDL_QueryTexture(target, nil, nil, &w, &h) == 0 else {
        throw SDLError("SDL_QueryTexture")
      }
    } else {
      guard SDL_GetRendererOutputSize(renderer, &w, &h) == 0 else {
        throw SDLError("SDL_GetRendererOutputSize")
      }
    }
    guard w > 0, h > 0 else { return }
    if overlayRenderer != renderer { overlay = nil }
    if overlay == nil || overlaySize != (Int(w), Int(h)) {
      if let t = overlay { SDL_DestroyTexture(t) }
      overlay = nil
      guard
        let t = SDL_CreateTexture(
          renderer, SDL_PIXELFORMAT_ARGB8888.rawValue,
          Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), w, h)
      else { throw SDLError("SDL_CreateTexture") }
      // The overlay holds premultiplied colour: composite it with "over".
      let premultiplied = SDL_ComposeCustomBlendMode(
        SDL_BLENDFACTOR_ONE, SDL_BLENDFACTOR_ONE_MINUS_SRC_ALPHA, SDL_BLENDOPERATION_ADD,
        SDL_BLENDFACTOR_ONE, SDL_BLENDFACTOR_ONE_MINUS_SRC_ALPHA, SDL_BLENDOPERATION_ADD)
      overlayBlend =
        SDL_SetTextureBlendMode(t, premultiplied) == 0 ? premultiplied : SDL_BLENDMODE_BLEND
      SDL_SetTextureBlendMode(t, overlayBlend)
      overlay = t
      overlayRenderer = renderer
      overlaySize = (Int(w), Int(h))
    }
    guard let texture = overlay else { return }
    var raw: UnsafeMutableRawPointer?
    var pitch: Int32 = 0
    guard SDL_LockTexture(texture, nil, &raw, &pitch) == 0, let base = raw else {
      throw SDLError("SDL_LockTexture")
    }
    // A locked streaming texture's old contents are undefined: start transparent.
    for y in 0..<Int(h) {
      (base + y * Int(pitch)).initializeMemory(as: UInt32.self, repeating: 0, count: Int(w))
    }
    let target = PixelTarget(base: base, width: Int(w), height: Int(h), pitch: Int(pitch))
    if overlayBlend == SDL_BLENDMODE_BLEND {
      blendStraight(rings, atlas: atlas, into: target)
    } else {
      blend(rings, atlas: atlas, into: target)
    }
    SDL_UnlockTexture(texture)
    guard SDL_RenderCopy(renderer, texture, nil, nil) == 0 else { throw SDLError("SDL_RenderCopy") }
  }
}

/// 32-bit pixels the CPU writes: `height` rows of `width` pixels, rows `pitch` bytes apart.
struct PixelTarget {
  var base: UnsafeMutableRawPointer
  var width: Int
  var height: Int
  var pitch: Int
}
