import LoaderPixels

// A `LoaderView` on an SDL renderer, and its buffer draw with SDL's rect.
extension LoaderView {
  /// Draws the row at `time` over what the renderer shows, laid out in `frame` (the
  /// renderer's logical coordinates, as `SDL_RenderFillRectF` takes them); the renderer's
  /// state is left as it was. See `LoaderField.draw(on:in:at:stoppingWhen:)`.
  /// - Parameters:
  ///   - target: the `LoaderRenderer` of the SDL renderer to draw on.
  ///   - frame: the row's container, in the renderer's logical coordinates.
  ///   - time: caller seconds, at or after the start of the last step drawn.
  /// - Throws: `LoaderField.Error` for a `frame` that is not finite with a size > 0, a render
  ///   scale that is not finite and > 0, a `time` it cannot show (not finite, before the start
  ///   of the last step drawn, or past about 140,000 years of loader time), a `target` that
  ///   was closed (`LoaderRenderer.close()`), or an SDL call that failed.
  public func draw(on target: LoaderRenderer, in frame: SDL_FRect, at time: Double)
    throws(LoaderField.Error)
  {
    try field.draw(on: target, in: frame, at: time)
  }

  /// `draw(into:in:at:cache:)` with SDL's rect (the same numbers as `LoaderRect`).
  /// - Parameters:
  ///   - buffer: the pixels, their format and density.
  ///   - frame: where the row goes, in points.
  ///   - time: caller seconds, at or after the start of the last step drawn.
  ///   - cache: the masks' cache (`LoaderPixelCache.shared` unless given).
  /// - Returns: the pixels that changed, as `LoaderField.draw(into:in:at:cache:)` returns
  ///   them.
  /// - Throws: `LoaderField.Error` for a bad buffer, frame or time.
  @discardableResult
  public func draw(
    into buffer: PixelBuffer, in frame: SDL_FRect, at time: Double,
    cache: LoaderPixelCache = .shared
  ) throws(LoaderField.Error) -> PixelBuffer.Rect? {
    try field.draw(into: buffer, in: LoaderRect(frame), at: time, cache: cache)
  }
}
