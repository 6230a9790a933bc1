import CSDL2
import LoaderCore

/// One ring to draw: its frame's centre in output pixels, its rotation and its colour.
public struct RingInstance: Sendable, Hashable {
  /// Centre of the ring's frame, output pixels (continuous: pixel `(i, j)` covers `[i, i + 1)`).
  public var centerX: Float
  public var centerY: Float
  /// Degrees clockwise; any value (rasterizers reduce it mod 360).
  public var angle: Float
  public var color: RGBAColor

  public init(centerX: Float, centerY: Float, angle: Float, color: RGBAColor) {
    self.centerX = centerX
    self.centerY = centerY
    self.angle = angle
    self.color = color
  }
}

/// Draws dashed, round-capped, antialiased rings onto an SDL renderer's current target.
///
/// Backends are interchangeable: each draws the same rings (`DashedRing` geometry in output
/// pixels, rotated and coloured per `RingInstance`), blending over what is already there.
/// A backend allocates nothing per frame once warmed up.
public protocol RingRasterizer: AnyObject {
  /// The name `--backend` takes.
  var name: String { get }
  /// Draws every ring in `rings`, each shaped like `shape` (pixel units) onto `renderer`.
  func draw(
    _ rings: UnsafeBufferPointer<RingInstance>, shape: DashedRing, on renderer: OpaquePointer)
    throws(SDLError)
  /// `draw(_:shape:on:)` that may stop part way: a backend whose frame is drawn in bounded
  /// pieces asks `shouldStop` between them and returns false as soon as it says yes (some
  /// rings drawn, the rest not). A host keeps answering input while one frame takes seconds
  /// (a million rings on a CPU rasterizer) by stopping when input is waiting. Returns true
  /// when every ring was drawn; the default draws everything in one piece.
  func draw(
    _ rings: UnsafeBufferPointer<RingInstance>, shape: DashedRing, on renderer: OpaquePointer,
    stoppingWhen shouldStop: () -> Bool
  ) throws(SDLError) -> Bool
  /// The renderer lost its textures (`SDL_RENDER_TARGETS_RESET` / `SDL_RENDER_DEVICE_RESET`):
  /// rebuild whatever lived on it before the next `draw`.
  func renderTargetsDidReset(on renderer: OpaquePointer)
  /// The surface `renderer` draws into, when the caller owns one the CPU may write directly
  /// (an `OffscreenCanvas`'s); nil to forget it. Backends that blend pixels in Swift write
  /// there instead of going through a texture; the others ignore it.
  func attach(surface: UnsafeMutablePointer<SDL_Surface>?)
}

extension RingRasterizer {
  public func renderTargetsDidReset(on renderer: OpaquePointer) {}
  public func attach(surface: UnsafeMutablePointer<SDL_Surface>?) {}

  public func draw(
    _ rings: UnsafeBufferPointer<RingInstance>, shape: DashedRing, on renderer: OpaquePointer,
    stoppingWhen shouldStop: () -> Bool
  ) throws(SDLError) -> Bool {
    try draw(rings, shape: shape, on: renderer)
    return true
  }

  /// `draw(_:shape:on:)` for an array.
  public func draw(_ rings: [RingInstance], shape: DashedRing, on renderer: OpaquePointer)
    throws(SDLError)
  {
    try rings.withUnsafeBufferPointer { (buf) throws(SDLError) in
      try draw(buf, shape: shape, on: renderer)
    }
  }
}

/// An SDL call failed: what was called and `SDL_GetError()`.
public struct SDLError: Error, Sendable, CustomStringConvertible {
  public var call: String
  public var message: String
  public init(_ call: String, message: String? = nil) {
    self.call = call
    self.message = message ?? String(cString: SDL_GetError())
  }
  public var description: String { "\(call) failed: \(message)" }
}

/// A backend that draws its frame in bounded batches (`geometry`, `gfx`): it implements only
/// the stopping draw, and the plain one is that draw never told to stop.
public protocol BatchedRingRasterizer: RingRasterizer {}

extension BatchedRingRasterizer {
  public func draw(
    _ rings: UnsafeBufferPointer<RingInstance>, shape: DashedRing, on renderer: OpaquePointer
  ) throws(SDLError) {
    _ = try draw(rings, shape: shape, on: renderer, stoppingWhen: { false })
  }
}
