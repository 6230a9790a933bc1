import LoaderCore
import Testing

@testable import LoaderPixels

/// `RingCoverageAtlas`'s recycling: masks stamped with the frame that last drew them, and
/// `keepMasks(youngerThan:)` keeping exactly the recent ones, their coverage unchanged, in
/// buffers sized to them.
@Suite struct MaskRecyclingTests {
  static let shape = DashedRing(style: .seed)

  /// The coverage of `key`'s mask, chunk by chunk, as `(dy, dx, coverage)`.
  static func mask(_ atlas: RingCoverageAtlas, _ key: Int) -> [[Int]] {
    let (start, count) = atlas.mask(key)
    return (start..<(start + count)).map { k in
      let c = atlas.blends[k].coverage
      return [
        Int(atlas.chunks[k].dy), Int(atlas.chunks[k].dx), Int(c[0]), Int(c[1]), Int(c[2]),
        Int(c[3]),
      ]
    }
  }

  static func isBuilt(_ atlas: RingCoverageAtlas, _ key: Int) -> Bool {
    atlas.blocks[key >> RingCoverageAtlas.phaseBits][key & RingCoverageAtlas.phaseMask].start >= 0
  }

  @Test func recyclingKeepsTheRecentMasksAsTheyWere() {
    let atlas = RingCoverageAtlas(shape: Self.shape)
    atlas.use(pitch: 4096)
    // Frame k draws phase k at offset (k % 8, 3): ten frames, ten masks.
    let keys = (0..<10).map { atlas.key(phase: $0 * 7, sx: $0 % 8, sy: 3) }
    var built: [[[Int]]] = []
    for key in keys {
      atlas.beginFrame()
      built.append(Self.mask(atlas, key))
    }
    let before = atlas.bytes
    // Frames 7, 8 and 9 drew the last three: ages 2, 1, 0.
    atlas.keepMasks(youngerThan: 3)
    for (k, key) in keys.enumerated() {
      #expect(Self.isBuilt(atlas, key) == (k >= 7), "mask \(k)")
    }
    #expect(atlas.bytes < before)
    #expect(atlas.chunkCount == built.suffix(3).reduce(0) { $0 + $1.count })
    for k in 7..<10 { #expect(Self.mask(atlas, keys[k]) == built[k], "mask \(k) moved intact") }
    // A mask drawn again is young again: drawing mask 7 now keeps it past masks 8 and 9.
    atlas.beginFrame()
    _ = atlas.mask(keys[7])
    atlas.keepMasks(youngerThan: 1)
    #expect(
      Self.isBuilt(atlas, keys[7]) && !Self.isBuilt(atlas, keys[8]) && !Self.isBuilt(atlas, keys[9])
    )
    // The ages add up to what is stored.
    var histogram = [Int](repeating: 0, count: CacheAge.buckets)
    atlas.addMaskAges(into: &histogram)
    #expect(histogram.reduce(0, +) == atlas.chunkCount * RingCoverageAtlas.chunkBytes)
  }

  @Test func ageBuckets() {
    #expect(CacheAge.bucket(0) == 0 && CacheAge.bucket(1) == 1 && CacheAge.bucket(3) == 2)
    #expect(CacheAge.bucket(4) == 3 && CacheAge.bucket(.max) == CacheAge.buckets - 1)
    #expect(CacheAge.firstAge(ofBucket: 3) == 4 && CacheAge.firstAge(ofBucket: 99) == .max)
    // 10 bytes at age 0, 20 at age 1, 40 at ages 2-3: 35 bytes keep ages 0 and 1.
    let h = [10, 20, 40] + [Int](repeating: 0, count: CacheAge.buckets - 3)
    #expect(CacheAge.cutoff(h, fitting: 35) == 2)
    #expect(CacheAge.cutoff(h, fitting: 35, fixed: 10) == 1)
    #expect(CacheAge.cutoff(h, fitting: 5) == 0)
    #expect(CacheAge.cutoff(h, fitting: 70) == .max)
  }
}
