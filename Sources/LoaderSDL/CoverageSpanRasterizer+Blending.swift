import CSDL2
import LoaderCore

extension CoverageSpanRasterizer {
  /// Blends every ring's mask into `target`.
  ///
  /// Per pixel of coverage `c` (0...255, as the weight `a = c + c >> 7` in 0...256) and an opaque
  /// source colour, two channels at a time in 32-bit lanes (`0x00RR00BB` and `0x00AA00GG`):
  /// ```
  /// dst = (src * a + dst * (256 - a)) >> 8
  /// ```
  /// which is Porter-Duff "over" for straight and premultiplied destinations alike.
  func blend(_ rings: UnsafeBufferPointer<RingInstance>, atlas: RingCoverageAtlas, into target: PixelTarget) {
    placements.removeAll(keepingCapacity: true)
    for ring in rings {
      let p = placement(of: ring, atlas: atlas, target: target)
      if p.count > 0 { placements.append(p) }
    }
    // Bands of about 1 MiB of frame stay in a core's L2 cache while every ring over them
    // is drawn; a random scene otherwise misses on nearly every row of every ring.
    let reach = atlas.reach
    let bandRows = max(2 * reach, (1 << 20) / max(1, target.pitch))
    bands.schedule(count: placements.count, height: target.height, bandRows: bandRows) { i in
      (placements[i].py - reach, placements[i].py + reach)
    }
    placements.withUnsafeBufferPointer { placed in
      for b in 0..<bands.bandCount {
        let top = b * bands.bandRows
        let bottom = min(target.height, top + bands.bandRows)
        let first = Int(bands.bandStart[b])
        let end = Int(bands.bandStart[b + 1])
        // Ring k + 1's rows in this band are prefetched while ring k blends: a ring's rows
        // are a pitch apart, each a separate miss that overlaps the others only when asked
        // for ahead of time.
        for k in first..<end {
          if k + 1 < end {
            prefetch(placed[Int(bands.items[k + 1])], atlas: atlas, target: target, top: top, bottom: bottom)
          }
          let p = placed[Int(bands.items[k])]
          if p.insideX {
            blendUnclipped(
              p, atlas: atlas, anchor: target.base + p.py * target.pitch + p.px * 4,
              pitch: target.pitch, dyRange: (top - p.py)..<(bottom - p.py))
          } else {
            blendClipped(p, atlas: atlas, target: target, rows: top..<bottom)
          }
        }
      }
    }
  }

  /// Where a ring's mask lands: its spans, anchor pixel, colour, and whether it needs
  /// clipping; `count` 0 for a culled (or non-finite) ring.
  struct Placement {
    var first = 0
    var count = 0
    var px = 0
    var py = 0
    var color: UInt32 = 0
    /// No span leaves the target's columns: only rows need clipping.
    var insideX = false
  }

