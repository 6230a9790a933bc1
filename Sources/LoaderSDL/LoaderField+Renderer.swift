import CSwiftLoaderShims
import LoaderPixels

// A `LoaderField` on an SDL renderer: the draws through a `LoaderRenderer`, and the calls
// that take SDL's rects and points (the same numbers as LoaderPixels' `LoaderRect` and
// `LoaderPoint`).
extension LoaderField {
  /// Draws every loader at `time` over what the renderer already shows (the caller clears),
  /// as SDL's own calls draw: `frame` is exactly the rectangle `SDL_RenderFillRectF(frame)`
  /// would fill (viewport, render scale, logical size, clip rect and target all apply).
  /// Loaders are laid out in it by `layout`, one logical unit a point, and their rings are
  /// rasterized at the renderer's density, so they stay crisp under `SDL_RenderSetScale` or a
  /// logical size. The renderer's state is as it was when this returns.
  /// - Parameters:
  ///   - target: the `LoaderRenderer` of the SDL renderer to draw on.
  ///   - frame: the container, in the renderer's logical coordinates.
  ///   - time: caller seconds, at or after the start of the last step drawn.
  ///   - shouldStop: asked between the backend's bounded pieces of work; once it says yes the
  ///     frame is abandoned, part drawn. A window passes "input is waiting", so a frame that
  ///     takes seconds still answers Esc.
  /// - Returns: true when every ring was drawn, false when `shouldStop` cut the frame short.
  /// - Throws: `LoaderField.Error` for a `frame` that is not finite with a size > 0, a render
  ///   scale that is not finite and > 0, a `time` it cannot show (not finite, before the start
  ///   of the last step drawn, or past about 140,000 years of loader time), a `target` that
  ///   was closed (`LoaderRenderer.close()`), or an SDL call that failed (its name and
  ///   `SDL_GetError()`).
  @discardableResult
  public func draw(
    on target: LoaderRenderer, in frame: SDL_FRect, at time: Double,
    stoppingWhen shouldStop: () -> Bool = { false }
  ) throws(Error) -> Bool {
    guard !target.isClosed else { throw .closed }
    try Self.validate(LoaderRect(frame))
    let renderer = target.renderer
    let state = HostRenderState.enter(renderer)
    defer { state.restore() }
    guard state.scaleX.isFinite, state.scaleY.isFinite, state.scaleX > 0, state.scaleY > 0 else {
      throw .invalidRenderScale(x: state.scaleX, y: state.scaleY)
    }
    try prepareRings(
      in: LoaderRect(frame), scaleX: Double(state.scaleX), scaleY: Double(state.scaleY),
      region: state.region, at: time)
    lastDrawTime = time  // a refused time is not a drawn one (`nextChange`'s frame cap)
    guard !frameRings.instances.isEmpty, !state.region.isEmpty else { return true }
    do {
      let (drawn, used) = try frameRings.withFrame(layout: layout) {
        (rings, shapes, ids) throws(SDLError) in
        try target.draw(
          rings, shapes: shapes, ids: ids, asking: backend, region: state.region,
          threads: threads, stoppingWhen: shouldStop)
      }
      activeBackend = used
      return drawn
    } catch {
      throw .failed(error)
    }
  }

  /// Draws every loader of the `.free` layout with their frames in the renderer's own logical
  /// coordinates (a container at the origin): `draw(on:in:at:stoppingWhen:)` with nothing to
  /// offset. In another layout it lays the loaders out in a container the size of the
  /// renderer's output in logical units.
  /// - Parameters:
  ///   - target: the `LoaderRenderer` of the SDL renderer to draw on.
  ///   - time: caller seconds, at or after the start of the last step drawn.
  ///   - shouldStop: as `draw(on:in:at:stoppingWhen:)`'s.
  /// - Returns: true when every ring was drawn, false when `shouldStop` cut the frame short.
  /// - Throws: what `draw(on:in:at:stoppingWhen:)` throws.
  ///
  /// Complexity: O(n) in the loaders, plus their rings' raster work.
  @discardableResult
  public func draw(
    on target: LoaderRenderer, at time: Double, stoppingWhen shouldStop: () -> Bool = { false }
  ) throws(Error) -> Bool {
    var container = SDL_FRect(x: 0, y: 0, w: 1, h: 1)
    if layout != .free {
      var w: Int32 = 0
      var h: Int32 = 0
      guard !target.isClosed else { throw .closed }
      SDL_GetRendererOutputSize(target.renderer, &w, &h)
      var sx: Float = 1
      var sy: Float = 1
      SDL_RenderGetScale(target.renderer, &sx, &sy)
      container.w = Float(w) / sx
      container.h = Float(h) / sy
    }
    return try draw(on: target, in: container, at: time, stoppingWhen: shouldStop)
  }

