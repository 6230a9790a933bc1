import LoaderCore
import Testing

@testable import LoaderPixels

/// `RingCoverageAtlas`'s recycling: masks stamped with the frame that last drew them and
/// whether they were drawn again since they were built, and `keepMasks(rankedBelow:)` keeping
/// exactly the ones first in `CacheAge`'s order, their coverage unchanged, in buffers sized to
/// them.
@Suite struct MaskRecyclingTests {
  static let shape = DashedRing(style: .seed)

  /// The coverage of `key`'s mask, chunk by chunk, as `(dy, dx, coverage)`.
  static func mask(_ atlas: RingCoverageAtlas, _ key: Int) -> [[Int]] {
    let (start, count) = atlas.mask(key)
    return (start..<(start + count)).map { k in
      let c = atlas.blends[k].coverage
      let (dy, dx) = atlas.storage.position(k)
      return [dy, dx, Int(c[0]), Int(c[1]), Int(c[2]), Int(c[3])]
    }
  }

  static func isBuilt(_ atlas: RingCoverageAtlas, _ key: Int) -> Bool {
    atlas.maskTable.slot(key).pointee.key >= 0
  }

  /// The key table finds every mask held, as it was built, after growing many times and after
  /// recycling moves it into a table sized to what is kept: no mask is built twice.
  @Test func theKeyTableFindsEveryMaskThroughGrowthAndRecycling() {
    let atlas = RingCoverageAtlas(shape: Self.shape)
    atlas.use(pitch: 4096)
    atlas.beginFrame()
    // 400 masks over 64 sub-pixel offsets, phases 37 apart (a turning ring's are spread too).
    let keys = (0..<400).map { atlas.key(phase: ($0 * 37) % atlas.phases, sx: $0 % 8, sy: $0 / 50) }
    #expect(Set(keys).count == keys.count)
    let built = keys.map { Self.mask(atlas, $0) }
    #expect(atlas.maskCount == keys.count)
    #expect(atlas.maskTable.capacity >= 2 * keys.count)
    atlas.beginFrame()
    for (k, key) in keys.enumerated() { #expect(Self.mask(atlas, key) == built[k], "mask \(k)") }
    // Every mask was drawn again: all kept, the table sized to them (2 x 400 -> 1,024 slots).
    atlas.keepMasks(rankedBelow: CacheAge.ranks)
    #expect(atlas.maskCount == keys.count)
    #expect(atlas.maskTable.capacity == 1024)
    for (k, key) in keys.enumerated() { #expect(Self.mask(atlas, key) == built[k], "mask \(k)") }
    #expect(atlas.maskCount == keys.count, "nothing was built again")
    // A key never built is not found.
    #expect(!Self.isBuilt(atlas, atlas.key(phase: 1, sx: 7, sy: 7)))
  }

  /// Frames `0..<10` of a fresh atlas: frame k draws phase 7 k at offset (k % 8, 3), and
  /// `reused` of them draw theirs again in the frame after.
  static func tenFrames(_ atlas: RingCoverageAtlas, reusing reused: Set<Int> = []) -> (
    keys: [Int], built: [[[Int]]]
  ) {
    let keys = (0..<10).map { atlas.key(phase: $0 * 7, sx: $0 % 8, sy: 3) }
    var built: [[[Int]]] = []
    for (k, key) in keys.enumerated() {
      atlas.beginFrame()
      if k > 0, reused.contains(k - 1) { _ = atlas.mask(keys[k - 1]) }
      built.append(Self.mask(atlas, key))
    }
    return (keys, built)
  }

  @Test func recyclingKeepsTheRecentlyReusedMasksAsTheyWere() {
    let atlas = RingCoverageAtlas(shape: Self.shape)
    atlas.use(pitch: 4096)
    // Masks 6, 7 and 8 were drawn again a frame after they were built: last used at ages 2,
    // 1, 0 (frames 7, 8, 9); the other seven are fresh.
    let (keys, built) = Self.tenFrames(atlas, reusing: [6, 7, 8])
    let before = atlas.bytes
    // Ranks 0-2 hold ages 0, 1 and 2-3 of masks used again.
    atlas.keepMasks(rankedBelow: 3)
    for (k, key) in keys.enumerated() {
      #expect(Self.isBuilt(atlas, key) == (6...8).contains(k), "mask \(k)")
    }
    #expect(atlas.bytes < before)
    #expect(atlas.chunkCount == built[6...8].reduce(0) { $0 + $1.count })
    for k in 6...8 { #expect(Self.mask(atlas, keys[k]) == built[k], "mask \(k) moved intact") }
    // A mask drawn again is young again: drawing mask 6 now keeps it past masks 7 and 8.
    atlas.beginFrame()
    _ = atlas.mask(keys[6])
    atlas.keepMasks(rankedBelow: 1)
    #expect(
      Self.isBuilt(atlas, keys[6]) && !Self.isBuilt(atlas, keys[7]) && !Self.isBuilt(atlas, keys[8])
    )
    // The ranks add up to what is stored.
    var histogram = [Int](repeating: 0, count: CacheAge.ranks)
    atlas.addMaskAges(into: &histogram)
    #expect(histogram.reduce(0, +) == atlas.chunkCount * RingCoverageAtlas.chunkBytes)
  }

  /// Under pressure, the masks built last go first: a scene that cycles through more masks
  /// than fit keeps the ones it built first (which it is about to draw again) instead of none.
  @Test func freshMasksGoNewestFirstAfterTheReusedOnes() {
    let atlas = RingCoverageAtlas(shape: Self.shape)
    atlas.use(pitch: 4096)
    // Mask 8 was drawn again; the other nine are fresh, mask 0 the oldest (age 9).
    let (keys, built) = Self.tenFrames(atlas, reusing: [8])
    var histogram = [Int](repeating: 0, count: CacheAge.ranks)
    atlas.addMaskAges(into: &histogram)
    let bytes = { (ks: [Int]) in
      ks.reduce(0) { $0 + built[$1].count * RingCoverageAtlas.chunkBytes }
    }
    // Room for mask 8 and the fresh masks of ages 8-9 (masks 0, 1): those, and no others.
    let cutoff = CacheAge.cutoff(histogram, fitting: bytes([8, 0, 1]))
    atlas.keepMasks(rankedBelow: cutoff)
    for (k, key) in keys.enumerated() {
      #expect(Self.isBuilt(atlas, key) == [0, 1, 8].contains(k), "mask \(k)")
    }
    for k in [0, 1, 8] { #expect(Self.mask(atlas, keys[k]) == built[k], "mask \(k) moved intact") }
  }

  @Test func masksPastTheHorizonGoBeforeFreshOnes() {
    let atlas = RingCoverageAtlas(shape: Self.shape)
    atlas.use(pitch: 4096)
    let old = atlas.key(phase: 1, sx: 0, sy: 0)
    let fresh = atlas.key(phase: 2, sx: 0, sy: 0)
    atlas.beginFrame()
    _ = atlas.mask(old)
    atlas.beginFrame()
    _ = atlas.mask(old)  // used again: no longer fresh
    for _ in 0..<Int(CacheAge.horizon) { atlas.beginFrame() }
    _ = atlas.mask(fresh)
    let (o, f) = (atlas.maskTable.slot(old).pointee, atlas.maskTable.slot(fresh).pointee)
    #expect(atlas.rank(o) > atlas.rank(f), "a mask unused for the horizon ranks behind a fresh one")
    atlas.keepMasks(rankedBelow: atlas.rank(o))
    #expect(Self.isBuilt(atlas, fresh) && !Self.isBuilt(atlas, old))
  }

  /// A chunk's offset is its only record of where it lies: `dy, dx` read back the same at
  /// every pitch, and the offsets are at the target's pitch only when the unclipped blender
  /// may add them (a target at least `ownPitch` wide, offsets within 32 bits).
  @Test func positionsSurviveEveryPitch() {
    let atlas = RingCoverageAtlas(shape: DashedRing(style: .seed).scaled(by: 1.8))
    let (keys, built) = Self.tenFrames(atlas)
    for pitch in [4096, 64, 1 << 30, atlas.ownPitch, 4 * 1921, 4096] {
      atlas.use(pitch: pitch)
      #expect(atlas.offsetsFit == (pitch >= atlas.ownPitch && pitch < 1 << 24), "pitch \(pitch)")
      for (k, key) in keys.enumerated() {
        #expect(Self.mask(atlas, key) == built[k], "mask \(k) at pitch \(pitch)")
      }
      if atlas.offsetsFit {
        let (start, _) = atlas.mask(keys[3])
        let (dy, dx) = atlas.storage.position(start)
        #expect(Int(atlas.blends[start].offset) == dy * pitch + dx * 4)
      }
    }
    // The masks reach both sides of the anchor and several rows: a real test of the decoding.
    let all = built.joined()
    #expect(all.contains { $0[0] < -10 } && all.contains { $0[0] > 10 })
    #expect(all.contains { $0[1] < -10 } && all.contains { $0[1] > 10 })
  }

  @Test func ageBuckets() {
    #expect(CacheAge.bucket(0) == 0 && CacheAge.bucket(1) == 1 && CacheAge.bucket(3) == 2)
    #expect(CacheAge.bucket(4) == 3 && CacheAge.bucket(.max) == CacheAge.buckets - 1)
    // Used again, by age; then fresh, the oldest first; then past the horizon, by age.
    let young = CacheAge.bucket(CacheAge.horizon)
    #expect(CacheAge.rank(age: 0, fresh: false) == 0 && CacheAge.rank(age: 5, fresh: false) == 3)
    #expect(CacheAge.rank(age: CacheAge.horizon - 1, fresh: true) == young)
    #expect(CacheAge.rank(age: 0, fresh: true) == 2 * young - 1)
    #expect(CacheAge.rank(age: CacheAge.horizon, fresh: true) == 2 * young)
    #expect(CacheAge.rank(age: CacheAge.horizon, fresh: false) == 2 * young)
    #expect(CacheAge.rank(age: .max, fresh: false) == CacheAge.ranks - 1)
    // 10 bytes at rank 0, 20 at rank 1, 40 at rank 2: 35 bytes keep ranks 0 and 1.
    let h = [10, 20, 40] + [Int](repeating: 0, count: CacheAge.ranks - 3)
    #expect(CacheAge.cutoff(h, fitting: 35) == 2)
    #expect(CacheAge.cutoff(h, fitting: 35, fixed: 10) == 1)
    #expect(CacheAge.cutoff(h, fitting: 5) == 0)
    #expect(CacheAge.cutoff(h, fitting: 70) == CacheAge.ranks)
  }
}
