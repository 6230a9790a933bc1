import LoaderCore

/// The `spans` kernel: blends precomputed 8-bit coverage masks span by span, in Swift, into
/// 32-bit pixels in memory, with no renderer: a caller's buffer (`PixelBuffer`), or the
/// pixels LoaderSDL's `spans` backend hands it (a software renderer's surface, a streaming
/// texture).
///
/// Every ring of one shape differs only by rotation and position, so the store's `MaskCache`
/// keeps one mask per shape, rotation phase and sub-pixel offset, and a frame is copies of masks:
/// per span, pixels are blended `dst = src * a * c + dst * (1 - a * c)` (coverage `c`, the
/// colour's straight alpha `a`: source-over, as every backend). Rings whose masks miss the
/// visible region are culled; rings that cross its edge are clipped span by span. Rings
/// larger than `RingMaskShape.maximumRadius` are refused with an error.
///
/// A frame's bands are blended on `threads` threads (`RingBandBuckets`: each band's rows
/// belong to one worker, so nothing is locked and the output does not depend on the count).
package final class CoverageSpanKernel {
  /// Per draw (kept for their capacity, filled as locals: see the README): each shape of the
  /// draw (nil for one with nothing to draw), ...
  private var frameShapes: [RingMaskShape?] = []
  /// ... where each visible ring lands, ...
  var placements: [Placement] = []
  /// ... each shape's masks as the blender reads them and the pitch they are at, ...
  var frameMasks: [ShapeMasks] = []
  var framePitches: [Int] = []
  /// ... the masks to build and the placements waiting for them (`resolveMasks`), ...
  var frameBuilds: [MaskBuild] = []
  var frameWaiting: [(placement: Int32, build: Int32)] = []
  /// ... each shape's grid, the order the masks are built in, and where each build thread
  /// writes.
  var frameGrids: [RingDistanceGrid?] = []
  var buildOrder: [UInt64] = []
  var scratches: [MaskScratch] = []
  let bands = RingBandBuckets()

  package init() {}

  /// Blends `frame` into the CPU pixels `target` (the part `region` of a caller's buffer):
  /// premultiplied "over", or straight "over" when `straight`.
  /// - Returns: a rectangle of `target` holding every pixel changed, nil when none was.
  @discardableResult
  package func blend(
    _ frame: RasterFrame, region: PixelRegion, into target: PixelTarget, straight: Bool
  ) -> ChangedPixels? {
    withShapes(of: frame) { shapes in
      blend(frame, shapes: shapes, region: region, into: target, straight: straight)
    }
  }

  /// Blends `frame` with its shapes (from `withShapes(of:_:)`) into `target`: premultiplied
  /// "over", or straight "over" when `straight`.
  /// - Returns: a rectangle of `target` holding every pixel changed, nil when none was.
  @discardableResult
  package func blend(
    _ frame: RasterFrame, shapes: FrameShapes, region: PixelRegion, into target: PixelTarget,
    straight: Bool
  ) -> ChangedPixels? {
    straight
      ? blendStraight(frame, shapes: shapes, region: region, into: target)
      : blend(frame, shapes: shapes, region: region, into: target)
  }

  /// Calls `body` with the frame's shapes, in the list kept between draws (no allocation
  /// per frame).
  package func withShapes<R, E: Error>(
    of frame: RasterFrame, _ body: (FrameShapes) throws(E) -> R
  ) throws(E) -> R {
    var shapes: [RingMaskShape?] = []
    swap(&shapes, &frameShapes)
    defer {
      shapes.removeAll(keepingCapacity: true)
      swap(&shapes, &frameShapes)
    }
    frame.caches(as: RingMaskShape.self, into: &shapes)
    let reach = shapes.reduce(0) { max($0, $1?.reach ?? 0) }
    return try body(FrameShapes(shapes: shapes, maximumReach: reach))
  }

  /// The rings' bounding box in viewport-relative pixels, cut to the visible region.
  package static func bounds(
    of rings: UnsafeBufferPointer<RingInstance>, reach: Int, region: PixelRegion
  ) -> (x: Int, y: Int, width: Int, height: Int)? {
    var minX = Float.infinity
    var minY = Float.infinity
    var maxX = -Float.infinity
    var maxY = -Float.infinity
    for r in rings where r.centerX.isFinite && r.centerY.isFinite && r.color.a > 0 {
      minX = min(minX, r.centerX)
      minY = min(minY, r.centerY)
      maxX = max(maxX, r.centerX)
      maxY = max(maxY, r.centerY)
    }
    guard minX <= maxX, minY <= maxY else { return nil }
    let reach = Float(reach)
    let limit = Float(1 << 24)
    func clamped(_ v: Float) -> Int { Int(min(max(v, -limit), limit).rounded(.down)) }
    let left = max(region.x, clamped(minX - reach))
    let top = max(region.y, clamped(minY - reach))
    let right = min(region.x + region.width, clamped(maxX + reach) + 1)
    let bottom = min(region.y + region.height, clamped(maxY + reach) + 1)
    guard right > left, bottom > top else { return nil }
    return (left, top, right - left, bottom - top)
  }
}

/// The shapes of one draw call, by shape index, and the furthest any of their masks reaches.
package struct FrameShapes {
  var shapes: [RingMaskShape?]
  package var maximumReach: Int
}

/// 32-bit pixels the CPU writes: `height` rows of `width` pixels, rows `pitch` bytes apart,
/// whose top-left pixel is pixel `(originPixelX, originPixelY)` of the rings' coordinates.
package struct PixelTarget {
  var base: UnsafeMutableRawPointer
  var width: Int
  var height: Int
  var pitch: Int
  var originPixelX = 0
  var originPixelY = 0

  package init(
    base: UnsafeMutableRawPointer, width: Int, height: Int, pitch: Int, originPixelX: Int = 0,
    originPixelY: Int = 0
  ) {
    self.base = base
    self.width = width
    self.height = height
    self.pitch = pitch
    self.originPixelX = originPixelX
    self.originPixelY = originPixelY
  }
  var originX: Float { Float(originPixelX) }
  var originY: Float { Float(originPixelY) }
}
