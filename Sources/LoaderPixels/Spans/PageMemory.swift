#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Memory for the caches' large buffers (a shape's mask chunks, its distance grid) taken from
/// the system page by page rather than from the allocator's heap, so that a buffer let go
/// returns to the system at once.
///
/// Why: glibc's allocator serves a large block from its heap once a block of that size has
/// been freed (its `mmap` threshold rises to the largest block freed, up to 32 MiB), and a
/// store under pressure grows, trims and regrows buffers of every size every few frames, so
/// the heap fills with holes and the process's resident memory creeps past the budget
/// (Benchmarks/README.md, "Churn", has the measurement).
///
/// Buffers under `threshold` stay with the allocator. One mapping a buffer over it: with a
/// store's buffers bounded by its budget, at most `budget / threshold` mappings (2,048 at the
/// default 128 MiB budget; Linux allows 65,530 by default). Built with `LOADER_HEAP_BUFFERS`
/// (`make check-address` does), every buffer comes from the allocator, so AddressSanitizer
/// sees an access past a buffer's end.
enum PageMemory {
  /// Buffers of at least this many bytes are mapped.
  #if LOADER_HEAP_BUFFERS
    static let threshold = Int.max
  #else
    static let threshold = 64 << 10
  #endif

  /// Uninitialized memory for `capacity` values of `type`, aligned to a page when mapped.
  static func allocate<T>(_ type: T.Type, capacity: Int) -> UnsafeMutablePointer<T> {
    let bytes = capacity * MemoryLayout<T>.stride
    guard bytes >= threshold else { return .allocate(capacity: capacity) }
    guard
      let p = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
      p != MAP_FAILED
    else {
      // As `UnsafeMutablePointer.allocate` does when the allocator has nothing left.
      fatalError("PageMemory: cannot map \(bytes) bytes (errno \(errno))")
    }
    return p.bindMemory(to: T.self, capacity: capacity)
  }

  /// Hands the pages of `pointer`'s buffer (of `capacity` values, from `allocate`) past its
  /// first `kept` values back to the system; they read as zeros when touched again. Nothing
  /// for a buffer from the allocator.
  static func release<T>(_ pointer: UnsafeMutablePointer<T>, keeping kept: Int, of capacity: Int) {
    let stride = MemoryLayout<T>.stride
    guard capacity * stride >= threshold else { return }
    let page = 4096
    let start = (kept * stride + page - 1) / page * page
    let end = capacity * stride / page * page
    guard end > start else { return }
    madvise(UnsafeMutableRawPointer(pointer) + start, end - start, MADV_DONTNEED)
  }

  /// Gives back `pointer`, from `allocate(_:capacity:)` with the same `capacity`.
  static func deallocate<T>(_ pointer: UnsafeMutablePointer<T>, capacity: Int) {
    let bytes = capacity * MemoryLayout<T>.stride
    guard bytes >= threshold else { return pointer.deallocate() }
    munmap(UnsafeMutableRawPointer(pointer), bytes)
  }
}
