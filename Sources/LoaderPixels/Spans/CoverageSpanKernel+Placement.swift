import LoaderCore

extension CoverageSpanKernel {
  /// Where a ring's mask lands: its chunks, anchor pixel, colour, and whether it needs
  /// clipping; `count` 0 for a culled (or non-finite, or fully transparent) ring, -1 while
  /// `first` still holds the mask's key.
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

  /// Where `ring` (a visible one: `RasterFrame.forEachVisibleRing`) lands on `target`, with
  /// its mask's key in `first` and `count` -1 (`resolveMasks(_:atlases:)` puts the mask's
  /// chunks there); `count` 0 for a culled ring.
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
    let c = ring.color
    return Placement(
      first: key, count: -1, px: px, py: py,
      color: 0xFF00_0000 | UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b),
      alphaWeight: UInt32(c.a) + UInt32(c.a >> 7),
      insideX: px - atlas.reach >= 0 && px + atlas.reach < target.width && offsetsFit)
  }

  /// Rings looked up this many placements ahead of the one whose mask is resolved.
  static let keyPrefetchDistance = 16

  /// Replaces each placement's key (`placement(of:...)`) by its mask's chunks, building the
  /// masks not built yet, and drops the placements whose mask is empty. Each lookup is one
  /// 8-byte entry of a block of a shape's keys (`RingCoverageAtlas.blocks`: the block of the
  /// ring's sub-pixel offset, then the phase in it); in a scene of moving rings the keys are
  /// random and the blocks of a few dozen shapes exceed the nearer caches, so the entry
  /// `keyPrefetchDistance` placements ahead is asked for first and the misses overlap
  /// instead of queueing.
  func resolveMasks(_ placed: inout [Placement], atlases: [RingCoverageAtlas?]) {
    guard let any = atlases.first(where: { $0 != nil }) ?? nil else { return }
    // Each shape's key blocks as a plain pointer: no reference counting per ring (a shape
    // with nothing to draw has no placements, so any atlas stands in for it). Kept between
    // frames (locals: see the README).
    var tables: [UnsafeMutablePointer<UnsafeMutablePointer<RingCoverageAtlas.MaskSpan>>] = []
    swap(&tables, &frameKeyTables)
    defer { swap(&tables, &frameKeyTables) }
    tables.removeAll(keepingCapacity: true)
    for atlas in atlases { tables.append((atlas ?? any).blocks) }
    var clocks: [UInt32] = []
    swap(&clocks, &frameClocks)
    defer { swap(&clocks, &frameClocks) }
    clocks.removeAll(keepingCapacity: true)
    for atlas in atlases { clocks.append((atlas ?? any).frame) }
    let ahead = Self.keyPrefetchDistance
    let kept = placed.withUnsafeMutableBufferPointer { placed in
      tables.withUnsafeBufferPointer { tables in
        clocks.withUnsafeBufferPointer { clocks in
          let n = placed.count
          var kept = 0
          for i in 0..<n {
            if i + ahead < n {
              let q = placed[i + ahead]
              prefetch(Self.entry(tables[Int(q.shape)], q.first))
            }
            var p = placed[i]
            let entry = Self.entry(tables[Int(p.shape)], p.first)
            var m = entry.pointee
            if m.start >= 0 {
              // Written only when it changes: rings sharing a mask dirty its line once.
              let clock = clocks[Int(p.shape)]
              if m.stamp != clock { entry.pointee.stamp = clock }
            } else if let atlas = atlases[Int(p.shape)] {
              let built = atlas.buildMask(p.first)
              m = .init(start: Int32(built.start), count: Int32(built.count))
            }
            guard m.count > 0 else { continue }
            p.first = Int(m.start)
            p.count = Int(m.count)
            placed[kept] = p
            kept += 1
          }
          return kept
        }
      }
    }
    placed.removeLast(placed.count - kept)
  }

  /// Where `key`'s entry is among `blocks` (`RingCoverageAtlas.key(phase:sx:sy:)`).
  @inline(__always)
  static func entry(
    _ blocks: UnsafeMutablePointer<UnsafeMutablePointer<RingCoverageAtlas.MaskSpan>>, _ key: Int
  ) -> UnsafeMutablePointer<RingCoverageAtlas.MaskSpan> {
    blocks[key >> RingCoverageAtlas.phaseBits] + (key & RingCoverageAtlas.phaseMask)
  }
}
