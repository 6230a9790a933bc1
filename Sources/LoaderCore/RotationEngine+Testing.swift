extension RotationEngine {
  /// Capacity and base address of every array the step may grow: if none changes across steps,
  /// the steps allocated nothing.
  package var storageFingerprint: [Int] {
    func mark<T>(_ a: [T]) -> [Int] {
      [a.capacity, a.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) }]
    }
    var out = mark(schedules) + mark(ringTurns) + mark(relativeStart) + mark(wrappedBase)
    out += mark(overlaps) + mark(wheel)
    for bucket in wheel { out += mark(bucket) }
    return out
  }

  /// Overlapping turns in the side pool.
  package var overlapCount: Int { overlaps.count }
}
