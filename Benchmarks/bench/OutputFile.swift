import Foundation
import LoaderSDL

/// An output file named on the command line: checked writable before any measuring, written
/// atomically (temporary file beside it, then renamed) so a failure never leaves half a file.
enum OutputFile {
  struct Unwritable: Error, CustomStringConvertible {
    var description: String
  }

  /// Proves `path` can be written by creating and removing a sibling temporary file.
  static func checkWritable(_ path: String, flag: String) throws(Unwritable) {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      isDirectory.boolValue
    {
      throw Unwritable(description: "\(flag): '\(path)' is a directory")
    }
    let probe = AtomicFile(path: path).temporaryPath
    let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0o644)
    guard fd >= 0 else {
      throw Unwritable(
        description: "\(flag): cannot write '\(path)': \(String(cString: strerror(errno)))")
    }
    close(fd)
    unlink(probe)
  }

  /// Writes `text` to `path` atomically.
  static func write(_ text: String, to path: String) throws(Unwritable) {
    let file = AtomicFile(path: path)
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: file.temporaryPath))
    } catch {
      file.discard()
      throw Unwritable(description: "cannot write '\(path)': \(error.localizedDescription)")
    }
    do {
      try file.commit()
    } catch {
      throw Unwritable(description: error.description)
    }
  }
}
