import Builtin

/// Asks the CPU to start fetching the cache line at `p`, which is about to be read and written
/// (`llvm.prefetch`: read-write, high locality, data; `prefetcht0` on x86-64): the kernel
/// issues these for the next ring's masks and the band's frame lines so they arrive in
/// parallel. Swift has no prefetch of its own; the compiler's `Builtin` module (the
/// `BuiltinModule` feature, set in Package.swift) reaches the LLVM intrinsic without any C,
/// and compiles to the instruction C's `__builtin_prefetch(p, 1, 3)` gives.
@inline(__always)
func prefetch(_ p: UnsafeRawPointer) {
  Builtin.int_prefetch_RawPointer(p._rawValue, Int32(1)._value, Int32(3)._value, Int32(1)._value)
}

/// `prefetch` for every cache line of `count` values from `start`.
@inline(__always)
func prefetchLines<T>(_ start: UnsafePointer<T>, count: Int) {
  var line = UInt(bitPattern: start) & ~63
  let end = UInt(bitPattern: start + count)
  while line < end {
    prefetch(UnsafeRawPointer(bitPattern: line)!)
    line += 64
  }
}
