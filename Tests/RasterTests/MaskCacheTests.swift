import LoaderCore
import Testing

@testable import LoaderPixels

/// `MaskCache`, the one table and arena of a store's masks, and `CachePolicy`, the one order
/// everything a store holds is let go in: masks found as they were built through the table's
/// growth and eviction, kept exactly in the policy's order, moved intact to another pitch; and
/// a draw that names one shape twice building each mask once.
@Suite struct MaskCacheTests {
  static let seed = DashedRing(style: .seed)

  /// A cache holding the masks of `keys` of `shape`, built at `pitch`, stamped `now`.
  static func cache(
    _ shape: RingMaskShape, _ keys: [Int], pitch: Int = 4096, now: UInt32 = 1
  ) -> MaskCache {
    let cache = MaskCache()
    let scratch = MaskScratch()
    let grid = shape.grid.map { RingDistanceGrid(unit: $0.unit) }
    for key in keys {
      scratch.count = 0
      let (s, c) = shape.buildMask(key, pitch: pitch, grid: grid, into: scratch)
      let start = cache.append(scratch.chunks + s, count: c)
      cache.add(
        MaskCache.Slot(
          key: shape.cacheKey(key), start: Int32(start), count: Int32(c), stamp: now,
          pitch: Int32(pitch)))
    }
    return cache
  }

  /// The mask of `key`, chunk by chunk, as `(dy, dx, coverage)`; nil when not held.
  static func mask(_ cache: MaskCache, _ shape: RingMaskShape, _ key: Int) -> [[Int]]? {
    let slot = cache.table.slot(shape.cacheKey(key)).pointee
    guard slot.key != MaskCache.empty else { return nil }
    return (Int(slot.start)..<Int(slot.start + slot.count)).map { k in
      let c = cache.chunks[k].coverage
      let (dy, dx) = MaskCache.position(cache.chunks[k].offset, pitch: Int(slot.pitch))
      return [dy, dx, Int(c[0]), Int(c[1]), Int(c[2]), Int(c[3])]
    }
  }

