import LoaderCore

/// The `spans` kernel: blends precomputed 8-bit coverage masks span by span, in Swift, into
/// 32-bit pixels in memory, with no renderer: a caller's buffer (`PixelBuffer`), or the
/// pixels LoaderSDL's `spans` backend hands it (a software renderer's surface, a streaming
/// texture).
///
/// Every ring of one shape differs only by rotation and position, so `RingCoverageAtlas`
/// keeps one mask per rotation phase and sub-pixel offset, and a frame is copies of masks:
/// per span, pixels are blended `dst = src * a * c + dst * (1 - a * c)` (coverage `c`, the
/// colour's straight alpha `a`: source-over, as every backend). Rings whose masks miss the
/// visible region are culled; rings that cross its edge are clipped span by span. Rings
/// larger than `RingCoverageAtlas.maximumRadius` are refused with an error.
///
/// A frame's bands are blended on `threads` threads (`RingBandBuckets`: each band's rows
/// belong to one worker, so nothing is locked and the output does not depend on the count).
package final class CoverageSpanKernel {
  /// The atlas of each shape of the draw in progress (nil for one with nothing to draw).
  private var frameAtlases: [RingCoverageAtlas?] = []
  /// Per frame: where each visible ring lands, and the band order they are drawn in.
  var placements: [Placement] = []
  /// Per frame: each shape's masks, by shape index.
  var frameStorages: [RingCoverageAtlas.Storage] = []
  /// Per frame: each shape's key table, by shape index (`resolveMasks(_:atlases:)`).
  var frameKeyTables: [RingCoverageAtlas.KeyTable] = []
  /// Per frame: each shape's stamp clock, by shape index (`resolveMasks(_:atlases:)`).
  var frameClocks: [UInt32] = []
  /// Per frame: the masks to build, as placement indices grouped by shape, and where each
  /// shape's group starts (`buildMissingMasks`).
  var frameMisses: [Int32] = []
  var frameMissOrder: [Int32] = []
  var frameMissGroups: [Int32] = []
  let bands = RingBandBuckets()

  package init() {}

  /// Blends `frame` into the CPU pixels `target` (the part `region` of a caller's buffer):
  /// premultiplied "over", or straight "over" when `straight`.
  /// - Returns: a rectangle of `target` holding every pixel changed, nil when none was.
  @discardableResult
  package func blend(
    _ frame: RasterFrame, region: PixelRegion, into target: PixelTarget, straight: Bool
  ) -> ChangedPixels? {
    withAtlases(of: frame) { masks in
      blend(frame, atlases: masks, region: region, into: target, straight: straight)
    }
  }

  /// Blends `frame` with its masks `atlases` (from `withAtlases(of:_:)`) into `target`:
  /// premultiplied "over", or straight "over" when `straight`.
  /// - Returns: a rectangle of `target` holding every pixel changed, nil when none was.
  @discardableResult
  package func blend(
    _ frame: RasterFrame, atlases: FrameAtlases, region: PixelRegion, into target: PixelTarget,
    straight: Bool
  ) -> ChangedPixels? {
    straight
      ? blendStraight(frame, atlases: atlases, region: region, into: target)
      : blend(frame, atlases: atlases, region: region, into: target)
  }

  /// Calls `body` with the frame's masks, each shape's trimmed to its budget and its stamp
  /// clock ticked (`RingCoverageAtlas.beginFrame()`), in the list kept between draws (no
  /// allocation per frame).
  package func withAtlases<R, E: Error>(
    of frame: RasterFrame, _ body: (FrameAtlases) throws(E) -> R
  ) throws(E) -> R {
    var atlases: [RingCoverageAtlas?] = []
    swap(&atlases, &frameAtlases)
    defer {
      atlases.removeAll(keepingCapacity: true)
      swap(&atlases, &frameAtlases)
    }
    frame.caches(as: RingCoverageAtlas.self, into: &atlases)
    var reach = 0
    for case let atlas? in atlases {
      atlas.beginFrame()
      reach = max(reach, atlas.reach)
    }
    return try body(FrameAtlases(atlases: atlases, maximumReach: reach))
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

/// The atlases of one draw call, by shape index, and the furthest any of their masks reaches.
package struct FrameAtlases {
  var atlases: [RingCoverageAtlas?]
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
