import Foundation
import Synchronization

/// The temporaries `OutputFile` writes before renaming them into place, and the ones it
/// removes on every exit path.
///
/// A temporary is named `.swiftloader-<pid>-<n>.partial`, independent of the target's name,
/// so a target whose name is already 255 bytes (the longest one a directory entry can hold)
/// still gets a temporary beside it. The pid in the name lets a later run tell a stale
/// temporary (its process is gone, killed by SIGKILL or a crash) from one that a live
/// process is still writing: `sweepStale(in:)` removes only the former.
enum TemporaryFiles {
  static let prefix = ".swiftloader-"
  static let suffix = ".partial"

  /// Temporaries that exist now; `removeAll()` (the signal path) unlinks them.
  private static let live = Mutex<Set<String>>([])
  private static let counter = Atomic<Int>(0)
  /// Directories already swept by this process.
  private static let swept = Mutex<Set<String>>([])

  /// Creates a new, empty temporary in `directory`, open for writing.
  static func create(in directory: String) throws(OutputError) -> (path: String, descriptor: Int32)
  {
    sweepStale(in: directory)
    let n = counter.add(1, ordering: .relaxed).newValue
    let path = join(directory, "\(prefix)\(getpid())-\(n)\(suffix)")
    // Registered before it exists, so a signal between open and the bookkeeping still
    // finds it.
    live.withLock { _ = $0.insert(path) }
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard fd >= 0 else {
      let code = errno
      live.withLock { _ = $0.remove(path) }
      throw .system("create a file in", directory, errno: code)
    }
    return (path, fd)
  }

  /// Unlinks `path` and forgets it.
  static func remove(_ path: String) {
    unlink(path)
    forget(path)
  }

  /// Forgets `path` (it was renamed into place).
  static func forget(_ path: String) {
    live.withLock { _ = $0.remove(path) }
  }

  /// Unlinks every live temporary: the last act of an interrupted process.
  static func removeAll() {
    let paths = live.withLock { set in
      let all = set
      set.removeAll()
      return all
    }
    for p in paths { unlink(p) }
  }

  /// Removes, once per directory per process, temporaries of this pattern whose process no
  /// longer exists.
  static func sweepStale(in directory: String) {
    let first = swept.withLock { $0.insert(directory).inserted }
    guard first, let names = try? FileManager.default.contentsOfDirectory(atPath: directory)
    else { return }
    for name in names {
      guard let pid = owner(ofTemporaryNamed: name), pid != getpid() else { continue }
      if kill(pid, 0) != 0 && errno == ESRCH { unlink(join(directory, name)) }
    }
  }

  /// The pid in a name of this pattern, or nil for any other name.
  static func owner(ofTemporaryNamed name: String) -> pid_t? {
    guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { return nil }
    let middle = name.dropFirst(prefix.count).dropLast(suffix.count)
    let parts = middle.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, let pid = pid_t(parts[0]), pid > 0, Int(parts[1]) != nil else {
      return nil
    }
    return pid
  }

  static func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }
}
