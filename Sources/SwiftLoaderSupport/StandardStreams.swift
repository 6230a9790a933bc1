import Foundation
import Synchronization

/// The process's standard output as an output target (`-`, `/dev/stdout`), and standard error
/// for error lines.
///
/// When a data stream (a trace, the bench's JSON) goes to standard output, the program's own
/// status lines must not land in the middle of it. `reserveOutput()` moves the real standard
/// output to a private descriptor that only `OutputFile` writes, and points descriptor 1 (and
/// so every `print`) at standard error.
package enum StandardStreams {
  private static let outputDescriptor = Atomic<Int32>(STDOUT_FILENO)

  /// The descriptor `OutputFile` writes a `-` target to.
  static var output: Int32 { outputDescriptor.load(ordering: .acquiring) }

  /// Keeps standard output for `OutputFile` alone; `print` then writes to standard error.
  /// Call it before anything is printed. Throws when the descriptors cannot be duplicated.
  package static func reserveOutput() throws(OutputError) {
    fflush(nil)  // every stdio stream, so nothing printed so far lands in the stream
    let kept = dup(STDOUT_FILENO)
    guard kept >= 0, dup2(STDERR_FILENO, STDOUT_FILENO) >= 0 else {
      throw OutputError(.io, "cannot reserve standard output: \(String(cString: strerror(errno)))")
    }
    outputDescriptor.store(kept, ordering: .releasing)
  }

  /// Writes `text` to standard error in full (retrying short writes); errors are dropped:
  /// there is nowhere left to report them.
  static func writeError(_ text: String) {
    var bytes = Array(text.utf8)
    _ = writeAll(STDERR_FILENO, &bytes)
  }

  /// Writes every byte of `bytes` to `descriptor`, retrying after `EINTR` and short writes.
  /// Returns 0 or the `errno` of the failed write.
  static func writeAll(_ descriptor: Int32, _ bytes: inout [UInt8]) -> Int32 {
    bytes.withUnsafeBytes { raw in writeAll(descriptor, raw) }
  }

  static func writeAll(_ descriptor: Int32, _ raw: UnsafeRawBufferPointer) -> Int32 {
    guard var p = raw.baseAddress else { return 0 }
    var left = raw.count
    while left > 0 {
      let n = write(descriptor, p, left)
      if n < 0 {
        if errno == EINTR { continue }
        return errno
      }
      // A regular file reports a full disk as a short write first, then ENOSPC.
      p += n
      left -= n
    }
    return 0
  }
}
