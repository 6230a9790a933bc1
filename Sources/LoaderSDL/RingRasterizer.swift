import CSDL2
import LoaderCore

/// One ring to draw: its frame's centre in output pixels, its rotation and its colour.
package struct RingInstance: Sendable, Hashable {
  /// Centre of the ring's frame, output pixels (continuous: pixel `(i, j)` covers `[i, i + 1)`).
  package var centerX: Float
  package var centerY: Float
  /// Degrees clockwise; any value (rasterizers reduce it mod 360).
  package var angle: Float
  package var color: RGBAColor

  package init(centerX: Float, centerY: Float, angle: Float, color: RGBAColor) {
    self.centerX = centerX
    self.centerY = centerY
    self.angle = angle
    self.color = color
  }
}

/// Draws dashed, round-capped, antialiased rings onto an SDL renderer's current target, in
/// its output pixels.
///
/// Backends are interchangeable: each draws the same rings (`DashedRing` geometry in pixels,
/// rotated and coloured per `RingInstance`), blending over what is already there. Ring centres
/// are relative to the viewport's top-left pixel and the renderer is at render scale 1 while a
/// backend draws (`HostRenderState` sets that up); `region` says which pixels may change. A
/// backend keeps its caches per shape while a field holds the shape (`retain(shape:)`), one
/// backend object per `LoaderRenderer`, and allocates nothing per frame once warmed up.
package protocol RingRasterizer: AnyObject {
  /// The name `--backend` takes.
  var name: String { get }
  /// Draws every ring in `rings`, each shaped like `shape` (pixel units), onto `renderer`,
  /// asking `shouldStop` between bounded pieces of work: it returns false as soon as that says
  /// yes (some rings drawn, the rest not), true when every ring was drawn. A host keeps
  /// answering input while one frame takes seconds (a million rings on a CPU rasterizer) by
  /// stopping when input is waiting. `threads`: how many threads CPU work may use.
  func draw(
    _ rings: UnsafeBufferPointer<RingInstance>, shape: DashedRing, on renderer: OpaquePointer,
    region: PixelRegion, threads: Int, stoppingWhen shouldStop: () -> Bool
  ) throws(SDLError) -> Bool
  /// The renderer lost its textures (`SDL_RENDER_TARGETS_RESET` / `SDL_RENDER_DEVICE_RESET`):
  /// rebuild whatever lived on it before the next `draw`.
  func renderTargetsDidReset(on renderer: OpaquePointer)
  /// The surface `renderer` draws into, when the caller owns one the CPU may write directly
  /// (an `OffscreenCanvas`'s); nil to forget it. Backends that blend pixels in Swift write
  /// there instead of going through a texture while no render target is set; the others
  /// ignore it.
  func attach(surface: UnsafeMutablePointer<SDL_Surface>?)
  /// A field draws `shape` from now on: keep its caches until as many `release(shape:)`.
  func retain(shape: DashedRing)
  /// A field no longer draws `shape`: its caches go once no field holds it.
  func release(shape: DashedRing)
  /// Bytes of masks, meshes and textures held now.
  var cachedBytes: Int { get }
  /// Frees every texture (the renderer is about to go); nothing touches SDL afterwards.
  func close()
}

extension RingRasterizer {
  package func renderTargetsDidReset(on renderer: OpaquePointer) {}
  package func attach(surface: UnsafeMutablePointer<SDL_Surface>?) {}
  package func close() {}

  /// Draws `rings` (centres in pixels of the renderer's current state) in one piece: the
  /// renderer's scale is set to 1 meanwhile and its viewport and clip rect respected.
  package func draw(_ rings: [RingInstance], shape: DashedRing, on renderer: OpaquePointer)
    throws(SDLError)
  {
    _ = try rings.withUnsafeBufferPointer { (buf) throws(SDLError) in
      try draw(buf, shape: shape, on: renderer)
    }
  }

  /// `draw(_:shape:on:)` for a buffer, asking `shouldStop` between bounded pieces of work.
  @discardableResult
  package func draw(
    _ rings: UnsafeBufferPointer<RingInstance>, shape: DashedRing, on renderer: OpaquePointer,
    threads: Int = RotationEngine.availableCores, stoppingWhen shouldStop: () -> Bool = { false }
  ) throws(SDLError) -> Bool {
    let state = HostRenderState.enter(renderer)
    defer { state.restore() }
    return try draw(
      rings, shape: shape, on: renderer, region: state.region, threads: threads,
      stoppingWhen: shouldStop)
  }
}

/// Per shape, how many fields hold it and what a backend keeps for it (`RingRasterizer`'s
/// `retain` and `release`): a value is made on first use and dropped once nothing holds it
/// and no draw needs it.
package struct ShapeCaches<Value: AnyObject> {
  private var entries: [DashedRing: (holders: Int, value: Value?)] = [:]

  package init() {}

  package mutating func retain(_ shape: DashedRing) {
    entries[shape, default: (0, nil)].holders += 1
  }

  /// Drops the value once the last holder lets go; returns it so the caller can free what it
  /// owns on a renderer.
  @discardableResult
  package mutating func release(_ shape: DashedRing) -> Value? {
    guard var e = entries[shape] else { return nil }
    e.holders -= 1
    if e.holders > 0 {
      entries[shape] = e
      return nil
    }
    entries[shape] = nil
    return e.value
  }

  /// The value for `shape`, made by `make` when there is none. A shape nobody retained (a
  /// one-off draw, the bench's) is kept until another unheld shape takes its place.
  package mutating func value<E: Error>(for shape: DashedRing, make: () throws(E) -> Value)
    throws(E) -> Value
  {
    if let v = entries[shape]?.value { return v }
    if entries[shape] == nil {
      // Only one unheld shape at a time: the previous one goes.
      for (k, e) in entries where e.holders == 0 { entries[k] = nil }
    }
    let v = try make()
    entries[shape, default: (0, nil)].value = v
    return v
  }

  /// Every value held now.
  package var values: [Value] { entries.values.compactMap(\.value) }

  /// Forgets every value (the holders stay): each is made anew on its next use.
  package mutating func dropValues() {
    for k in entries.keys { entries[k]?.value = nil }
    entries = entries.filter { $0.value.holders > 0 }
  }
}

/// An SDL call failed: what was called and `SDL_GetError()`.
public struct SDLError: Error, Sendable, CustomStringConvertible {
  /// The call that failed (`SDL_CreateTexture`), or the part of the library that refused.
  public var call: String
  /// Why: SDL's own message, or the library's.
  public var message: String
  /// The failure of `call`; `message` nil reads `SDL_GetError()` now, so make the error
  /// right after the call, before another SDL call replaces it.
  public init(_ call: String, message: String? = nil) {
    self.call = call
    self.message = message ?? String(cString: SDL_GetError())
  }
  /// `call failed: message`.
  public var description: String { "\(call) failed: \(message)" }
}