  /// `addLoader(isAnimating:at:frame:)` with SDL's rect (the same numbers as `LoaderRect`).
  /// - Parameters:
  ///   - isAnimating: whether it animates from `time` on.
  ///   - time: caller seconds it appears at.
  ///   - frame: in the renderer's logical coordinates, relative to the container `draw` is
  ///     given; an empty frame draws nothing.
  /// - Returns: the new loader's handle.
  /// - Throws: what the `LoaderRect` form throws.
  @discardableResult
  public func addLoader(isAnimating: Bool, at time: Double, frame: SDL_FRect) throws(Error)
    -> LoaderID
  {
    try addLoader(isAnimating: isAnimating, at: time, frame: LoaderRect(frame))
  }

  /// `setFrame(_:of:)` with SDL's rect.
  /// - Parameters:
  ///   - frame: the new frame, finite with a size >= 0; an empty one draws nothing.
  ///   - id: a live loader's handle.
  /// - Throws: what the `LoaderRect` form throws.
  public func setFrame(_ frame: SDL_FRect, of id: LoaderID) throws(Error) {
    try setFrame(LoaderRect(frame), of: id)
  }

  /// `frame(of:)` as SDL's rect: in a program that imports LoaderSDL, `field.frame(of: id)`
  /// with no type given is this one.
  /// - Parameter id: a live loader's handle.
  /// - Returns: the frame last set.
  /// - Throws: `LoaderField.Error` for a removed loader's handle.
  public func frame(of id: LoaderID) throws(Error) -> SDL_FRect {
    SDL_FRect(try frame(of: id) as LoaderRect)
  }

  /// `loader(at:)` with SDL's point, in the renderer's logical coordinates.
  /// - Parameter point: as `SDL_RenderFillRectF` takes coordinates.
  /// - Returns: the topmost visible loader there, or nil.
  public func loader(at point: SDL_FPoint) -> LoaderID? {
    loader(at: LoaderPoint(x: point.x, y: point.y))
  }

  /// `draw(into:in:at:cache:)` with SDL's rect.
  /// - Parameters:
  ///   - buffer: the pixels, their format and density.
  ///   - frame: the container, in points.
  ///   - time: caller seconds, at or after the start of the last step drawn.
  ///   - cache: the masks' cache (`LoaderPixelCache.shared` unless given).
  /// - Returns: the pixels that changed, as `LoaderField.draw(into:in:at:cache:)` returns
  ///   them.
  /// - Throws: what the `LoaderRect` form throws.
  @discardableResult
  public func draw(
    into buffer: PixelBuffer, in frame: SDL_FRect, at time: Double,
    cache: LoaderPixelCache = .shared
  ) throws(Error) -> PixelBuffer.Rect? {
    try draw(into: buffer, in: LoaderRect(frame), at: time, cache: cache)
  }

  /// Hands the C allocator's free pages back to the system (glibc's `malloc_trim`; nothing
  /// elsewhere). glibc keeps freed blocks below its mmap threshold in its heap, so a host that
  /// shrank a field from a million loaders to a few calls this once to see its resident memory
  /// fall. It affects the whole process, so the library never calls it itself.
  public static func returnFreedMemory() {
    swiftloader_return_free_memory()
  }

}

extension LoaderField {
  /// `rings(in:density:at:)` with SDL's rect (tests).
  package func rings(in frame: SDL_FRect, density: Double = 1, at time: Double) throws(Error)
    -> [RingInstance]
  {
    try rings(in: LoaderRect(frame), density: density, at: time)
  }
}

extension LoaderRect {
  /// SDL's rect as a `LoaderRect`: the same four numbers.
  /// - Parameter r: SDL's rect.
  public init(_ r: SDL_FRect) { self.init(x: r.x, y: r.y, width: r.w, height: r.h) }
}

extension SDL_FRect {
  /// A `LoaderRect` as SDL's rect: the same four numbers.
  /// - Parameter r: the rect.
  public init(_ r: LoaderRect) { self.init(x: r.x, y: r.y, w: r.width, h: r.height) }
}
