import LoaderCore

extension CoverageSpanRasterizer {
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

  /// Where `ring` lands on `target`, its mask built first if needed.
  @inline(__always)
  func placement(
    of ring: RingInstance, atlas: RingCoverageAtlas, target: PixelTarget, offsetsFit: Bool
  ) -> Placement {
    guard ring.centerX.isFinite, ring.centerY.isFinite, ring.angle.isFinite, ring.color.a > 0
    else { return Placement() }
    let steps = atlas.subpixelSteps
    let reach = Float(atlas.reach)
    // Culled before any arithmetic that could overflow.
    let cx = ring.centerX - target.originX
    let cy = ring.centerY - target.originY
    guard cx > -reach, cy > -reach, cx < Float(target.width) + reach,
      cy < Float(target.height) + reach
    else { return Placement() }
    // Anchor pixel and sub-pixel step of the centre (see RingCoverageAtlas), from the
    // centre's own coordinates (so the target's corner never changes the rounding); the offset
    // keeps the truncation a floor.
    let s = Float(steps)
    let qx = Int(ring.centerX * s + (0.5 + 65536 * s))
    let qy = Int(ring.centerY * s + (0.5 + 65536 * s))
    let px = qx / steps - 65536 - target.originPixelX
    let py = qy / steps - 65536 - target.originPixelY
    let key = atlas.key(
      phase: atlas.phase(ofDegrees: ring.angle), sx: qx % steps, sy: qy % steps)
    let (first, count) = atlas.mask(key)
    let c = ring.color
    return Placement(
      first: first, count: count, px: px, py: py,
      color: 0xFF00_0000 | UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b),
      alphaWeight: UInt32(c.a) + UInt32(c.a >> 7),
      insideX: px - atlas.reach >= 0 && px + atlas.reach < target.width && offsetsFit)
  }
}
