extension RotationEngine {
  /// The wheel's buckets: one growable, cache-line-aligned run of `WheelEntry` per bucket, kept
  /// behind raw pointers so a step appends an entry with two loads and a store (no uniqueness
  /// check, no retain per entry). Shared between copies of an engine until one of them mutates
  /// (`RotationEngine.uniqueWheel()`).
  ///
  /// `@unchecked Sendable` is safe for the same reason as `CacheAlignedArray`: an engine writes
  /// its wheel only after making it unique, so a wheel shared by copies of an engine (on any
  /// threads) is only read.
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
      // One entry a bucket to start with, so a one-loader engine keeps a small wheel; the
      // first append past it takes `minimumBucket`.
      for b in 0..<size {
        bases[b] = Self.allocateBucket(capacity: 1)
        counts[b] = 0
        capacities[b] = 1
      }
    }

    deinit {
      for b in 0..<size { UnsafeMutableRawPointer(bases[b]).deallocate() }
      bases.deallocate()
      counts.deallocate()
      capacities.deallocate()
    }

    /// A bucket's capacity when it first grows, and the least it shrinks to.
    static let minimumBucket = 16

    static func allocateBucket(capacity: Int) -> UnsafeMutablePointer<WheelEntry> {
      UnsafeMutableRawPointer.allocate(
        byteCount: capacity * MemoryLayout<WheelEntry>.stride, alignment: 64
      ).bindMemory(to: WheelEntry.self, capacity: capacity)
    }

    func copy() -> TimingWheel {
      let w = TimingWheel(size: size)
      for b in 0..<size {
        w.reserve(b, capacities[b], takingEmpty: false)
        w.bases[b].update(from: bases[b], count: counts[b])
        w.counts[b] = counts[b]
      }
      return w
    }

    /// Room for `capacity` entries in bucket `b`. With `takingEmpty`, an empty bucket whose
    /// storage already fits lends it (the smallest such): the two swap storage, no allocation.
    /// A run's entries travel together from bucket to bucket, so without this each bucket
    /// they ever visited would keep storage for all of them; with it, about two buckets'
    /// worth stays allocated.
    ///
    /// Capacities are powers of two, so each allocation replaces a bucket's storage by one at
    /// least twice as big, up to a bound set by the most entries a step may move: allocations
    /// stop after at most `size * log2(bound)` of them, however storage is passed around.
    func reserve(_ b: Int, _ wanted: Int, takingEmpty: Bool = true) {
      guard wanted > capacities[b] else { return }
      let capacity = Self.powerOfTwo(atLeast: wanted)
      if takingEmpty {
        var donor = -1
        for d in 0..<size where d != b && counts[d] == 0 && capacities[d] >= capacity {
          if donor < 0 || capacities[d] < capacities[donor] { donor = d }
        }
        if donor >= 0 {
          bases[donor].update(from: bases[b], count: counts[b])
          (bases[b], bases[donor]) = (bases[donor], bases[b])
          (capacities[b], capacities[donor]) = (capacities[donor], capacities[b])
          return
        }
      }
      let grown = Self.allocateBucket(capacity: capacity)
      grown.update(from: bases[b], count: counts[b])
      UnsafeMutableRawPointer(bases[b]).deallocate()
      bases[b] = grown
      capacities[b] = capacity
    }

    static func powerOfTwo(atLeast n: Int) -> Int {
      var p = minimumBucket
      while p < n { p <<= 1 }
      return p
    }

    /// Gives bucket `b`'s storage back down to `capacity` (never below its count).
    func shrink(_ b: Int, toAtMost capacity: Int) {
      let target = Self.powerOfTwo(atLeast: Swift.max(capacity, counts[b]))
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

    /// Capacity and address of every bucket's storage, in address order (for the allocation
    /// test: buckets swapping storage allocate nothing and keep this).
    var fingerprint: [Int] {
      (0..<size).map { (Int(bitPattern: bases[$0]), capacities[$0]) }.sorted { $0.0 < $1.0 }
        .flatMap { [$0.0, $0.1] }
    }
  }

  /// The wheel, copied first if another engine value shares it.
  mutating func uniqueWheel() -> TimingWheel {
    if !isKnownUniquelyReferenced(&wheel) { wheel = wheel.copy() }
    return wheel
  }
}
