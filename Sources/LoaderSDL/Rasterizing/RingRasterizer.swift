import CSwiftLoaderSDL2
import LoaderPixels

/// A backend: turns rings into pixels on an SDL renderer. It knows three things, and nothing
/// of shape lifetime, budgets or renderer queries, which `LoaderRenderer` and its
/// `ShapeStore` own:
/// 1. how to make a shape's cache (`makeCache(for:on:budgetBytes:)`: masks, atlas cells, a mesh);
/// 2. how many bytes a cache holds (`RingShapeCache.bytes`);
/// 3. how to draw a frame's rings with their caches (`draw(_:on:)`), blending source-over in
///    the order given, centres relative to the viewport's corner at render scale 1
///    (`HostRenderState` sets that up).
///
/// A backend draws the same picture as every other (30 dB against Cairo), allocates nothing
/// per frame once warm, and may keep per-renderer buffers of its own (`BackendMemory`:
/// `ownBytes`, counted in the store's total, and `trimOwnMemory(toBytes:)`, which the store
/// calls when its policy lets them go).
package protocol RingRasterizer: BackendMemory {
  /// The backend's name in its errors and reports (a `RingBackend` raw value).
  var name: String { get }
  /// The largest outer radius, pixels, it draws; larger shapes are refused with an error.
  var maximumReach: Double { get }
  /// Whether its caches live on the renderer (textures), so a reset of the renderer's
  /// textures drops them.
  var cachesLiveOnRenderer: Bool { get }
  /// A new cache for `shape` (pixel units, drawable) on `target`'s renderer, growing within
  /// `budgetBytes`, the shape's share of the budget now (the store fits it to the share of
  /// each later draw: `RingShapeCache.fit(toBytes:)`).
  func makeCache(for shape: DashedRing, on target: RasterTarget, budgetBytes: Int)
    throws(SDLError) -> any RingShapeCache
  /// Draws `frame`'s rings. A backend that draws in bounded pieces (`gfx`) asks
  /// `shouldStop` between them and returns false once it says yes; one that draws a frame in
  /// one piece (`spans`, `gpu`) returns true.
  func draw(
    _ frame: RasterFrame, on target: RasterTarget, stoppingWhen shouldStop: () -> Bool
  ) throws(SDLError) -> Bool
  /// The renderer lost its textures: forget whatever of the backend's own lived there.
  func renderTargetsDidReset()
  /// Frees the backend's own textures (the renderer is going); nothing touches SDL afterwards.
  func close()
}

extension RingRasterizer {
  package var cachesLiveOnRenderer: Bool { false }
  package var ownBytes: Int { 0 }
  package func trimOwnMemory(toBytes bytes: Int) {}
  package func renderTargetsDidReset() {}
  package func close() {}
}

/// The SDL side's name for `RasterError`, the drawing's one failure type: an SDL call that
/// failed (`init(_:)`), or a part that refused (`init(_:message:reason:)`). A public call
/// reports it as `LoaderField.Error`, its `reason` kept.
package typealias SDLError = RasterError

extension RasterError {
  /// The SDL call `call` failed: the message is `SDL_GetError()`, read now, so make the error
  /// right after the call, before another SDL call replaces it.
  /// - Parameter call: the SDL function that failed, as `"SDL_CreateTexture"`.
  package init(_ call: String) {
    self.init(call, message: String(cString: SDL_GetError()))
  }
}
