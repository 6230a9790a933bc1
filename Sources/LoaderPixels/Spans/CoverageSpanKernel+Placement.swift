import LoaderCore

extension CoverageSpanKernel {
  /// Where a ring's mask lands: its chunks, anchor pixel, colour, and whether it needs
  /// clipping; `count` 0 for a culled (or non-finite, or fully transparent) ring.
  struct Placement {
    var first = 0
    var count = 0
    var px = 0
    var py = 0
    /// `0xFFRRGGBB`: the colour's alpha is in `alpha`, applied to the coverage.
    var color: UInt32 = 0
    /// The colour's alpha `a` (0...255) as the weight `a + a >> 7` (1...256): the mask's
    /// weights are multiplied by `alphaWeight / 256` when it is below 256.
    var alphaWeight: UInt32 = 256
    /// No chunk leaves the target's columns: only rows need clipping.
    var insideX = false
    /// The ring's shape: its index among the draw's atlases.
    var shape: Int32 = 0
  }

  /// Where `ring` (a visible one: `RasterFrame.forEachVisibleRing`) lands on `target`, its
  /// mask built first if needed.
  @inline(__always)
  func placement(
    of ring: RingInstance, atlas: RingCoverageAtlas, target: PixelTarget, offsetsFit: Bool
  ) -> Placement {
    let reach = Float(atlas.reach)
    // Culled before any arithmetic that could overflow.
    let cx = ring.centerX - target.originX
    let cy = ring.centerY - target.originY
    guard cx > -reach, cy > -reach, cx < Float(target.width) + reach,
      cy < Float(target.height) + reach
    else { return Placement() }
    // Anchor pixel and sub-pixel step of the centre, from its own coordinates (so the
    // target's corner never changes the rounding).
    let (ax, sx) = atlas.keys.anchor(ring.centerX)
    let (ay, sy) = atlas.keys.anchor(ring.centerY)
    let px = ax - target.originPixelX
    let py = ay - target.originPixelY
    let key = atlas.key(phase: atlas.phase(ofDegrees: ring.angle), sx: sx, sy: sy)
    let (first, count) = atlas.mask(key)
    let c = ring.color
    return Placement(
      first: first, count: count, px: px, py: py,
      color: 0xFF00_0000 | UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b),
      alphaWeight: UInt32(c.a) + UInt32(c.a >> 7),
      insideX: px - atlas.reach >= 0 && px + atlas.reach < target.width && offsetsFit)
  }
}
