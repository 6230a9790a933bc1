import LoaderCore

/// Draws a frame's rings into a caller's `PixelBuffer` with the `spans` kernel: the same masks,
/// bands and blending as on an SDL renderer, without one. A buffer has no renderer to share
/// caches with, so the field that draws into buffers keeps one of these, with its own
/// `ShapeStore`.
package final class PixelBufferDrawer {
  let shapes = ShapeStore(budgetBytes: 128 << 20)
  private let spans = CoverageSpanKernel()
  private var caches: [(any RingShapeCache)?] = []
  private var oneShape: [DashedRing] = []
  private var oneID: [ShapeID] = [.none]

  package init() {}

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
      throw RasterError("PixelBuffer", message: error.description)
    }
    oneShape.removeAll(keepingCapacity: true)
    oneShape.append(shape)
    try oneShape.withUnsafeBufferPointer { (shapes) throws(RasterError) in
      try oneID.withUnsafeMutableBufferPointer { (ids) throws(RasterError) in
        try rings.withUnsafeBufferPointer { (rings) throws(RasterError) in
          try draw(
            rings, shapes: shapes, ids: ids, into: checked.base, bytesPerRow: buffer.bytesPerRow,
            region: checked.region, straight: buffer.format == .rgbaStraight, threads: threads)
        }
      }
    }
  }

  /// Blends `rings` (shaped by `frameShapes`, handles in `ids`) into the pixels of `region` of
  /// the buffer at `base`, `bytesPerRow` apart: premultiplied "over", or straight "over" when
  /// `straight`.
  func draw(
    _ rings: UnsafeBufferPointer<RingInstance>, shapes frameShapes: UnsafeBufferPointer<DashedRing>,
    ids: UnsafeMutableBufferPointer<ShapeID>, into base: UnsafeMutableRawPointer,
    bytesPerRow: Int, region: PixelRegion, straight: Bool, threads: Int
  ) throws(RasterError) {
    var anyDrawable = false
    for shape in frameShapes {
      anyDrawable =
        try shape.isDrawable(by: "spans", limit: RingCoverageAtlas.maximumRadius) || anyDrawable
    }
    guard anyDrawable, !rings.isEmpty, !region.isEmpty else { return }
    shapes.beginDraw()
    defer { shapes.endDraw() }
    let budget = shapes.budgetBytes / 4
    shapes.caches(for: frameShapes, ids: ids, slot: 0, into: &caches) { shape in
      RingCoverageAtlas(shape: shape, budgetBytes: budget)
    }
    caches.withUnsafeBufferPointer { caches in
      let target = PixelTarget(
        base: base + region.y * bytesPerRow + region.x * 4, width: region.width,
        height: region.height, pitch: bytesPerRow, originPixelX: region.x,
        originPixelY: region.y)
      spans.blend(
        RasterFrame(rings: rings, caches: caches, threads: threads), region: region,
        into: target, straight: straight)
    }
  }
}
