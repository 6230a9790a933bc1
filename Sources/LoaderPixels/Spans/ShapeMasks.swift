/// One shape's masks as the blender reads them in a draw: the arena, the pitch the shape's
/// offsets are at, and how far its masks reach. Plain values, so no exclusivity check runs
/// per access; valid until the next mask is built or the cache is trimmed.
struct ShapeMasks {
  let chunks: UnsafeMutablePointer<MaskCache.Chunk>
  let pitch: Int
  /// The shape's `reach` and `rowReach` (`RingMaskShape`).
  let reach: Int
  let rowReach: Int

  /// Chunk `k`'s row and column from the anchor pixel.
  @inline(__always)
  func position(_ k: Int) -> (dy: Int, dx: Int) {
    MaskCache.position(chunks[k].offset, pitch: pitch)
  }

  /// Chunk `k`'s four blend weights `a = c + c >> 7` (0...256) from its coverage `c`.
  @inline(__always)
  func weights(_ k: Int) -> SIMD4<UInt16> {
    let c = SIMD4<UInt16>(truncatingIfNeeded: chunks[k].coverage)
    return c &+ (c &>> 7)
  }

  /// The first chunk of `range` (one mask) whose offset is at least `threshold`: offsets
  /// ascend within a mask, so a row boundary is a binary search away.
  @inline(__always)
  func firstChunk(in range: Range<Int>, offsetAtLeast threshold: Int) -> Int {
    var lo = range.lowerBound
    var hi = range.upperBound
    while lo < hi {
      let mid = (lo + hi) >> 1
      if Int(chunks[mid].offset) < threshold { lo = mid + 1 } else { hi = mid }
    }
    return lo
  }
}
