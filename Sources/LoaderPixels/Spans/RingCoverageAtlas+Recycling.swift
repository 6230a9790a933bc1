extension RingCoverageAtlas {
  /// The recycling rank of a built mask (`CacheAge.rank(age:fresh:)`).
  @inline(__always)
  func rank(_ mask: MaskSpan) -> Int {
    CacheAge.rank(
      age: (frame &- mask.stamp) & ~Self.freshBit, fresh: mask.stamp & Self.freshBit != 0)
  }

  /// Adds each built mask's bytes to `histogram` at its rank (`rank(_:)`).
  func addMaskAges(into histogram: inout [Int]) {
    let table = maskTable
    for i in 0..<table.capacity where table.slots[i].key >= 0 {
      histogram[rank(table.slots[i])] += Int(table.slots[i].count) * Self.chunkBytes
    }
  }

  /// Keeps the masks ranked before `cutoff` (`rank(_:)`), moved into buffers just large
  /// enough for them and a key table sized to them, and forgets the rest. Between frames
  /// only.
  func keepMasks(rankedBelow cutoff: Int) {
    let old = maskTable
    var (kept, keptMasks) = (0, 0)
    for i in 0..<old.capacity where old.slots[i].key >= 0 && rank(old.slots[i]) < cutoff {
      kept += Int(old.slots[i].count)
      keptMasks += 1
    }
    let capacity = max(Self.initialChunkCapacity, kept + kept / 8)
    let newBlends = PageMemory.allocate(Blend.self, capacity: capacity)
    let table = KeyTable.make(capacity: KeyTable.capacity(for: keptMasks))
    var next = 0
    for i in 0..<old.capacity where old.slots[i].key >= 0 && rank(old.slots[i]) < cutoff {
      var m = old.slots[i]
      (newBlends + next).initialize(from: blends + Int(m.start), count: Int(m.count))
      m.start = Int32(next)
      next += Int(m.count)
      table.insert(m)
    }
    old.free()
    (maskTable, maskCount) = (table, keptMasks)
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
