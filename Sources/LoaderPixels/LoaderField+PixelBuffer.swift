import LoaderCore

extension LoaderField {
  /// Draws every loader at `time` into `buffer`, blending over what is there, as
  /// `draw(on:in:at:stoppingWhen:)` draws on a renderer: `frame` is in points in the buffer's
  /// coordinates (a point is `buffer.density` pixels, from pixel `(0, 0)`), the loaders are
  /// laid out in it by `layout`, and only pixels inside `buffer.clip` change. Drawn with the
  /// `spans` kernel on the field's `threads` (straight alpha on one thread); the same bits at
  /// any thread count; nothing allocated per frame once the frame's masks are built. The
  /// masks are `cache`'s, shared with every field and view drawing with it and bounded by
  /// its budget.
  /// - Parameters:
  ///   - buffer: the pixels, their format and density.
  ///   - frame: the container, in points.
  ///   - time: caller seconds, at or after the start of the last step drawn.
  ///   - cache: the masks' cache (`LoaderPixelCache.shared` unless given).
  /// - Returns: the buffer's pixels the draw changed, as a rectangle that holds them all (a
  ///   few pixels wider than the ink, within `buffer.clip`), or nil when it changed none: a
  ///   host uploads only that part to its texture.
  /// - Throws: `LoaderField.Error` for a buffer that cannot be drawn into (a null or
  ///   misaligned base, a row shorter than the width, sizes that overflow, a density that is
  ///   not finite and > 0), and for what `draw(on:in:at:stoppingWhen:)` refuses (the frame,
  ///   the time, a ring larger than the `spans` backend takes).
  @discardableResult
  public func draw(
    into buffer: PixelBuffer, in frame: LoaderRect, at time: Double,
    cache: LoaderPixelCache = .shared
  ) throws(Error) -> PixelBuffer.Rect? {
    let (base, region) = try buffer.checked()
    try prepareRings(
      in: frame, scaleX: buffer.density, scaleY: buffer.density, region: region, at: time)
    lastDrawTime = time
    guard !frameRings.instances.isEmpty, !region.isEmpty else { return nil }
    if buffer.format != .bgraPremultiplied {
      // The kernels write `0xAARRGGBB` words: red and blue trade places for R, G, B, A bytes.
      frameRings.swapRedAndBlue()
    }
    do {
      return try cache.withDrawer { (drawer) throws(RasterError) in
        try frameRings.withFrame(layout: layout) { (rings, shapes, ids) throws(RasterError) in
          try drawer.draw(
            rings, shapes: shapes, ids: ids, into: base,
            bytesPerRow: buffer.bytesPerRow, region: region,
            straight: buffer.format == .rgbaStraight, threads: threads)
        }
      }
    } catch {
      throw .failed(error)
    }
  }
}

extension LoaderField.FrameBuilder {
  /// Each ring's colour with red and blue exchanged.
  mutating func swapRedAndBlue() {
    for k in instances.indices {
      let c = instances[k].color
      instances[k].color = RGBAColor(r: c.b, g: c.g, b: c.r, a: c.a)
    }
  }
}
