extension RingCoverageAtlas {
  /// Adds each built mask's bytes to `histogram` at the bucket of its age, the frames since a
  /// draw last used it (`CacheAge.bucket(_:)`).
  func addMaskAges(into histogram: inout [Int]) {
    for o in 0..<offsetCount where blocks[o] != Self.unbuiltBlock {
      let block = blocks[o]
      for p in 0..<phases where block[p].start >= 0 {
        histogram[CacheAge.bucket(frame &- block[p].stamp)] += Int(block[p].count) * Self.chunkBytes
      }
    }
  }

  /// Keeps the masks drawn fewer than `age` frames ago, moved into buffers just large enough
  /// for them, and forgets the rest; key blocks left empty are freed. Between frames only.
  func keepMasks(youngerThan age: UInt32) {
    var kept = 0
    for o in 0..<offsetCount where blocks[o] != Self.unbuiltBlock {
      let block = blocks[o]
      for p in 0..<phases where block[p].start >= 0 && frame &- block[p].stamp < age {
        kept += Int(block[p].count)
      }
    }
    let capacity = max(Self.initialChunkCapacity, kept + kept / 4)
    let newChunks = UnsafeMutablePointer<Chunk>.allocate(capacity: capacity)
    let newBlends = UnsafeMutablePointer<Blend>.allocate(capacity: capacity)
    var next = 0
    for o in 0..<offsetCount where blocks[o] != Self.unbuiltBlock {
      let block = blocks[o]
      var any = false
      for p in 0..<phases where block[p].start >= 0 {
        guard frame &- block[p].stamp < age else {
          block[p] = .unbuilt
          continue
        }
        let (start, count) = (Int(block[p].start), Int(block[p].count))
        (newChunks + next).initialize(from: chunks + start, count: count)
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
    chunks.deallocate()
    blends.deallocate()
    (chunks, blends, chunkCapacity, chunkCount) = (newChunks, newBlends, capacity, next)
  }

  /// Keeps the most recently drawn masks whose chunks together fit in `bytes`.
  func recycle(toFit bytes: Int) {
    var histogram = [Int](repeating: 0, count: CacheAge.buckets)
    addMaskAges(into: &histogram)
    keepMasks(youngerThan: CacheAge.cutoff(histogram, fitting: bytes))
  }
}
