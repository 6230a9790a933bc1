import Foundation

/// The one way this project writes a file: PNG frames, the trace, the bench's JSON and chart.
///
/// A reader never sees half a file, and a failed or interrupted run leaves nothing behind:
/// 1. `init` resolves the target (`OutputTarget`: symlinks followed, non-regular targets
///    refused, `-` is standard output) and creates a temporary beside it with a short name of
///    its own (`TemporaryFiles`), so the rename never crosses file systems;
/// 2. `write` buffers and writes, checking every `write(2)` (a full disk is an error here,
///    not a short file later);
/// 3. `finish()` writes what is buffered, `fsync`s and closes the file: every byte is on
///    disk, only the rename is left;
/// 4. `commit()` finishes if need be, renames the file over the target (atomic within a
///    directory) and `fsync`s the directory, so the new name survives a power cut;
/// 5. any failure, `discard()` or `deinit` before the commit unlinks the temporary, and so
///    does an interrupting signal (`Cancellation`).
///
/// Files that belong together (a run's frames and trace, the bench's JSON and chart) go in
/// with `commit(_:)`: all are finished before any is renamed, so a full disk or a signal
/// part way leaves every target as it was.
///
/// Standard output is written straight through (there is nothing to rename); `commit()`
/// only flushes the buffer.
package final class OutputFile {
  /// The path as given.
  package let path: String
  package let target: OutputTarget
  private var descriptor: Int32
  private var temporaryPath: String?
  private var buffer: [UInt8] = []
  private var isOpen = true
  private var isFinished = false
  /// Bytes gathered before one `write(2)`.
  private static let bufferSize = 1 << 20

  package init(path: String) throws(OutputError) {
    self.path = path
    target = try OutputTarget.resolve(path)
    switch target {
    case .standardOutput:
      descriptor = StandardStreams.output
    case .file(let resolved):
      let (directory, _) = OutputTarget.split(resolved)
      let temporary = try TemporaryFiles.create(in: directory)
      descriptor = temporary.descriptor
      temporaryPath = temporary.path
      // A replaced file keeps its permissions.
      var old = stat()
      if stat(resolved, &old) == 0 { fchmod(descriptor, old.st_mode & 0o7777) }
    }
    buffer.reserveCapacity(Self.bufferSize)
  }

  deinit { discard() }

  /// The temporary's path, for an encoder that opens its output by name (giflib, FFmpeg): it
  /// writes there instead of through `write`, and `commit()` syncs and renames the file as
  /// usual. Nil for standard output, which has no name to open.
  package var temporaryPathForEncoder: String? { temporaryPath }

  /// Checks that `path` can be written, creating nothing that outlives the call: the target
  /// resolves and a temporary can be created beside it. Returns the resolved target, for
  /// comparing two outputs.
  @discardableResult
  package static func check(_ path: String) throws(OutputError) -> OutputTarget {
    let target = try OutputTarget.resolve(path)
    if let directory = target.directory {
      let probe = try TemporaryFiles.create(in: directory)
      close(probe.descriptor)
      TemporaryFiles.remove(probe.path)
    }
    return target
  }

  /// Writes `bytes` to `path` in one go: the file is complete or absent afterwards.
  package static func write(_ bytes: some Collection<UInt8>, to path: String) throws(OutputError) {
    let file = try OutputFile(path: path)
    try file.write(bytes)
    try file.commit()
  }

  /// Appends `bytes`; a failed write discards the temporary and throws `.io`.
  package func write(_ bytes: some Collection<UInt8>) throws(OutputError) {
    guard isOpen, !isFinished else {
      throw OutputError(.io, "\(ErrorLine.quote(path)) is already closed")
    }
    buffer.append(contentsOf: bytes)
    if buffer.count >= Self.bufferSize { try flush() }
  }

  /// Appends `text` as UTF-8.
  package func write(_ text: String) throws(OutputError) {
    try write(text.utf8)
  }

  /// Writes out the buffer, then `fsync`s and closes the temporary (the type's step 3): after
  /// it nothing can fail for lack of space. Holds no buffer and no descriptor afterwards, so
  /// many finished files may wait for one `commit(_:)`. Safe to call more than once.
  package func finish() throws(OutputError) {
    guard !isFinished else { return }
    guard isOpen else { throw OutputError(.io, "\(ErrorLine.quote(path)) is already closed") }
    try flush()
    buffer = []
    isFinished = true
    guard temporaryPath != nil else { return }
    if fsync(descriptor) != 0 { try fail(.system("write", path, errno: errno)) }
    let closed = close(descriptor)
    let closeError = errno
    descriptor = -1
    if closed != 0 { try fail(.system("write", path, errno: closeError)) }
  }

  /// Puts the finished file in place (see the type's steps 3 and 4).
  package func commit() throws(OutputError) {
    try finish()
    guard let temporary = temporaryPath, case .file(let resolved) = target else {
      isOpen = false
      return
    }
    if rename(temporary, resolved) != 0 { try fail(.system("rename into", path, errno: errno)) }
    TemporaryFiles.forget(temporary)
    temporaryPath = nil
    isOpen = false
    try Self.syncDirectory(of: resolved)
  }

  /// Puts `files` in place together: every one is finished first, and if any of them fails
  /// (a full disk) all are discarded and no target changes. Only a failing rename, after the
  /// data is safe, can leave the earlier ones renamed; the rest are then discarded.
  package static func commit(_ files: [OutputFile]) throws(OutputError) {
    do {
      for file in files { try file.finish() }
      for file in files { try file.commit() }
    } catch {
      for file in files { file.discard() }
      throw error
    }
  }

  /// Drops everything written; the target is untouched. Safe to call more than once.
  package func discard() {
    isOpen = false
    buffer.removeAll()
    if let temporary = temporaryPath {
      if descriptor >= 0 { close(descriptor) }
      descriptor = -1
      TemporaryFiles.remove(temporary)
      temporaryPath = nil
    }
  }

  private func flush() throws(OutputError) {
    guard !buffer.isEmpty else { return }
    let code = StandardStreams.writeAll(descriptor, &buffer)
    buffer.removeAll(keepingCapacity: true)
    if code != 0 { try fail(.system("write", path, errno: code)) }
  }

  /// Discards the temporary, then throws `error`.
  private func fail(_ error: OutputError) throws(OutputError) -> Never {
    discard()
    throw OutputError(.io, error.description)
  }

  /// `fsync` on the directory makes the rename durable; file systems that cannot sync a
  /// directory (`EINVAL`) have nothing to make durable.
  private static func syncDirectory(of path: String) throws(OutputError) {
    let directory = OutputTarget.split(path).directory
    let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    defer { close(fd) }
    if fsync(fd) != 0, errno != EINVAL {
      throw OutputError(
        .io, OutputError.system("sync directory", directory, errno: errno).description)
    }
  }
}
