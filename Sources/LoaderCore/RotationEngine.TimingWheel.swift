extension RotationEngine {
  /// The wheel's buckets: one growable, cache-line-aligned run of `WheelEntry` per bucket, kept
  /// behind raw pointers so a step appends an entry with two loads and a store (no uniqueness
  /// check, no retain per entry). Shared between copies of an engine until one of them mutates
  /// (`RotationEngine.uniqueWheel()`).
  final class TimingWheel: @unchecked Sendable {
    let size: Int
    let bases: UnsafeMutablePointer<UnsafeMutablePointer<WheelEntry>>
    let counts: UnsafeMutablePointer<Int>
    let capacities: UnsafeMutablePointer<Int>

    init(size: Int) {
      self.size = size
      bases = .allocate(capacity: size)
      counts = .allocate(capacity: size)
      capacities = .allocate(capacity: size)
      for b in 0..<size {
        bases[b] = Self.allocateBucket(capacity: Self.minimumBucket)
        counts[b] = 0
        capacities[b] = Self.minimumBucket
      }
    }

    deinit {
      for b in 0..<size { UnsafeMutableRawPointer(bases[b]).deallocate() }
      bases.deallocate()
      counts.deallocate()
      capacities.deallocate()
    }

    /// A bucket's capacity when made, and the least it shrinks to.
    static let minimumBucket = 16

    static func allocateBucket(capacity: Int) -> UnsafeMutablePointer<WheelEntry> {
      UnsafeMutableRawPointer.allocate(
        byteCount: capacity * MemoryLayout<WheelEntry>.stride, alignment: 64
      ).bindMemory(to: WheelEntry.self, capacity: capacity)
    }

    func copy() -> TimingWheel {
      let w = TimingWheel(size: size)
      for b in 0..<size {
        w.reserve(b, capacities[b])
        w.bases[b].update(from: bases[b], count: counts[b])
        w.counts[b] = counts[b]
      }
      return w
    }

    func reserve(_ b: Int, _ capacity: Int) {
      guard capacity > capacities[b] else { return }
      let grown = Self.allocateBucket(capacity: capacity)
      grown.update(from: bases[b], count: counts[b])
      UnsafeMutableRawPointer(bases[b]).deallocate()
      bases[b] = grown
      capacities[b] = capacity
    }

    /// Gives bucket `b`'s storage back down to `capacity` (never below its count).
    func shrink(_ b: Int, toAtMost capacity: Int) {
      let target = Swift.max(capacity, counts[b], Self.minimumBucket)
      guard target < capacities[b] else { return }
      let smaller = Self.allocateBucket(capacity: target)
      smaller.update(from: bases[b], count: counts[b])
      UnsafeMutableRawPointer(bases[b]).deallocate()
      bases[b] = smaller
      capacities[b] = target
    }

    /// Appends to bucket `b`; grows it (doubling) only when full.
    @inline(__always)
    func append(_ e: WheelEntry, to b: Int) {
      let n = counts[b]
      if n == capacities[b] { reserve(b, 2 * n) }
      bases[b][n] = e
      counts[b] = n + 1
    }

    /// Capacity and address of every bucket (for the allocation test).
    var fingerprint: [Int] {
      (0..<size).flatMap { [capacities[$0], Int(bitPattern: bases[$0])] }
    }
  }

  /// The wheel, copied first if another engine value shares it.
  mutating func uniqueWheel() -> TimingWheel {
    if !isKnownUniquelyReferenced(&wheel) { wheel = wheel.copy() }
    return wheel
  }
}