  /// 400 masks over 64 sub-pixel offsets are found as built after the table grew, and after
  /// an eviction that keeps them all moved them into an arena and a table sized to them; the
  /// masks of another shape with the same keys are other masks.
  @Test func theTableFindsEveryMaskThroughGrowthAndEviction() {
    let shape = RingMaskShape(shape: Self.seed)
    let keys = (0..<400).map {
      shape.keys.key(phase: ($0 * 37) % shape.keys.phases, sx: $0 % 8, sy: $0 / 50)
    }
    #expect(Set(keys).count == keys.count)
    let cache = Self.cache(shape, keys)
    #expect(cache.maskCount == keys.count && cache.slotCount >= 2 * keys.count)
    let built = keys.map { Self.mask(cache, shape, $0) }
    #expect(built.allSatisfy { $0 != nil && !$0!.isEmpty })
    cache.evict(ranksFrom: CachePolicy.ranks, now: 1)
    #expect(cache.maskCount == keys.count && cache.slotCount == 1024)
    #expect(cache.chunkHighWater == cache.chunkCount, "the pages past the masks given back")
    for (k, key) in keys.enumerated() { #expect(Self.mask(cache, shape, key) == built[k]) }
    let other = RingMaskShape(shape: Self.seed)
    #expect(Self.mask(cache, other, keys[0]) == nil, "another shape's serial")
    cache.evict(ranksFrom: 0, now: 1)
    #expect(cache.maskCount == 0 && Self.mask(cache, shape, keys[0]) == nil)
  }

  /// Masks used again rank by recency, ahead of fresh ones (the oldest fresh first), and
  /// everything past the horizon ranks last: an eviction keeps exactly the first ranks.
  @Test func evictionKeepsThePolicysFirstRanks() {
    let shape = RingMaskShape(shape: Self.seed)
    let keys = (0..<6).map { shape.keys.key(phase: 7 * $0, sx: $0, sy: 3) }
    let now: UInt32 = 1000
    let cache = Self.cache(shape, keys, now: now)
    // Stamps: 0, 1 used again at ages 0 and 5; 2, 3 fresh at ages 1 and 9; 4 fresh and 5
    // used again, both past the horizon.
    let stamps: [UInt32] = [
      now | CachePolicy.reusedBit, (now - 5) | CachePolicy.reusedBit, now - 1, now - 9,
      now - CachePolicy.horizon, (now - 600) | CachePolicy.reusedBit,
    ]
    for (k, key) in keys.enumerated() {
      cache.table.slot(shape.cacheKey(key)).pointee.stamp = stamps[k]
    }
    let ranks = stamps.map { CachePolicy.rank($0, now: now) }
    #expect(ranks[0] < ranks[1] && ranks[1] < ranks[3] && ranks[3] < ranks[2])
    #expect(ranks[2] < ranks[4] && ranks[4] < ranks[5])
    var histogram = [Int](repeating: 0, count: CachePolicy.ranks)
    cache.addRanks(into: &histogram, now: now)
    #expect(histogram.reduce(0, +) == cache.chunkCount * MaskCache.chunkBytes)
    let kept = keys.map { Self.mask(cache, shape, $0) }
    cache.evict(ranksFrom: ranks[2], now: now)
    for (k, key) in keys.enumerated() {
      #expect((Self.mask(cache, shape, key) != nil) == [0, 1, 3].contains(k), "mask \(k)")
    }
    for k in [0, 1, 3] { #expect(Self.mask(cache, shape, keys[k]) == kept[k], "mask \(k) intact") }
  }

  @Test func ranksAndCutoffs() {
    #expect(CachePolicy.bucket(0) == 0 && CachePolicy.bucket(1) == 1 && CachePolicy.bucket(3) == 2)
    #expect(CachePolicy.bucket(4) == 3 && CachePolicy.bucket(.max) == CachePolicy.buckets - 1)
    let young = CachePolicy.young
    let reused = CachePolicy.reusedBit
    #expect(CachePolicy.rank(100 | reused, now: 100) == 0)
    #expect(CachePolicy.rank(95 | reused, now: 100) == 3)
    #expect(CachePolicy.rank(100, now: 100) == 2 * young - 1)
    #expect(CachePolicy.rank(0, now: CachePolicy.horizon - 1) == young)
    #expect(CachePolicy.rank(0, now: CachePolicy.horizon) == 2 * young)
    #expect(CachePolicy.rank(0 | reused, now: CachePolicy.horizon) == 2 * young)
    #expect(CachePolicy.rank(5, now: 4) == CachePolicy.ranks - 1, "the clock wraps at 2^31")
    #expect(CachePolicy.rank(0, now: CachePolicy.idleDraws) == CachePolicy.idleRank)
    let h = [10, 20, 40] + [Int](repeating: 0, count: CachePolicy.ranks - 3)
    #expect(CachePolicy.cutoff(h, fitting: 35) == 2)
    #expect(CachePolicy.cutoff(h, fitting: 35, fixed: 10) == 1)
    #expect(CachePolicy.cutoff(h, fitting: 5) == 0)
    #expect(CachePolicy.cutoff(h, fitting: 70) == CachePolicy.ranks)
  }

  /// A chunk's offset is its only record of where it lies: moved to another pitch, a mask
  /// reads back the same, and at a pitch it is stored at, the offset is `dy * pitch + dx * 4`.
  @Test func masksMoveIntactToEveryPitch() {
    let shape = RingMaskShape(shape: Self.seed.scaled(by: 1.8))
    let keys = (0..<10).map { shape.keys.key(phase: 7 * $0, sx: $0 % 8, sy: 3) }
    let cache = Self.cache(shape, keys, pitch: shape.ownPitch)
    let built = keys.map { Self.mask(cache, shape, $0)! }
    for pitch in [4096, 1 << 20, shape.ownPitch, 4 * 1921] {
      for key in keys { cache.repitch(cache.table.slot(shape.cacheKey(key)), to: pitch) }
      for (k, key) in keys.enumerated() { #expect(Self.mask(cache, shape, key) == built[k]) }
      let slot = cache.table.slot(shape.cacheKey(keys[3])).pointee
      let (dy, dx) = MaskCache.position(cache.chunks[Int(slot.start)].offset, pitch: pitch)
      #expect(Int(cache.chunks[Int(slot.start)].offset) == dy * pitch + dx * 4)
    }
    #expect(shape.storedPitch(forTarget: 64) == shape.ownPitch, "a target narrower than a ring")
    #expect(shape.storedPitch(forTarget: 1 << 30) == shape.ownPitch, "offsets past 32 bits")
    #expect(shape.storedPitch(forTarget: 4096) == 4096)
    let all = built.joined()
    #expect(all.contains { $0[0] < -10 } && all.contains { $0[0] > 10 })
    #expect(all.contains { $0[1] < -10 } && all.contains { $0[1] > 10 })
  }

  /// One shape named three times in a draw (and many rings needing the same masks) on two
  /// threads: each mask is built once, by one worker, and the pixels are those of the shape
  /// named once (`make check-threads` runs this suite).
  @Test func equalShapesInOneDrawBuildEachMaskOnce() throws {
    let (w, h) = (400, 300)
    var rings: [RingInstance] = []
    for i in 0..<120 {
      rings.append(
        RingInstance(
          centerX: Float(30 + (i % 12) * 30) + Float(i % 3) / 8,
          centerY: Float(30 + (i / 12) * 25), angle: Float(i % 8) * 45,
          color: RGBAColor(hex: 0x3366CC), shape: Int32(i % 3)))
    }
    func draw(shapes: [DashedRing]) throws -> ([UInt32], Int) {
      let drawer = PixelBufferDrawer()
      var pixels = [UInt32](repeating: 0xFFFF_FFFF, count: w * h)
      var ids = [ShapeID](repeating: .none, count: shapes.count)
      try pixels.withUnsafeMutableBytes { raw in
        try rings.withUnsafeBufferPointer { rings in
          try shapes.withUnsafeBufferPointer { shapes in
            try ids.withUnsafeMutableBufferPointer { ids in
              _ = try drawer.draw(
                rings, shapes: shapes, ids: ids, into: raw.baseAddress!, bytesPerRow: 4 * w,
                region: PixelRegion(originX: 0, originY: 0, x: 0, y: 0, width: w, height: h),
                straight: false,
                threads: 2)
            }
          }
        }
      }
      return (pixels, drawer.shapes.masks.maskCount)
    }
    let shape = Self.seed.scaled(by: 0.5)
    let (three, built) = try draw(shapes: [shape, shape, shape])
    var one = rings
    for k in one.indices { one[k].shape = 0 }
    rings = one
    let (single, builtOnce) = try draw(shapes: [shape])
    #expect(built == builtOnce && built == 24, "8 angles at 3 offsets")
    #expect(three == single)
  }

  /// One drawer's handle (`ShapeID`) carried from a draw of one shape to a draw of another: the
  /// second shape is drawn as itself, the same bytes as a fresh drawer draws it.
  @Test func aHandleNeverDrawsAnotherShape() throws {
    let (w, h) = (200, 100)
    let rings = (0..<3).map {
      RingInstance(
        centerX: Float(40 + 60 * $0), centerY: 50, angle: Float(30 * $0),
        color: RGBAColor(hex: 0x3366CC))
    }
    func draw(_ shape: DashedRing, with drawer: PixelBufferDrawer) throws -> [UInt32] {
      var pixels = [UInt32](repeating: 0xFFFF_FFFF, count: w * h)
      try pixels.withUnsafeMutableBytes { raw in
        try drawer.draw(
          rings, shape: shape,
          into: PixelBuffer(
            base: raw.baseAddress, width: w, height: h, bytesPerRow: 4 * w,
            format: .bgraPremultiplied), threads: 1)
      }
      return pixels
    }
    let (small, large) = (Self.seed.scaled(by: 0.5), Self.seed.scaled(by: 0.8))
    let drawer = PixelBufferDrawer()
    let first = try draw(small, with: drawer)
    let second = try draw(large, with: drawer)
    let alone = try draw(large, with: PixelBufferDrawer())
    let (differ, same) = (first != alone, second == alone)
    #expect(differ, "the two shapes draw different pixels")
    #expect(same, "the second shape through the first one's handle")
    #expect(Set(drawer.shapes.heldShapes).count == 2, "both shapes held")
  }
}
