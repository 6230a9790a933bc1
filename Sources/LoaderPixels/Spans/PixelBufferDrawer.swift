import LoaderCore

/// Draws a frame's rings into a caller's `PixelBuffer` with the `spans` kernel: the same masks,
/// bands and blending as on an SDL renderer, without one. A `LoaderPixelCache` owns one, so
/// every field and view drawing into buffers with that cache shares its shapes and budget.
package final class PixelBufferDrawer {
  let shapes: ShapeStore
  private let spans = CoverageSpanKernel()
  private var oneShape: [DashedRing] = []
  private var oneID: [ShapeID] = [.none]

  package init(budgetBytes: Int = LoaderPixelCache.defaultBudgetBytes) {
    shapes = ShapeStore(budgetBytes: budgetBytes)
  }

  /// Draws `rings`, all of one `shape` (pixels), into `buffer` (its density ignored: the rings
  /// are in its pixels), blending over what is there: rings without a field (the bench's
  /// `raster/buffer`).
  package func draw(
    _ rings: [RingInstance], shape: DashedRing, into buffer: PixelBuffer, threads: Int
  ) throws(RasterError) {
    let checked: (base: UnsafeMutableRawPointer, region: PixelRegion)
    do {
      checked = try buffer.checked()
    } catch {
      throw RasterError("PixelBuffer", message: error.description, reason: .buffer)
    }
    oneShape.removeAll(keepingCapacity: true)
    oneShape.append(shape)
    _ = try oneShape.withUnsafeBufferPointer { (shapes) throws(RasterError) in
      try oneID.withUnsafeMutableBufferPointer { (ids) throws(RasterError) in
        try rings.withUnsafeBufferPointer { (rings) throws(RasterError) in
          try draw(
            rings, shapes: shapes, ids: ids, into: checked.base,
            bytesPerRow: buffer.bytesPerRow, region: checked.region,
            straight: buffer.format == .rgbaStraight, threads: threads)
        }
      }
    }
  }

  /// Blends `rings` (shaped by `frameShapes`, handles in `ids`) into the pixels of `region` of
  /// the buffer at `base`, `bytesPerRow` apart: premultiplied "over", or straight "over" when
  /// `straight`.
  /// - Returns: the buffer's pixels that changed, as a rectangle that holds them all (a few
  ///   pixels wider than the ink), nil when none did.
  @discardableResult
  func draw(
    _ rings: UnsafeBufferPointer<RingInstance>, shapes frameShapes: UnsafeBufferPointer<DashedRing>,
    ids: UnsafeMutableBufferPointer<ShapeID>, into base: UnsafeMutableRawPointer,
    bytesPerRow: Int, region: PixelRegion, straight: Bool, threads: Int
  ) throws(RasterError) -> PixelBuffer.Rect? {
    guard try frameShapes.anyDrawable(by: "spans", limit: RingMaskShape.maximumRadius),
      !rings.isEmpty, !region.isEmpty
    else { return nil }
    let changed = shapes.draw(frameShapes, ids: ids, slot: 0) { shape, _ in
      RingMaskShape(shape: shape)
    } _: { caches in
      let target = PixelTarget(
        base: base + region.y * bytesPerRow + region.x * 4, width: region.width,
        height: region.height, pitch: bytesPerRow, originPixelX: region.x,
        originPixelY: region.y)
      return spans.blend(
        RasterFrame(
          rings: rings, caches: caches, threads: threads, now: shapes.now, masks: shapes.masks),
        region: region,
        into: target, straight: straight)
    }
    return changed.map {
      PixelBuffer.Rect(
        x: region.x + $0.minX, y: region.y + $0.minY, width: $0.maxX - $0.minX + 1,
        height: $0.maxY - $0.minY + 1)
    }
  }
}
