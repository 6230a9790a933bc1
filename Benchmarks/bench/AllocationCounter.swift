import CSwiftLoaderAllocationCounter

/// Heap allocations of the whole process so far.
///
/// The bench links `CSwiftLoaderAllocationCounter`, whose `malloc`, `calloc`, `realloc`, `memalign`,
/// `aligned_alloc` and `posix_memalign` interpose glibc's (the executable's definitions win
/// symbol resolution for every shared library, Swift runtime included) and count each call
/// before forwarding to `__libc_malloc` & co. So this counts every allocation, including ones
/// freed again inside the measured code, which a `mallinfo2()` byte delta would miss.
///
/// A build with AddressSanitizer or ThreadSanitizer interposes nothing (the sanitizer's runtime
/// owns malloc): there `isCounting` is false and `count` stays 0.
enum AllocationCounter {
  static var count: UInt64 { UInt64(callocation_count()) }
  static var isCounting: Bool { callocation_counting() != 0 }
}
