import Foundation

/// The monotonic clock in nanoseconds (`CLOCK_MONOTONIC`, vDSO: no system call).
enum Stopwatch {
  @inline(__always)
  static func now() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
  }
}
