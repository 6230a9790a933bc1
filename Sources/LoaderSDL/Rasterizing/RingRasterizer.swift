import CSwiftLoaderSDL2
import LoaderCore

/// One ring to draw: its frame's centre in output pixels, its rotation, its colour, and which
/// of the draw call's shapes it has.
package struct RingInstance: Sendable, Hashable {
  /// Centre of the ring's frame, output pixels (continuous: pixel `(i, j)` covers `[i, i + 1)`).
  package var centerX: Float
  package var centerY: Float
  /// Degrees clockwise; any value (rasterizers reduce it mod 360).
  package var angle: Float
  package var color: RGBAColor
  /// Index into the `shapes` of the draw call; a ring whose index is out of range is skipped.
  package var shape: Int32

  package init(
    centerX: Float, centerY: Float, angle: Float, color: RGBAColor, shape: Int32 = 0
  ) {
    self.centerX = centerX
    self.centerY = centerY
    self.angle = angle
    self.color = color
    self.shape = shape
  }
}

/// Draws dashed, round-capped, antialiased rings onto an SDL renderer's current target, in
/// its output pixels.
///
/// Backends are interchangeable: each draws the same rings (`DashedRing` geometry in pixels,
/// rotated and coloured per `RingInstance`), blending over what is already there, in the order
/// given (a later ring covers an earlier one), whatever their shapes. Ring centres
/// are relative to the viewport's top-left pixel and the renderer is at render scale 1 while a
/// backend draws (`HostRenderState` sets that up); `region` says which pixels may change. A
/// backend keeps its caches per shape while a field holds the shape (`retain(shape:)`), one
/// backend object per `LoaderRenderer`, and allocates nothing per frame once warmed up.
package protocol RingRasterizer: AnyObject {
  /// The backend's name in its errors and reports: a shipped backend's `RingBackend` raw
  /// value (the name `--backend` takes); `gfx-direct` for `GfxDirectRingRasterizer`, the `gfx`
  /// atlas's painter, which no setting picks.
  var name: String { get }
  /// Draws every ring in `rings`, in order, each shaped like `shapes[ring.shape]` (pixel
  /// units), onto `renderer`. A backend that draws in bounded pieces (`gfx`, `geometry`)
  /// asks `shouldStop` between them and returns false as soon as that says yes (some rings
  /// drawn, the rest not), so a host keeps answering input while one frame takes seconds; one
  /// that draws a frame in one piece (`spans`, whose frame of a million rings is tens of
  /// milliseconds) never asks and returns true. `threads`: how many threads CPU work may
  /// use. Every shape is checked (`DashedRing.isDrawable(by:limit:)`) before anything is
  /// drawn.
  func draw(
    _ rings: UnsafeBufferPointer<RingInstance>, shapes: UnsafeBufferPointer<DashedRing>,
    on renderer: OpaquePointer, region: PixelRegion, threads: Int,
    stoppingWhen shouldStop: () -> Bool
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

  /// `draw(_:shapes:on:region:threads:stoppingWhen:)` with one shape, which every ring has
  /// (their `shape` indices 0).
  package func draw(
    _ rings: UnsafeBufferPointer<RingInstance>, shape: DashedRing, on renderer: OpaquePointer,
    region: PixelRegion, threads: Int, stoppingWhen shouldStop: () -> Bool
  ) throws(SDLError) -> Bool {
    try withUnsafePointer(to: shape) { (one) throws(SDLError) in
      try draw(
        rings, shapes: UnsafeBufferPointer(start: one, count: 1), on: renderer, region: region,
        threads: threads, stoppingWhen: shouldStop)
    }
  }

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
///
/// A backend calls `beginDraw()` at the start of each draw call and `value(for:make:)` for
/// every shape the call draws. A shape nobody retained (a one-off draw, the bench's) keeps its
/// value while consecutive draws use it, and loses it at the first draw that does not.
package struct ShapeCaches<Value: AnyObject> {
  /// A class, so that a lookup hands out the entry to update in place: updating a struct in a
  /// dictionary through `entries[key]?.field` allocates the accessor's frame on every call.
  private final class Entry {
    var holders = 0
    var value: Value?
    /// The draw (`draws`) that last used the value.
    var lastDraw = 0
  }

  private var entries: [DashedRing: Entry] = [:]
  /// Draw calls begun so far.
  private var draws = 0

  package init() {}

  package mutating func retain(_ shape: DashedRing) {
    if let e = entries[shape] {
      e.holders += 1
    } else {
      let e = Entry()
      e.holders = 1
      entries[shape] = e
    }
  }

  /// Drops the value once the last holder lets go; returns it so the caller can free what it
  /// owns on a renderer.
  @discardableResult
  package mutating func release(_ shape: DashedRing) -> Value? {
    guard let e = entries[shape] else { return nil }
    e.holders -= 1
    guard e.holders <= 0 else { return nil }
    entries[shape] = nil
    return e.value
  }

  /// Starts a draw call: the values of unheld shapes the previous draw did not use go (and
  /// are returned, for the caller to free what they own on a renderer; empty, without
  /// allocating, when none goes).
  @discardableResult
  package mutating func beginDraw() -> [Value] {
    draws += 1
    let stale = draws - 1
    guard entries.contains(where: { $0.value.holders == 0 && $0.value.lastDraw < stale }) else {
      return []
    }
    var dropped: [Value] = []
    for (k, e) in entries where e.holders == 0 && e.lastDraw < stale {
      if let v = e.value { dropped.append(v) }
      entries[k] = nil
    }
    return dropped
  }

  /// The value for `shape`, made by `make` when there is none; marks it used by this draw.
  package mutating func value<E: Error>(for shape: DashedRing, make: () throws(E) -> Value)
    throws(E) -> Value
  {
    let e: Entry
    if let found = entries[shape] {
      e = found
    } else {
      e = Entry()
      entries[shape] = e
    }
    e.lastDraw = draws
    if let v = e.value { return v }
    let v = try make()
    e.value = v
    return v
  }

  /// Each of `shapes`' value in order into `list` (emptied first, its capacity kept): made
  /// by `make` when there is none, nil for a shape `drawable` turns down; each marked used by
  /// this draw. A backend's per-draw lookup of its caches.
  package mutating func values<E: Error>(
    for shapes: UnsafeBufferPointer<DashedRing>, into list: inout [Value?],
    drawable: (DashedRing) throws(E) -> Bool, make: (DashedRing) throws(E) -> Value
  ) throws(E) {
    list.removeAll(keepingCapacity: true)
    for shape in shapes {
      guard try drawable(shape) else {
        list.append(nil)
        continue
      }
      list.append(try value(for: shape) { () throws(E) in try make(shape) })
    }
  }

  /// Calls `body` with every value held now, allocating nothing.
  package func forEachValue(_ body: (Value) -> Void) {
    for e in entries.values {
      if let v = e.value { body(v) }
    }
  }

  /// Calls `body` with every value the current draw has not used (no `value(for:make:)`
  /// since `beginDraw()`), allocating nothing.
  package func forEachIdleValue(_ body: (Value) -> Void) {
    for e in entries.values where e.lastDraw < draws {
      if let v = e.value { body(v) }
    }
  }

  /// The values the current draw has not used, least recently used first (for a backend over
  /// its budget; allocates).
  package var idleValuesByLastUse: [Value] {
    entries.values.filter { $0.lastDraw < draws }.sorted { $0.lastDraw < $1.lastDraw }
      .compactMap(\.value)
  }

  /// Forgets every value (the holders stay): each is made anew on its next use.
  package mutating func dropValues() {
    for e in entries.values { e.value = nil }
    entries = entries.filter { $0.value.holders > 0 }
  }
}

/// An SDL call failed: what was called and `SDL_GetError()`.
public struct SDLError: Error, Sendable, CustomStringConvertible {
  /// The call that failed (`SDL_CreateTexture`), or the part of the library that refused.
  package var call: String
  /// Why: SDL's own message, or the library's.
  package var message: String
  /// The failure of `call`; `message` nil reads `SDL_GetError()` now, so make the error
  /// right after the call, before another SDL call replaces it.
  /// - Parameters:
  ///   - call: the SDL function that failed, as `"SDL_CreateTexture"`, or the part of the
  ///     program that refused.
  ///   - message: why; nil for SDL's own message (`SDL_GetError()`).
  public init(_ call: String, message: String? = nil) {
    self.call = call
    self.message = message ?? String(cString: SDL_GetError())
  }
  /// The call and the reason in one line: `SDL_CreateTexture failed: Out of memory`.
  public var description: String { "\(call) failed: \(message)" }
}
