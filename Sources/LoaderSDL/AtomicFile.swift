import Foundation

/// A file replaced all at once: written under `temporaryPath` beside `path`, then renamed over
/// it by `commit()`, so neither a reader nor a failed run ever sees half a file (`rename(2)`
/// within one directory is atomic).
public struct AtomicFile: Sendable {
  /// Why the finished file could not be put in place.
  public struct Failure: Error, Sendable, CustomStringConvertible {
    public var description: String
  }

  public let path: String
  /// Beside `path` (same directory, so the rename never crosses file systems), unique per
  /// process.
  public let temporaryPath: String

  public init(path: String) {
    self.path = path
    temporaryPath = path + ".partial-\(getpid())"
  }

  /// Renames the finished temporary file over `path`; on failure removes it.
  public func commit() throws(Failure) {
    guard rename(temporaryPath, path) == 0 else {
      let reason = String(cString: strerror(errno))
      discard()
      throw Failure(description: "cannot rename into '\(path)': \(reason)")
    }
  }

  /// Removes the temporary file, if any.
  public func discard() {
    unlink(temporaryPath)
  }
}
