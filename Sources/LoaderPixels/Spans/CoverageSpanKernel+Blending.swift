import LoaderCore

extension CoverageSpanKernel {
  /// Chunks between a frame line's prefetch and its blending: nearer left the loads waiting,
  /// further (40, 64) measured slower again, the lines evicted or the prefetches wasted.
  static let prefetchDistance = 24

  /// Chunk by chunk, four pixels at once: red and blue (`0x00RR00BB`), then alpha and green,
  /// each channel in a 16-bit lane, so one multiply serves eight channels and no lane
  /// overflows (`255 * 256` fits in 16 bits). `translucent`: the weights are first multiplied
  /// by the colour's alpha weight (`p.alphaWeight` below 256, so `256 * 255` still fits); a
  /// constant at each call, so the opaque path pays nothing for it.
  @inline(__always)
  static func blendUnclipped(
    _ p: Placement, translucent: Bool, masks: ShapeMasks,
    target: PixelTarget, rows: Range<Int>
  ) {
    let blends = masks.chunks
    let anchor = target.base + p.py * target.pitch + p.px * 4
    let pitch = target.pitch
    let mask = SIMD4<UInt32>(repeating: 0x00FF_00FF)
    let color = SIMD4<UInt32>(repeating: p.color)
    let sourceRB = unsafeBitCast(color & mask, to: SIMD8<UInt16>.self)
    let sourceAG = unsafeBitCast((color &>> 8) & mask, to: SIMD8<UInt16>.self)
    var range = p.keyOrFirstChunk..<(p.keyOrFirstChunk + p.count)
    if p.py - masks.rowReach < rows.lowerBound || p.py + masks.rowReach >= rows.upperBound {
      // A ring across a band edge: only its chunks on this band's rows. Rows start where
      // the offset passes `dy * pitch - 4 * masks.reach` (see `MaskCache.Chunk`).
      let edge = 4 * masks.reach
      let lo = masks.firstChunk(in: range, offsetAtLeast: (rows.lowerBound - p.py) * pitch - edge)
      let hi = masks.firstChunk(
        in: lo..<range.upperBound, offsetAtLeast: (rows.upperBound - p.py) * pitch - edge)
      range = lo..<hi
    }
    let high = SIMD4<UInt32>(repeating: 0xFF00_FF00)
    let alpha = SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: p.alphaWeight))
    @inline(__always) func blendChunk(_ k: Int) {
      let at = anchor + Int(blends[k].offset)
      let w = masks.weights(k)
      var a = SIMD8<UInt16>(w[0], w[0], w[1], w[1], w[2], w[2], w[3], w[3])
      if translucent { a = (a &* alpha) &>> 8 }
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
      if k < prefetchEnd { prefetch(anchor + Int(blends[k + ahead].offset)) }
      blendChunk(k)
      blendChunk(k + 1)
      k += 2
    }
    if k < range.upperBound { blendChunk(k) }
  }

  /// Pixel by pixel, skipping what falls outside the target or `rows`.
  static func blendClipped(
    _ p: Placement, masks: ShapeMasks, target: PixelTarget, rows: Range<Int>
  ) {
    let rb = p.color & 0x00FF_00FF
    let ag = (p.color >> 8) & 0x00FF_00FF
    for k in p.keyOrFirstChunk..<(p.keyOrFirstChunk + p.count) {
      let (dy, dx) = masks.position(k)
      let y = p.py + dy
      guard rows.contains(y), y >= 0, y < target.height else { continue }
      let row = (target.base + y * target.pitch).assumingMemoryBound(to: UInt32.self)
      let w = masks.weights(k)
      for i in 0..<4 {
        let x = p.px + dx + i
        let a = (UInt32(w[i]) &* p.alphaWeight) >> 8
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
  /// with `a` the coverage times the colour's alpha. Only used when the renderer cannot
  /// composite premultiplied colour and the caller gave no surface to write.
  @discardableResult
  func blendStraight(
    _ frame: RasterFrame, shapes: FrameShapes, region: PixelRegion, into target: PixelTarget
  ) -> ChangedPixels? {
    var placed: [Placement] = []
    var masks: [ShapeMasks] = []
    swap(&placed, &placements)
    swap(&masks, &frameMasks)
    defer {
      swap(&placed, &placements)
      swap(&masks, &frameMasks)
    }
    placed.removeAll(keepingCapacity: true)
    place(
      frame, shapes: shapes.shapes, region: region, target: target, into: &placed, masks: &masks)
    var changed = ChangedPixels()
    for p in placed {
      let m = masks[Int(p.shape)]
      changed.add(x: p.px, y: p.py, reach: m.reach, rowReach: m.rowReach)
      let src = (
        r: Float(p.color >> 16 & 0xFF), g: Float(p.color >> 8 & 0xFF), b: Float(p.color & 0xFF)
      )
      for k in p.keyOrFirstChunk..<(p.keyOrFirstChunk + p.count) {
        let (dy, dx) = m.position(k)
        let y = p.py + dy
        guard y >= 0, y < target.height else { continue }
        let row = (target.base + y * target.pitch).assumingMemoryBound(to: UInt32.self)
        let w = m.weights(k)
        for i in 0..<4 {
          let x = p.px + dx + i
          let a = Float(w[i]) * Float(p.alphaWeight) / 65536
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
    return changed.clipped(width: target.width, height: target.height)
  }
}
