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
  func blend(
    _ rings: UnsafeBufferPointer<RingInstance>, atlas: RingCoverageAtlas, into target: PixelTarget
  ) {
    atlas.use(pitch: target.pitch)
    let offsetsFit = atlas.offsetsFit
    // Filled as a local: each append to a class's stored array pays a runtime exclusivity
    // check. The buffer goes back afterwards, so its capacity is kept between frames.
    var placed: [Placement] = []
    swap(&placed, &placements)
    defer { swap(&placed, &placements) }
    placed.removeAll(keepingCapacity: true)
    for ring in rings {
      let p = placement(of: ring, atlas: atlas, target: target, offsetsFit: offsetsFit)
      if p.count > 0 { placed.append(p) }
    }
    // Every mask of the frame is built: the store stays put until the next frame.
    let masks = atlas.storage
    let reach = atlas.reach
    // Bands of about 1 MiB of frame stay in a core's L2 cache while every ring over them is
    // drawn; a random scene otherwise misses on nearly every row of every ring.
    let bandRows = max(2 * reach, (1 << 20) / max(1, target.pitch))
    placed.withUnsafeBufferPointer { placed in
      bands.schedule(count: placed.count, height: target.height, bandRows: bandRows) { i in
        (placed[i].py - reach, placed[i].py + reach)
      }
      let bandCount = bands.bandCount
      let bandRows = bands.bandRows
      bands.withBands { bandStart, items in
        for b in 0..<bandCount {
          let top = b * bandRows
          let bottom = min(target.height, top + bandRows)
          let first = Int(bandStart[b])
          let end = Int(bandStart[b + 1])
          // Where rings crowd the next band (four chunks to each of its cache lines: about
          // two touches a line, as a row's chunks come in pairs, so nearly every line is
          // used), stream the whole band in, a slice per ring of this one: sequential lines
          // arrive at memory bandwidth instead of one row-miss at a time. Sparser bands
          // leave most of the streamed lines untouched, and streaming them measured slower
          // than the misses.
          var streamFrom = target.base
          var streamEnd = target.base
          var streamStep = 0
          if b + 1 < bandCount, end > first {
            let nextTop = bottom
            let nextBottom = min(target.height, nextTop + bandRows)
            let lines = (nextBottom - nextTop) * target.pitch / 64
            // Every ring of a frame has about as many chunks as this band's first.
            let chunksNext = (Int(bandStart[b + 2]) - end) * placed[Int(items[first])].count
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
            // Ahead of the blending: ring k + 2's chunks. (Its rows of frame, asked for a
            // ring ahead, measured no faster at any scene size: the hardware finds them as
            // soon.)
            if k + 2 < end {
              let p = placed[Int(items[k + 2])]
              csdl_prefetch(masks.offsets + p.first)
              csdl_prefetch(masks.weights + p.first)
            }
            let p = placed[Int(items[k])]
            if p.insideX {
              blendUnclipped(p, masks: masks, reach: reach, target: target, rows: top..<bottom)
            } else {
              blendClipped(p, masks: masks, target: target, rows: top..<bottom)
            }
          }
        }
      }
    }
  }

  @inline(__always)
  func placement(
    of ring: RingInstance?, atlas: RingCoverageAtlas, target: PixelTarget, offsetsFit: Bool
  ) -> Placement {
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
    let qx = Int(ring.centerX * s + (0.5 + 65536 * s))
    let qy = Int(ring.centerY * s + (0.5 + 65536 * s))
    let px = qx / steps - 65536
    let py = qy / steps - 65536
    let key = atlas.key(
      phase: atlas.phase(ofDegrees: ring.angle), sx: qx % steps, sy: qy % steps)
    let (first, count) = atlas.mask(key)
    let c = ring.color
    return Placement(
      first: first, count: count, px: px, py: py,
      color: 0xFF00_0000 | UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b),
      insideX: px - atlas.reach >= 0 && px + atlas.reach < target.width && offsetsFit)
  }

  /// Chunks between a frame line's prefetch and its blending: nearer left the loads waiting,
  /// further (40, 64) measured slower again, the lines evicted or the prefetches wasted.
  static let prefetchDistance = 24

  /// Chunk by chunk, four pixels at once: red and blue (`0x00RR00BB`), then alpha and green,
  /// each channel in a 16-bit lane, so one multiply serves eight channels and no lane
  /// overflows (`255 * 256` fits in 16 bits).
  @inline(__always)
  private func blendUnclipped(
    _ p: Placement, masks: RingCoverageAtlas.Storage, reach: Int, target: PixelTarget,
    rows: Range<Int>
  ) {
    let offsets = masks.offsets
    let weights = masks.weights
    let anchor = target.base + p.py * target.pitch + p.px * 4
    let pitch = target.pitch
    let mask = SIMD4<UInt32>(repeating: 0x00FF_00FF)
    let color = SIMD4<UInt32>(repeating: p.color)
    let sourceRB = unsafeBitCast(color & mask, to: SIMD8<UInt16>.self)
    let sourceAG = unsafeBitCast((color &>> 8) & mask, to: SIMD8<UInt16>.self)
    var range = p.first..<(p.first + p.count)
    if p.py - reach < rows.lowerBound || p.py + reach >= rows.upperBound {
      // A ring across a band edge: only its chunks on this band's rows. Rows start where
      // the offset passes `dy * pitch - 4 * reach` (see `RingCoverageAtlas.offsets`).
      let edge = 4 * reach
      let lo = masks.firstChunk(in: range, offsetAtLeast: (rows.lowerBound - p.py) * pitch - edge)
      let hi = masks.firstChunk(
        in: lo..<range.upperBound, offsetAtLeast: (rows.upperBound - p.py) * pitch - edge)
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
        unsafeBitCast(outRB, to: SIMD4<UInt32>.self)
        | (unsafeBitCast(outAG, to: SIMD4<UInt32>.self) & high)
      at.storeBytes(of: out, as: SIMD4<UInt32>.self)
    }
    // Two chunks an iteration: half the loop's bookkeeping. Each iteration also asks for the
    // frame line of the chunk `ahead` further on (about six rows down): a row's chunks come
    // in pairs, so that reaches nearly every line, early enough for an L2 or L3 hit to land
    // before the blending gets there; the load stalls on those lines otherwise.
    let ahead = Self.prefetchDistance
    let prefetchEnd = range.upperBound - ahead
    var k = range.lowerBound
    while k + 1 < range.upperBound {
      if k < prefetchEnd { csdl_prefetch(anchor + Int(offsets[k + ahead])) }
      blendChunk(k)
      blendChunk(k + 1)
      k += 2
    }
    if k < range.upperBound { blendChunk(k) }
  }

  /// Pixel by pixel, skipping what falls outside the target or `rows`.
  private func blendClipped(
    _ p: Placement, masks: RingCoverageAtlas.Storage, target: PixelTarget, rows: Range<Int>
  ) {
    let chunks = masks.chunks
    let weights = masks.weights
    let rb = p.color & 0x00FF_00FF
    let ag = (p.color >> 8) & 0x00FF_00FF
    for k in p.first..<(p.first + p.count) {
      let chunk = chunks[k]
      let y = p.py + Int(chunk.dy)
      guard rows.contains(y), y >= 0, y < target.height else { continue }
      let row = (target.base + y * target.pitch).assumingMemoryBound(to: UInt32.self)
      for i in 0..<4 {
        let x = p.px + Int(chunk.dx) + i
        let a = UInt32(weights[k][i])
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
      let p = placement(of: ring, atlas: atlas, target: target, offsetsFit: false)
      guard p.count > 0 else { continue }
      let masks = atlas.storage
      let src = (r: Float(ring.color.r), g: Float(ring.color.g), b: Float(ring.color.b))
      for k in p.first..<(p.first + p.count) {
        let chunk = masks.chunks[k]
        let y = p.py + Int(chunk.dy)
        guard y >= 0, y < target.height else { continue }
        let row = (target.base + y * target.pitch).assumingMemoryBound(to: UInt32.self)
        for i in 0..<4 {
          let x = p.px + Int(chunk.dx) + i
          let a = Float(masks.weights[k][i]) / 256
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
