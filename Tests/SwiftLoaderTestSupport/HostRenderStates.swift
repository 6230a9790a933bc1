// The render states an SDL host sets, and a loader row drawn under each as a host draws it.
//
// This file uses only `LoaderSDL`'s public API and declares only public types: the suite runs
// it in-process, and `HostConsumerTests` copies it, unchanged, into a package outside the
// repository that depends on this one by path, so both try the same states the same way.

import LoaderSDL

/// An SDL call of the host's own failed: its name and `SDL_GetError()`. (The library throws
/// only `LoaderField.Error`; a host names its own SDL failures, as this one does.)
public struct HostSDLFailure: Error, CustomStringConvertible {
  /// The SDL function that failed.
  public let call: String
  /// `SDL_GetError()` right after it.
  public let message: String

  /// The failure of `call`, with SDL's message read now.
  public init(_ call: String) {
    self.call = call
    message = String(cString: SDL_GetError())
  }

  /// `call failed: message`.
  public var description: String { "\(call) failed: \(message)" }
}

/// One render state a host may have set when it draws a loader row. Every state is set up on a
/// target of `HostRenderState.canvasWidth` x `canvasHeight` pixels; the row is drawn at
/// `frame`, in the renderer's coordinates under that state.
public enum HostRenderStateCase: String, CaseIterable, Sendable {
  /// Nothing set: logical units are pixels.
  case plain
  /// `SDL_RenderSetScale(r, 2, 2)`: the usual HiDPI habit.
  case scale2
  /// `SDL_RenderSetLogicalSize(r, 400, 150)` on 800 x 300: the same aspect, scale 2.
  case logicalExact
  /// `SDL_RenderSetLogicalSize(r, 390, 120)` on 800 x 300: letterboxed, scale 800 / 390
  /// (2.05...), the viewport 246 pixels high from y = 27.
  case logicalLetterbox
  /// `SDL_RenderSetViewport(r, {37, 21, 600, 200})` at scale 1.
  case viewport
  /// Scale 1.5, then `SDL_RenderSetViewport(r, {20, 10, 500, 180})`: the viewport at
  /// pixels (30, 15).
  case viewportScaled
  /// `SDL_RenderSetClipRect(r, {0, 0, 160, 300})`: rings 0 and 1 show, the rest are cut.
  case clip
  /// A render target texture of 800 x 300 at scale 2.
  case target

  /// The target's size in pixels.
  public static let canvasWidth = 800
  /// See `canvasWidth`.
  public static let canvasHeight = 300
  /// The time every row is drawn at: rings at 217.5, 67.5, 0, 0, 0 degrees.
  public static let time = 0.3625

  /// Where the row is drawn, in the renderer's coordinates under the state.
  public var frame: SDL_FRect {
    switch self {
    case .logicalLetterbox, .viewportScaled, .clip: SDL_FRect(x: 0, y: 0, w: 390, h: 120)
    default: SDL_FRect(x: 5, y: 10, w: 390, h: 120)
    }
  }

  /// How a logical point lands in the target: `pixel = origin + point * scale`.
  public var mapping: (originX: Double, originY: Double, scale: Double) {
    switch self {
    case .plain, .clip: (0, 0, 1)
    case .scale2, .logicalExact, .target: (0, 0, 2)
    case .logicalLetterbox: (0, 27, Double(Float(800) / 390))
    case .viewport: (37, 21, 1)
    case .viewportScaled: (30, 15, 1.5)
    }
  }

  /// Rings the state lets show (`clip` cuts the rest).
  public var visibleRings: Range<Int> { self == .clip ? 0..<2 : 0..<5 }

  /// The clip rect's right edge in target pixels, for `clip`.
  public static let clipRight = 160

  /// Sets the state on `renderer`; returns the target texture made for `target`.
  public func apply(to renderer: OpaquePointer) throws -> OpaquePointer? {
    switch self {
    case .plain: break
    case .scale2: SDL_RenderSetScale(renderer, 2, 2)
    case .logicalExact: SDL_RenderSetLogicalSize(renderer, 400, 150)
    case .logicalLetterbox: SDL_RenderSetLogicalSize(renderer, 390, 120)
    case .viewport:
      var v = SDL_Rect(x: 37, y: 21, w: 600, h: 200)
      SDL_RenderSetViewport(renderer, &v)
    case .viewportScaled:
      SDL_RenderSetScale(renderer, 1.5, 1.5)
      var v = SDL_Rect(x: 20, y: 10, w: 500, h: 180)
      SDL_RenderSetViewport(renderer, &v)
    case .clip:
      var c = SDL_Rect(x: 0, y: 0, w: Int32(Self.clipRight), h: 300)
      SDL_RenderSetClipRect(renderer, &c)
    case .target:
      guard
        let t = SDL_CreateTexture(
          renderer, SDL_PIXELFORMAT_ARGB8888.rawValue, Int32(SDL_TEXTUREACCESS_TARGET.rawValue),
          Int32(Self.canvasWidth), Int32(Self.canvasHeight))
      else { throw HostSDLFailure("SDL_CreateTexture") }
      SDL_SetRenderTarget(renderer, t)
      SDL_RenderSetScale(renderer, 2, 2)
      return t
    }
    return nil
  }
}

