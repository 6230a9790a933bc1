extension RingCoverageAtlas {
  /// The recycling rank of a built mask (`CacheAge.rank(age:fresh:)`).
  @inline(__always)
  func rank(_ mask: MaskSpan) -> Int {
    CacheAge.rank(
      age: (frame &- mask.stamp) & ~Self.freshBit, fresh: mask.stamp & Self.freshBit != 0)
  }

  /// Adds each built mask's bytes to `histogram` at its rank (`rank(_:)`).
  func addMaskAges(into histogram: inout [Int]) {
    for o in 0..<offsetCount where blocks[o] != Self.unbuiltBlock {
      let block = blocks[o]
      for p in 0..<phases where block[p].start >= 0 {
        histogram[rank(block[p])] += Int(block[p].count) * Self.chunkBytes
      }
    }
  }

  /// Keeps the masks ranked before `cutoff` (`rank(_:)`), moved into buffers just large
  /// enough for them, and forgets the rest; key blocks left empty are freed. Between frames
  /// only.
  func keepMasks(rankedBelow cutoff: Int) {
    var kept = 0
    for o in 0..<offsetCount where blocks[o] != Self.unbuiltBlock {
      let block = blocks[o]
      for p in 0..<phases where block[p].start >= 0 && rank(block[p]) < cutoff {
        kept += Int(block[p].count)
      }
    }
    let capacity = max(Self.initialChunkCapacity, kept + kept / 8)
    let newBlends = PageMemory.allocate(Blend.self, capacity: capacity)
    var next = 0
    for o in 0..<offsetCount where blocks[o] != Self.unbuiltBlock {
      let block = blocks[o]
      var any = false
      for p in 0..<phases where block[p].start >= 0 {
        guard rank(block[p]) < cutoff else {
          block[p] = .unbuilt
          continue
        }
        let (start, count) = (Int(block[p].start), Int(block[p].count))
        (newBlends + next).initialize(from: blends + start, count: count)
        block[p].start = Int32(next)
        next += count
        any = true
      }
      if !any {
        block.deallocate()
        blocks[o] = Self.unbuiltBlock
        ownBlocks -= 1
      }
    }
    PageMemory.deallocate(blends, capacity: chunkCapacity)
    (blends, chunkCapacity, chunkCount) = (newBlends, capacity, next)
  }

  /// Keeps the masks first in `CacheAge`'s order whose chunks together fit in `bytes`.
  func recycle(toFit bytes: Int) {
    var histogram = [Int](repeating: 0, count: CacheAge.ranks)
    addMaskAges(into: &histogram)
    keepMasks(rankedBelow: CacheAge.cutoff(histogram, fitting: bytes))
  }
}
