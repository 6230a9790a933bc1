extension RotationEngine {
  /// Capacity and base address of every array the step may grow: if none changes across steps,
  /// the steps allocated nothing.
  package var storageFingerprint: [Int] {
    func mark<T>(_ a: [T]) -> [Int] {
      [a.capacity, a.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) }]
    }
    func mark<T>(_ a: CacheAlignedArray<T>) -> [Int] {
      [a.capacity, Int(bitPattern: a.baseAddress)]
    }
    let rings = mark(ringHistory) + mark(relativeStart) + mark(wrappedBase)
    return mark(loaderRuns) + rings + mark(overlaps) + mark(runTags) + wheel.fingerprint
  }

  /// Overlapping turns in the side pool.
  package var overlapCount: Int { overlaps.count }
}

extension RotationEngine {
  /// Entries in the timing wheel, ended runs' included until their bucket drops them.
  package var wheelEntryCount: Int { (0..<wheel.size).reduce(0) { $0 + wheel.counts[$1] } }

  /// Buckets that still hold entries of ended runs (`endedRuns` above 0).
  package var bucketsWithEndedRuns: Int { endedRuns.count { $0 > 0 } }
}
