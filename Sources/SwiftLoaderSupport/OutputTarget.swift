import Foundation

/// Where an output path leads, decided before anything is written.
///
/// - `-` and `/dev/stdout` stream to standard output (renaming over `/dev/stdout` would
///   replace the system's link with a regular file).
/// - A symbolic link is followed (up to 40 links, as the kernel does) and its target is
///   written: the link stays, and the file it names is replaced.
/// - The final target must be a regular file or not exist yet, in an existing directory;
///   directories, device nodes, named pipes and sockets are refused (renaming over them would
///   replace them), as is a name longer than 255 bytes.
package enum OutputTarget: Sendable, Equatable {
  case standardOutput
  /// The resolved path: a regular file, or a name that does not exist yet.
  case file(String)

  /// The longest name a directory entry can hold on Linux file systems (`NAME_MAX`).
  package static let nameLimit = 255

  /// Follows `path` to its target and checks that it can be one, creating nothing.
  package static func resolve(_ path: String) throws(OutputError) -> OutputTarget {
    if isStandardOutput(path) { return .standardOutput }
    guard !path.isEmpty else { throw OutputError(.usage, "the path is empty") }
    // What exists is judged by `stat`, which follows every link the way a write would, the
    // kernel's own `/proc/self/fd/N` links to pipes and terminals included.
    var final = stat()
    if stat(path, &final) == 0 {
      guard (final.st_mode & S_IFMT) == S_IFREG else {
        throw OutputError(
          .usage, "\(ErrorLine.quote(path)) is \(kindName(final.st_mode)), not a regular file")
      }
      guard let real = realpath(path, nil) else { throw .system("use", path, errno: errno) }
      defer { free(real) }
      return .file(String(cString: real))
    }
    // Nothing there yet: follow the links by hand to the name a write would create.
    var current = path
    var info = stat()
    var exists = false
    var links = 0
    while true {
      if lstat(current, &info) != 0 {
        if errno == ENAMETOOLONG {
          throw OutputError(
            .usage,
            "\(ErrorLine.quote(current)) is too long: a file name is at most \(nameLimit) bytes, "
              + "a path \(Int(PATH_MAX) - 1)")
        }
        guard errno == ENOENT else { throw .system("use", current, errno: errno) }
        break
      }
      guard (info.st_mode & S_IFMT) == S_IFLNK else {
        exists = true
        break
      }
      // A loop of links (`a -> b -> a`) ends here, not in a rename over the last link.
      links += 1
      guard links <= 40 else {
        throw OutputError(.usage, "\(ErrorLine.quote(path)): too many symbolic links")
      }
      current = try linkTarget(of: current)
    }
    let (directory, name) = split(current)
    if exists {
      guard (info.st_mode & S_IFMT) == S_IFREG else {
        throw OutputError(
          .usage, "\(ErrorLine.quote(path)) is \(kindName(info.st_mode)), not a regular file")
      }
      return .file(current)
    }
    guard !name.isEmpty, name != ".", name != ".." else {
      throw OutputError(.usage, "\(ErrorLine.quote(path)) names a directory, not a file")
    }
    guard name.utf8.count <= nameLimit else {
      throw OutputError(
        .usage, "\(ErrorLine.quote(name)): a file name is at most \(nameLimit) bytes")
    }
    var dirInfo = stat()
    guard stat(directory, &dirInfo) == 0 else {
      if errno == ENOENT {
        throw OutputError(.usage, "directory \(ErrorLine.quote(directory)) does not exist")
      }
      throw .system("use directory", directory, errno: errno)
    }
    guard (dirInfo.st_mode & S_IFMT) == S_IFDIR else {
      throw OutputError(.usage, "\(ErrorLine.quote(directory)) is not a directory")
    }
    return .file(current)
  }

  /// Whether `path` is one of the names for standard output.
  package static func isStandardOutput(_ path: String) -> Bool {
    path == "-" || path == "/dev/stdout"
  }

  /// The directory a resolved file target lives in (where its temporary goes).
  var directory: String? {
    guard case .file(let p) = self else { return nil }
    return Self.split(p).directory
  }

  /// `path` split at its last `/`: `("dir", "name")`, `(".", "name")` or `("/", "name")`.
  static func split(_ path: String) -> (directory: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let name = String(path[path.index(after: slash)...])
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, name)
  }

  /// Where the link at `path` points, relative links taken from the link's directory.
  private static func linkTarget(of path: String) throws(OutputError) -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let n = readlink(path, &buffer, Int(PATH_MAX))
    guard n >= 0 else { throw .system("read link", path, errno: errno) }
    let bytes = buffer[0..<n].map { UInt8(bitPattern: $0) }
    let target = String(decoding: bytes, as: UTF8.self)
    if target.hasPrefix("/") { return target }
    return TemporaryFiles.join(split(path).directory, target)
  }

  private static func kindName(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFDIR: "a directory"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFIFO: "a named pipe"
    case S_IFSOCK: "a socket"
    default: "not a regular file"
    }
  }
}
