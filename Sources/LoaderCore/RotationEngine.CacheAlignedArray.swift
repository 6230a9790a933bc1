extension RotationEngine {
  /// A copy-on-write array whose first element starts on a 64-byte boundary, so the per-ring
  /// `Float` arrays split into whole cache lines (each worker of a threaded pass writes whole
  /// lines of them, see `chunkAlignment`). `Array` puts its elements 32 bytes after a
  /// 16-byte-aligned header.
  ///
  /// `@unchecked Sendable` is safe because it is copy-on-write like `Array`: every mutation
  /// first makes `buffer` unique (`makeUnique()`), so copies on two threads never write one
  /// buffer, and a buffer shared between copies is only read. (A threaded pass writes disjoint
  /// ranges of one engine's own, unique buffer, through `baseAddress`, while the engine waits.)
  struct CacheAlignedArray<Element: BitwiseCopyable>: @unchecked Sendable {
    static var alignment: Int { 64 }

    final class Buffer {
      let base: UnsafeMutablePointer<Element>
      let capacity: Int
      var count = 0

      init(capacity: Int) {
        self.capacity = capacity
        let raw = UnsafeMutableRawPointer.allocate(
          byteCount: Swift.max(1, capacity) * MemoryLayout<Element>.stride,
          alignment: Swift.max(CacheAlignedArray.alignment, MemoryLayout<Element>.alignment))
        base = raw.bindMemory(to: Element.self, capacity: Swift.max(1, capacity))
      }

      func copy(capacity newCapacity: Int) -> Buffer {
        let b = Buffer(capacity: newCapacity)
        b.base.update(from: base, count: count)
        b.count = count
        return b
      }

      deinit { UnsafeMutableRawPointer(base).deallocate() }
    }

    var buffer = Buffer(capacity: 0)

    var count: Int { buffer.count }
    var capacity: Int { buffer.capacity }
    var indices: Range<Int> { 0..<count }
    /// Where the elements are (for the allocation fingerprint in tests).
    var baseAddress: UnsafeMutablePointer<Element> { buffer.base }

    subscript(i: Int) -> Element {
      get {
        precondition(i >= 0 && i < buffer.count, "index out of range")
        return buffer.base[i]
      }
      set {
        precondition(i >= 0 && i < buffer.count, "index out of range")
        makeUnique()
        buffer.base[i] = newValue
      }
    }

    /// Room for `n` elements; growing an array that holds some doubles it at least, so a
    /// reserve per append stays amortized O(1).
    mutating func reserveCapacity(_ n: Int) {
      if n > buffer.capacity {
        let grown = buffer.count > 0 ? Swift.max(n, 2 * buffer.capacity) : n
        buffer = buffer.copy(capacity: grown)
      } else {
        makeUnique()
      }
    }

    mutating func append(_ e: Element) {
      if buffer.count == buffer.capacity {
        buffer = buffer.copy(capacity: Swift.max(16, 2 * buffer.capacity))
      } else {
        makeUnique()
      }
      buffer.base[buffer.count] = e
      buffer.count += 1
    }

    mutating func makeUnique() {
      if !isKnownUniquelyReferenced(&buffer) { buffer = buffer.copy(capacity: buffer.capacity) }
    }

    mutating func append(repeating e: Element, count n: Int) {
      if buffer.count + n > buffer.capacity {
        buffer = buffer.copy(capacity: Swift.max(buffer.count + n, 2 * buffer.capacity))
      } else {
        makeUnique()
      }
      (buffer.base + buffer.count).initialize(repeating: e, count: n)
      buffer.count += n
    }

    mutating func removeLast(_ k: Int) {
      precondition(k >= 0 && k <= buffer.count, "removing more than the count")
      makeUnique()
      buffer.count -= k
    }

    /// Keeps the first `n` elements, and gives the storage back when it is more than twice
    /// what they need (at least 16).
    mutating func truncate(to n: Int) {
      precondition(n >= 0, "negative count")
      if n < buffer.count { removeLast(buffer.count - n) }
      guard buffer.capacity > 2 * Swift.max(n, 16) else { return }
      buffer = buffer.copy(capacity: Swift.max(n, 16))
    }

    mutating func removeAll() {
      makeUnique()
      buffer.count = 0
    }

    /// The elements for a hot loop, unique and valid until the next append or copy.
    mutating func mutablePointer() -> UnsafeMutablePointer<Element> {
      makeUnique()
      return buffer.base
    }

    var pointer: UnsafePointer<Element> { UnsafePointer(buffer.base) }

    /// The elements, for a loop that must not pay a bounds check or a uniqueness check each.
    mutating func withUnsafeMutableBufferPointer<R>(
      _ body: (UnsafeMutableBufferPointer<Element>) throws -> R
    ) rethrows -> R {
      makeUnique()
      return try body(UnsafeMutableBufferPointer(start: buffer.base, count: buffer.count))
    }
  }
}