/// The state of a renderer that a draw must leave as it found it.
public struct RendererStateSnapshot: Equatable, CustomStringConvertible {
  /// `SDL_GetRenderDrawColor`: r, g, b, a.
  public var drawColor: [UInt8]
  /// `SDL_GetRenderDrawBlendMode`.
  public var blendMode: UInt32
  /// `SDL_GetRenderTarget` (nil: the window).
  public var target: OpaquePointer?
  /// `SDL_RenderGetViewport`: x, y, w, h.
  public var viewport: [Int32]
  /// `SDL_RenderIsClipEnabled`.
  public var clipEnabled: Bool
  /// `SDL_RenderGetClipRect`: x, y, w, h.
  public var clip: [Int32]
  /// `SDL_RenderGetScale`: x, y.
  public var scale: [Float]
  /// `SDL_RenderGetLogicalSize`: w, h.
  public var logicalSize: [Int32]

  /// The state of `r` now.
  public init(_ r: OpaquePointer) {
    var c: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
    SDL_GetRenderDrawColor(r, &c.0, &c.1, &c.2, &c.3)
    drawColor = [c.0, c.1, c.2, c.3]
    var mode = SDL_BLENDMODE_NONE
    SDL_GetRenderDrawBlendMode(r, &mode)
    blendMode = mode.rawValue
    target = SDL_GetRenderTarget(r)
    var v = SDL_Rect()
    SDL_RenderGetViewport(r, &v)
    viewport = [v.x, v.y, v.w, v.h]
    clipEnabled = SDL_RenderIsClipEnabled(r) == SDL_TRUE
    var k = SDL_Rect()
    SDL_RenderGetClipRect(r, &k)
    clip = [k.x, k.y, k.w, k.h]
    var sx: Float = 0
    var sy: Float = 0
    SDL_RenderGetScale(r, &sx, &sy)
    scale = [sx, sy]
    var lw: Int32 = 0
    var lh: Int32 = 0
    SDL_RenderGetLogicalSize(r, &lw, &lh)
    logicalSize = [lw, lh]
  }

  /// Every field, on one line.
  public var description: String {
    "colour \(drawColor) blend \(blendMode) viewport \(viewport) clip \(clipEnabled) \(clip)"
      + " scale \(scale) logical \(logicalSize)"
  }
}

/// A row drawn under one state: the target's pixels (`0xAARRGGBB`, 800 x 300) and whether the
/// renderer's state read back unchanged.
public struct HostDrawing {
  /// The target's pixels after the draw, `0xAARRGGBB`, row by row.
  public var pixels: [UInt32]
  /// The renderer's state just before the draw.
  public var stateBefore: RendererStateSnapshot
  /// The renderer's state just after it: must equal `stateBefore`.
  public var stateAfter: RendererStateSnapshot

  /// Draws the seed row with `backend` on `loaders` (made for `r`) under `state`: sets the
  /// state, clears to white, sets a draw colour and blend mode of the host's own, draws, reads the state and
  /// the pixels back, and puts the renderer back as it was (state cleared).
  public static func draw(
    _ state: HostRenderStateCase, backend: RingBackend, on loaders: LoaderRenderer,
    renderer r: OpaquePointer
  ) throws -> HostDrawing {
    let outerTarget = SDL_GetRenderTarget(r)
    let made = try state.apply(to: r)
    defer {
      SDL_SetRenderTarget(r, outerTarget)
      if let made { SDL_DestroyTexture(made) }
      SDL_RenderSetClipRect(r, nil)
      SDL_RenderSetLogicalSize(r, 0, 0)
      SDL_RenderSetViewport(r, nil)
      SDL_RenderSetScale(r, 1, 1)
    }
    // Clear the whole target, whatever the viewport.
    SDL_SetRenderDrawColor(r, 255, 255, 255, 255)
    SDL_RenderClear(r)
    // A host's own state: a colour and blend mode the draw must leave alone.
    SDL_SetRenderDrawColor(r, 12, 34, 56, 78)
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_ADD)
    let before = RendererStateSnapshot(r)
    let view = try LoaderView(isAnimating: true, style: .seed, backend: backend, appearingAt: 0)
    try view.draw(on: loaders, in: state.frame, at: HostRenderStateCase.time)
    let after = RendererStateSnapshot(r)
    var pixels = [UInt32](
      repeating: 0, count: HostRenderStateCase.canvasWidth * HostRenderStateCase.canvasHeight)
    // Read back in target pixels: no viewport, no scale.
    SDL_RenderSetViewport(r, nil)
    SDL_RenderSetScale(r, 1, 1)
    SDL_RenderSetLogicalSize(r, 0, 0)
    SDL_RenderSetViewport(r, nil)
    let status = pixels.withUnsafeMutableBytes { buf in
      SDL_RenderReadPixels(
        r, nil, SDL_PIXELFORMAT_ARGB8888.rawValue, buf.baseAddress,
        Int32(HostRenderStateCase.canvasWidth * 4))
    }
    guard status == 0 else { throw HostSDLFailure("SDL_RenderReadPixels") }
    return HostDrawing(pixels: pixels, stateBefore: before, stateAfter: after)
  }
}
