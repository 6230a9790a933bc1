import CSDL2
import LoaderCore

extension CoverageSpanRasterizer {
  /// Blends every ring's mask into `target`.
  ///
  /// Per pixel of coverage `c` (0...255, taken as `a = c + c >> 7` in 0...256) and an opaque
  /// source colour, two channels at a time in 32-bit lanes (`0x00RR00BB` and `0x00AA00GG`):
  /// ```
  /// dst = (src * a + dst * (256 - a)) >> 8
  /// ```
  /// which is Porter-Duff "over" for straight and premultiplied destinations alike.
  func blend(_ rings: UnsafeBufferPointer<RingInstance>, atlas: RingCoverageAtlas, into target: PixelTarget) {
    // Ring k + 1 is placed, and its rows prefetched, while ring k blends: the frame is far
    // bigger than the caches, and a ring's rows are a frame's pitch apart, so each row is a
    // separate miss that only overlaps with the others when asked for ahead of time.
    var next = placement(of: rings.first, atlas: atlas, target: target)
    for k in 0..<rings.count {
      let current = next
      next = placement(of: k + 1 < rings.count ? rings[k + 1] : nil, atlas: atlas, target: target)
      if next.count > 0 {
        prefetch(atlas.spans + next.first, count: next.count, placement: next, target: target)
      }
      guard current.count > 0 else { continue }
      if current.inside {
        blendUnclipped(
          atlas.spans + current.first, count: current.count, coverage: atlas.coverageBytes,
          color: current.color,
          anchor: target.base + current.py * target.pitch + current.px * 4, pitch: target.pitch)
      } else {
        blendClipped(
          atlas.spans + current.first, count: current.count, coverage: atlas.coverageBytes,
          color: current.color, px: current.px, py: current.py, target: target)
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
    var inside = false
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
      inside: px - reach >= 0 && py - reach >= 0 && px + reach < target.width
        && py + reach < target.height)
  }

  @inline(__always)
  private func prefetch(
    _ spans: UnsafeMutablePointer<RingCoverageAtlas.Span>, count: Int, placement p: Placement,
    target: PixelTarget
  ) {
    guard p.inside else { return }
    let anchor = target.base + p.py * target.pitch + p.px * 4
    for k in 0..<count {
      let span = spans[k]
      let start = anchor + Int(span.dy) * target.pitch + Int(span.dx) * 4
      csdl_prefetch(start)
      csdl_prefetch(start + (Int(span.count) - 1) * 4)
    }
  }

  @inline(__always)
  private func blendUnclipped(
    _ spans: UnsafeMutablePointer<RingCoverageAtlas.Span>, count: Int,
    coverage: UnsafeMutablePointer<UInt8>, color: UInt32, anchor: UnsafeMutableRawPointer, pitch: Int
  ) {
    let rb = color & 0x00FF_00FF
    let ag = (color >> 8) & 0x00FF_00FF
    for k in 0..<count {
      let span = spans[k]
      let row = (anchor + Int(span.dy) * pitch).assumingMemoryBound(to: UInt32.self) + Int(span.dx)
      blendRun(row, coverage + Int(span.coverage), Int(span.count), color: color, rb: rb, ag: ag)
    }
  }

  private func blendClipped(
    _ spans: UnsafeMutablePointer<RingCoverageAtlas.Span>, count: Int,
    coverage: UnsafeMutablePointer<UInt8>, color: UInt32, px: Int, py: Int, target: PixelTarget
  ) {
    let rb = color & 0x00FF_00FF
    let ag = (color >> 8) & 0x00FF_00FF
    for k in 0..<count {
      let span = spans[k]
      let y = py + Int(span.dy)
      guard y >= 0, y < target.height else { continue }
      var x0 = px + Int(span.dx)
      var x1 = x0 + Int(span.count)
      var cov = coverage + Int(span.coverage)
      if x0 < 0 {
        cov += -x0
        x0 = 0
      }
      x1 = min(x1, target.width)
      guard x0 < x1 else { continue }
      let row = (target.base + y * target.pitch).assumingMemoryBound(to: UInt32.self) + x0
      blendRun(row, cov, x1 - x0, color: color, rb: rb, ag: ag)
    }
  }

  @inline(__always)
  private func blendRun(
    _ row: UnsafeMutablePointer<UInt32>, _ cov: UnsafeMutablePointer<UInt8>, _ n: Int,
    color: UInt32, rb: UInt32, ag: UInt32
  ) {
    for i in 0..<n {
      let c = UInt32(cov[i])
      if c == 255 {
        row[i] = color
        continue
      }
      let a = c &+ (c >> 7)
      let na = 256 &- a
      let d = row[i]
      let drb = d & 0x00FF_00FF
      let dag = (d >> 8) & 0x00FF_00FF
      let orb = ((rb &* a &+ drb &* na) >> 8) & 0x00FF_00FF
      let oag = ((ag &* a &+ dag &* na) >> 8) & 0x00FF_00FF
      row[i] = orb | (oag << 8)
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
          let a = Float(atlas.coverageBytes[Int(span.coverage) + i]) / 255
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
