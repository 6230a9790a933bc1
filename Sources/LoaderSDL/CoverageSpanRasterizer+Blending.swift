import CSDL2
import LoaderCore

extension CoverageSpanRasterizer {
  /// Where a ring's mask lands: its chunks, anchor pixel, colour, and whether it needs
  /// clipping; `count` 0 for a culled (or non-finite) ring.
  struct Placement {
    var first = 0
    var count = 0
    var px = 0
    var py = 0
    var color: UInt32 = 0
    /// No chunk leaves the target's columns: only rows need clipping.
    var insideX = false
  }

  /// Blends every ring's mask into `target`.
  ///
  /// Per pixel of coverage `c` (0...255, as the weight `a = c + c >> 7` in 0...256) and an
  /// opaque source colour, each channel in a 16-bit lane:
  /// ```
  /// dst = (src * a + dst * (256 - a)) >> 8
  /// ```
  /// which is Porter-Duff "over" for straight and premultiplied destinations alike.
  func blend(_ rings: UnsafeBufferPointer<RingInstance>, atlas: RingCoverageAtlas, into target: PixelTarget) {
    placements.removeAll(keepingCapacity: true)
    atlas.use(pitch: target.pitch)
    for ring in rings {
      let p = placement(of: ring, atlas: atlas, target: target)
      if p.count > 0 { placements.append(p) }
    }
    // Bands of about 1 MiB of frame stay in a core's L2 cache while every ring over them is
    // drawn; a random scene otherwise misses on nearly every row of every ring.
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
        // Where rings crowd the next band (four chunks to each of its cache lines: about two
        // touches a line, as a row's chunks come in pairs, so nearly every line is used),
        // stream the whole band in, a slice per ring of this one: sequential lines arrive at
        // memory bandwidth instead of one row-miss at a time. Sparser bands leave most of
        // the streamed lines untouched, and streaming them measured slower than the misses.
        var streamFrom = target.base
        var streamEnd = target.base
        var streamStep = 0
        if b + 1 < bands.bandCount, end > first {
          let nextTop = bottom
          let nextBottom = min(target.height, nextTop + bands.bandRows)
          let lines = (nextBottom - nextTop) * target.pitch / 64
          // Every ring of a frame has about as many chunks as this band's first.
          let chunksNext = (Int(bands.bandStart[b + 2]) - end) * placed[Int(bands.items[first])].count
          if chunksNext >= 4 * lines {
            streamFrom = target.base + nextTop * target.pitch
            streamEnd = target.base + nextBottom * target.pitch
            streamStep = (lines + (end - first) - 1) / (end - first) * 64
          }
        }
        for k in first..<end {
          if streamStep > 0 {
            let stop = min(streamEnd, streamFrom + streamStep)
            while streamFrom < stop {
              csdl_prefetch(streamFrom)
              streamFrom += 64
            }
          }
          // Ahead of the blending: ring k + 2's chunks. (Its rows of frame, asked for a ring
          // ahead, measured no faster at any scene size: the hardware finds them as soon.)
          if k + 2 < end {
            let p = placed[Int(bands.items[k + 2])]
            csdl_prefetch(atlas.offsets + p.first)
            csdl_prefetch(atlas.weights + p.first)
          }
          let p = placed[Int(bands.items[k])]
          if p.insideX {
            blendUnclipped(p, atlas: atlas, target: target, rows: top..<bottom)
          } else {
            blendClipped(p, atlas: atlas, target: target, rows: top..<bottom)
          }
        }
      }
    }
  }

  @inline(__always)
  func placement(of ring: RingInstance?, atlas: RingCoverageAtlas, target: PixelTarget)
    -> Placement
  {
    guard let ring, ring.centerX.isFinite, ring.centerY.isFinite, ring.angle.isFinite else {
      return Placement()
    }
    let steps = atlas.subpixelSteps
    let reach = Float(atlas.reach)
    // Culled before any arithmetic that could overflow.
    guard ring.centerX > -reach, ring.centerY > -reach, ring.centerX < Float(target.width) + reach,
      ring.centerY < Float(target.height) + reach
    else { return Placement() }
    // Anchor pixel and sub-pixel step of the centre (see RingCoverageAtlas); the offset
    // keeps the truncation a floor.
    let s = Float(steps)
    let ix = Int(ring.centerX * s + (0.5 + 65536 * s)) - 65536 * steps
    let iy = Int(ring.centerY * s + (0.5 + 65536 * s)) - 65536 * steps
    let px = ix >= 0 ? ix / steps : -((-ix + steps - 1) / steps)
    let py = iy >= 0 ? iy / steps : -((-iy + steps - 1) / steps)
    let key = atlas.key(
      phase: atlas.phase(ofDegrees: ring.angle), sx: ix - px * steps, sy: iy - py * steps)
    let (first, count) = atlas.mask(key)
    let c = ring.color
    return Placement(
      first: first, count: count, px: px, py: py,
      color: 0xFF00_0000 | UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b),
      insideX: px - atlas.reach >= 0 && px + atlas.reach < target.width && atlas.offsetsFit)
  }

  /// Chunk by chunk, four pixels at once: red and blue (`0x00RR00BB`), then alpha and green,
  /// each channel in a 16-bit lane, so one multiply serves eight channels and no lane
  /// overflows (`255 * 256` fits in 16 bits).
  @inline(__always)
  private func blendUnclipped(
    _ p: Placement, atlas: RingCoverageAtlas, target: PixelTarget, rows: Range<Int>
  ) {
    let offsets = atlas.offsets
    let weights = atlas.weights
    let anchor = target.base + p.py * target.pitch + p.px * 4
    let pitch = target.pitch
    let mask = SIMD4<UInt32>(repeating: 0x00FF_00FF)
    let color = SIMD4<UInt32>(repeating: p.color)
    let sourceRB = unsafeBitCast(color & mask, to: SIMD8<UInt16>.self)
    let sourceAG = unsafeBitCast((color &>> 8) & mask, to: SIMD8<UInt16>.self)
    var range = p.first..<(p.first + p.count)
    if p.py - atlas.reach < rows.lowerBound || p.py + atlas.reach >= rows.upperBound {
      // A ring across a band edge: only its chunks on this band's rows. Rows start where
      // the offset passes `dy * pitch - 4 * reach` (see `RingCoverageAtlas.offsets`).
      let edge = 4 * atlas.reach
      let lo = atlas.firstChunk(in: range, offsetAtLeast: (rows.lowerBound - p.py) * pitch - edge)
      let hi = atlas.firstChunk(in: lo..<range.upperBound, offsetAtLeast: (rows.upperBound - p.py) * pitch - edge)
      range = lo..<hi
    }
    let high = SIMD4<UInt32>(repeating: 0xFF00_FF00)
    @inline(__always) func blendChunk(_ k: Int) {
      let at = anchor + Int(offsets[k])
      let w = weights[k]
      let a = SIMD8<UInt16>(w[0], w[0], w[1], w[1], w[2], w[2], w[3], w[3])
      let na = SIMD8<UInt16>(repeating: 256) &- a
      let d = at.loadUnaligned(as: SIMD4<UInt32>.self)
      let rb = unsafeBitCast(d & mask, to: SIMD8<UInt16>.self)
      let ag = unsafeBitCast(d, to: SIMD8<UInt16>.self) &>> 8
      let outRB = (sourceRB &* a &+ rb &* na) &>> 8
      // Alpha and green land in the high byte of their lanes: where they belong.
      let outAG = sourceAG &* a &+ ag &* na
      let out =
        unsafeBitCast(outRB, to: SIMD4<UInt32>.self) | (unsafeBitCast(outAG, to: SIMD4<UInt32>.self) & high)
      at.storeBytes(of: out, as: SIMD4<UInt32>.self)
    }
    // Two chunks an iteration: half the loop's bookkeeping.
    var k = range.lowerBound
    while k + 1 < range.upperBound {
      blendChunk(k)
      blendChunk(k + 1)
      k += 2
    }
    if k < range.upperBound { blendChunk(k) }
  }

  /// Pixel by pixel, skipping what falls outside the target or `rows`.
  private func blendClipped(
    _ p: Placement, atlas: RingCoverageAtlas, target: PixelTarget, rows: Range<Int>
  ) {
    let chunks = atlas.chunks
    let rb = p.color & 0x00FF_00FF
    let ag = (p.color >> 8) & 0x00FF_00FF
    for k in p.first..<(p.first + p.count) {
      let chunk = chunks[k]
      let y = p.py + Int(chunk.dy)
      guard rows.contains(y), y >= 0, y < target.height else { continue }
      let row = (target.base + y * target.pitch).assumingMemoryBound(to: UInt32.self)
      for i in 0..<4 {
        let x = p.px + Int(chunk.dx) + i
        let a = UInt32(atlas.weights[k][i])
        guard x >= 0, x < target.width, a > 0 else { continue }
        let na = 256 &- a
        let d = row[x]
        let orb = ((rb &* a &+ (d & 0x00FF_00FF) &* na) >> 8) & 0x00FF_00FF
        let oag = ((ag &* a &+ ((d >> 8) & 0x00FF_00FF) &* na) >> 8) & 0x00FF_00FF
        row[x] = orb | (oag << 8)
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
      for k in p.first..<(p.first + p.count) {
        let chunk = atlas.chunks[k]
        let y = p.py + Int(chunk.dy)
        guard y >= 0, y < target.height else { continue }
        let row = (target.base + y * target.pitch).assumingMemoryBound(to: UInt32.self)
        for i in 0..<4 {
          let x = p.px + Int(chunk.dx) + i
          let a = Float(atlas.weights[k][i]) / 256
          guard x >= 0, x < target.width, a > 0 else { continue }
          let d = row[x]
          let da = Float(d >> 24) / 255
          let outA = a + da * (1 - a)
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
