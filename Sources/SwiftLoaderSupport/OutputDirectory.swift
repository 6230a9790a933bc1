import Foundation

/// A directory the run writes into (`demo --out`), created with its missing ancestors and
/// removed again, those it created only, when the run fails.
package struct OutputDirectory: Sendable {
  package let path: String
  /// The directories this run made, outermost first.
  package private(set) var created: [String] = []

  /// The most bytes a path may have (`PATH_MAX`, terminator included).
  package static let pathLimit = Int(PATH_MAX) - 1

  /// Checks, creating nothing, that `path` is a directory that accepts files or can be made
  /// one: every missing component's name fits, and the nearest existing ancestor is a
  /// writable directory.
  package static func check(_ path: String) throws(OutputError) {
    guard !path.isEmpty else { throw OutputError(.usage, "the directory path is empty") }
    guard path.utf8.count <= pathLimit else {
      throw OutputError(.usage, "the path is longer than \(pathLimit) bytes")
    }
    let (existing, missing) = try split(path)
    for name in missing where name.utf8.count > OutputTarget.nameLimit {
      throw OutputError(
        .usage,
        "\(ErrorLine.quote(name)): a directory name is at most \(OutputTarget.nameLimit) bytes")
    }
    let probe = try TemporaryFiles.create(in: existing)
    close(probe.descriptor)
    TemporaryFiles.remove(probe.path)
  }

  /// Makes `path` a directory, creating what is missing.
  package init(creating path: String) throws(OutputError) {
    try Self.check(path)
    self.path = path
    var (current, missing) = try Self.split(path)
    for name in missing {
      current = TemporaryFiles.join(current, name)
      if mkdir(current, 0o777) == 0 {
        created.append(current)
        continue
      }
      // Another process may have made it since `split` looked: fine if it is a directory,
      // and it is not this run's to remove.
      let code = errno
      var info = stat()
      if code == EEXIST, stat(current, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { continue }
      let error =
        code == EEXIST
        ? OutputError(.usage, "\(ErrorLine.quote(current)) is not a directory")
        : OutputError.system("create directory", current, errno: code)
      removeCreated()
      throw error
    }
  }

  /// Removes the directories this run created, innermost first, if they are empty (it never
  /// removes what someone else put there).
  package func removeCreated() {
    for d in created.reversed() { rmdir(d) }
  }

  /// The nearest existing ancestor of `path` (which must be a directory) and the names below
  /// it that do not exist yet.
  private static func split(_ path: String) throws(OutputError) -> (String, [String]) {
    var current = path
    var missing: [String] = []
    var info = stat()
    while stat(current, &info) != 0 {
      guard errno == ENOENT else { throw .system("use", current, errno: errno) }
      // A dangling link is there for `mkdir` (EEXIST) but not for `stat`: creating through
      // it would need its target's directory, so it is refused like any other non-directory.
      var link = stat()
      if lstat(current, &link) == 0 {
        throw OutputError(
          .usage, "\(ErrorLine.quote(current)) is a symbolic link to something that does not exist")
      }
      let (up, name) = OutputTarget.split(current)
      if !name.isEmpty, name != "." { missing.insert(name, at: 0) }
      if up == current { break }
      current = up
    }
    guard (info.st_mode & S_IFMT) == S_IFDIR else {
      throw OutputError(.usage, "\(ErrorLine.quote(current)) is not a directory")
    }
    return (current, missing)
  }
}