  @inline(__always)
  func placement(of ring: RingInstance?, atlas: RingCoverageAtlas, target: PixelTarget)
    -> Placement
  {
    guard let ring, ring.centerX.isFinite, ring.centerY.isFinite, ring.angle.isFinite else {
      return Placement()
    }
    let steps = atlas.subpixelSteps
    let s = Float(steps)
    let reach = atlas.reach
    // Anchor pixel and sub-pixel step of the centre (see RingCoverageAtlas).
    let qx = (ring.centerX * s).rounded()
    let qy = (ring.centerY * s).rounded()
    guard abs(qx) < 1e8, abs(qy) < 1e8 else { return Placement() }
    let ix = Int(qx)
    let iy = Int(qy)
    let px = ix >= 0 ? ix / steps : -((-ix + steps - 1) / steps)
    let py = iy >= 0 ? iy / steps : -((-iy + steps - 1) / steps)
    if px + reach < 0 || py + reach < 0 || px - reach >= target.width || py - reach >= target.height {
      return Placement()
    }
    let key = atlas.key(
      phase: atlas.phase(ofDegrees: ring.angle), sx: ix - px * steps, sy: iy - py * steps)
    let (first, count) = atlas.mask(key)
    let c = ring.color
    return Placement(
      first: first, count: count, px: px, py: py,
      color: 0xFF00_0000 | UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b),
      insideX: px - reach >= 0 && px + reach < target.width)
  }

  @inline(__always)
  private func prefetch(
    _ p: Placement, atlas: RingCoverageAtlas, target: PixelTarget, top: Int, bottom: Int
  ) {
    guard p.insideX else { return }
    let spans = atlas.spans + p.first
    let anchor = target.base + p.py * target.pitch + p.px * 4
    for k in 0..<p.count {
      let span = spans[k]
      let y = p.py + Int(span.dy)
      guard y >= top, y < bottom else { continue }
      let start = anchor + Int(span.dy) * target.pitch + Int(span.dx) * 4
      csdl_prefetch(start)
      csdl_prefetch(start + (Int(span.count) - 1) * 4)
    }
  }

  @inline(__always)
  private func blendUnclipped(
    _ placement: Placement, atlas: RingCoverageAtlas, anchor: UnsafeMutableRawPointer, pitch: Int,
    dyRange: Range<Int>
  ) {
    let spans = atlas.spans + placement.first
    let weights = atlas.weights
    let mask = SIMD4<UInt32>(repeating: 0x00FF_00FF)
    let c = SIMD4<UInt32>(repeating: placement.color)
    let sourceRB = unsafeBitCast(c & mask, to: SIMD8<UInt16>.self)
    let sourceAG = unsafeBitCast((c &>> 8) & mask, to: SIMD8<UInt16>.self)
    for k in 0..<placement.count {
      let span = spans[k]
      guard dyRange.contains(Int(span.dy)) else { continue }
      var p = anchor + Int(span.dy) * pitch + Int(span.dx) * 4
      var w = UnsafeRawPointer(weights + Int(span.weight))
      // Runs are whole chunks of four (RingCoverageAtlas pads them with zero coverage).
      for _ in 0..<(Int(span.count) >> 2) {
        blendFour(p, weights: w, sourceRB: sourceRB, sourceAG: sourceAG)
        p += 16
        w += 4
      }
    }
  }

  /// Four pixels at once: red and blue (`0x00RR00BB`), then alpha and green, each channel in
  /// a 16-bit lane, so one multiply serves eight channels and no lane overflows
  /// (`255 * 256` fits in 16 bits).
  @inline(__always)
  private func blendFour(
    _ p: UnsafeMutableRawPointer, weights: UnsafeRawPointer, sourceRB: SIMD8<UInt16>,
    sourceAG: SIMD8<UInt16>
  ) {
    let mask = SIMD4<UInt32>(repeating: 0x00FF_00FF)
    // Coverage bytes c0...c3 to 16-bit lanes c0 c0 c1 c1 | c2 c2 c3 c3, then 0...255 to the
    // weight 0...256.
    let c = UInt64(weights.loadUnaligned(as: UInt32.self))
    var lo = (c & 0xFF) | (c & 0xFF00) << 24
    var hi = (c >> 16 & 0xFF) | (c >> 24) << 32
    lo |= lo << 16
    hi |= hi << 16
    var a = unsafeBitCast(SIMD2<UInt64>(lo, hi), to: SIMD8<UInt16>.self)
    a &+= a &>> 7
    let na = SIMD8<UInt16>(repeating: 256) &- a
    let d = p.loadUnaligned(as: SIMD4<UInt32>.self)
    let rb = unsafeBitCast(d & mask, to: SIMD8<UInt16>.self)
    let ag = unsafeBitCast((d &>> 8) & mask, to: SIMD8<UInt16>.self)
    let outRB = (sourceRB &* a &+ rb &* na) &>> 8
    let outAG = (sourceAG &* a &+ ag &* na) &>> 8
    let out = unsafeBitCast(outRB, to: SIMD4<UInt32>.self)
      | (unsafeBitCast(outAG, to: SIMD4<UInt32>.self) &<< 8)
    p.storeBytes(of: out, as: SIMD4<UInt32>.self)
  }

  private func blendClipped(
    _ placement: Placement, atlas: RingCoverageAtlas, target: PixelTarget, rows: Range<Int>
  ) {
    let spans = atlas.spans + placement.first
    let weights = atlas.weights
    let rb = placement.color & 0x00FF_00FF
    let ag = (placement.color >> 8) & 0x00FF_00FF
    for k in 0..<placement.count {
      let span = spans[k]
      let y = placement.py + Int(span.dy)
      guard rows.contains(y), y >= 0, y < target.height else { continue }
      var x0 = placement.px + Int(span.dx)
      var x1 = x0 + Int(span.count)
      var w = weights + Int(span.weight)
      if x0 < 0 {
        w += -x0
        x0 = 0
      }
      x1 = min(x1, target.width)
      guard x0 < x1 else { continue }
      let row = (target.base + y * target.pitch).assumingMemoryBound(to: UInt32.self) + x0
      for i in 0..<(x1 - x0) {
        let c = UInt32(w[i])
        let a = c + (c >> 7)
        let na = 256 &- a
        let d = row[i]
        let orb = ((rb &* a &+ (d & 0x00FF_00FF) &* na) >> 8) & 0x00FF_00FF
        let oag = ((ag &* a &+ ((d >> 8) & 0x00FF_00FF) &* na) >> 8) & 0x00FF_00FF
        row[i] = orb | (oag << 8)
      }
    }
  }

  /// The slow path for an overlay composited with straight alpha: "over" on straight colour,
  /// ```
  /// a_out = a + a_dst (1 - a)
  /// c_out = (c a + c_dst a_dst (1 - a)) / a_out
  /// ```
  /// Only used when the renderer cannot composite premultiplied colour and the caller gave
  /// no surface to write.
  func blendStraight(
    _ rings: UnsafeBufferPointer<RingInstance>, atlas: RingCoverageAtlas, into target: PixelTarget
  ) {
    for ring in rings {
      let p = placement(of: ring, atlas: atlas, target: target)
      guard p.count > 0 else { continue }
      let src = (r: Float(ring.color.r), g: Float(ring.color.g), b: Float(ring.color.b))
      for k in 0..<p.count {
        let span = atlas.spans[p.first + k]
        let y = p.py + Int(span.dy)
        guard y >= 0, y < target.height else { continue }
        let row = (target.base + y * target.pitch).assumingMemoryBound(to: UInt32.self)
        for i in 0..<Int(span.count) {
          let x = p.px + Int(span.dx) + i
          guard x >= 0, x < target.width else { continue }
          let a = Float(atlas.weights[Int(span.weight) + i]) / 255
          let d = row[x]
          let da = Float(d >> 24) / 255
          let outA = a + da * (1 - a)
          guard outA > 0 else { continue }
          let w = da * (1 - a)
          func channel(_ c: Float, _ shift: UInt32) -> UInt32 {
            UInt32(((c * a + Float((d >> shift) & 0xFF) * w) / outA).rounded()) << shift
          }
          row[x] =
            UInt32((outA * 255).rounded()) << 24 | channel(src.r, 16) | channel(src.g, 8)
            | channel(src.b, 0)
        }
      }
    }
  }
}
