import Foundation

/// Why an output file could not be written, split by whose fault it is: the executables exit 2
/// for `.usage` (the command line named something that cannot be written) and 1 for `.io` (the
/// system failed while writing: a full disk, a vanished directory).
package struct OutputError: Error, Sendable, CustomStringConvertible {
  package enum Kind: Sendable, Equatable {
    /// The path cannot be a target: a directory, a device node, a name too long, no such
    /// directory, no permission. Found by the checks before any work starts.
    case usage
    /// A write, `fsync`, `rename` or the image encoder failed on a target that was fine.
    case io
  }

  package var kind: Kind
  /// One line naming the path and the reason, without a program or flag prefix (the caller
  /// adds those).
  package var description: String

  package init(_ kind: Kind, _ description: String) {
    self.kind = kind
    self.description = description
  }

  /// An error for a failed system call on `path`: `errno` values that say the path itself is
  /// unusable are usage errors, the rest (a full disk, an I/O error) are I/O failures.
  static func system(_ action: String, _ path: String, errno code: Int32) -> OutputError {
    let usageCodes: Set<Int32> = [
      EACCES, EPERM, EROFS, ENAMETOOLONG, ENOTDIR, ENOENT, ELOOP, EISDIR,
    ]
    return OutputError(
      usageCodes.contains(code) ? .usage : .io,
      "cannot \(action) \(ErrorLine.quote(path)): \(String(cString: strerror(code)))")
  }
}
