import Foundation

/// A 64 KiB tmpfs mounted on a scratch directory, filled until only `free` bytes are left:
/// a full disk that the executables' writes run into.
///
/// Mounting needs root (or CAP_SYS_ADMIN). A test that fills a disk says so with
/// `@Test(.enabled(if: FullDisk.canMount, FullDisk.needs))`, so where it cannot mount it is
/// reported as skipped, with the reason, instead of passing without running.
package struct FullDisk {
  package let scratch: ScratchDirectory
  package var path: String { scratch.file("disk") }

  /// The reason a full-disk test gives when it is skipped.
  package static let needs = "mounting a tmpfs to fill needs root or CAP_SYS_ADMIN"

  /// Whether this process may mount a tmpfs: tried once, on a scratch directory.
  package static let canMount: Bool = {
    guard let disk = try? mountEmpty() else { return false }
    disk.unmount()
    return true
  }()

  /// Mounts a tmpfs and fills it until `free` bytes are left; throws when mounting fails
  /// (a test asks `canMount` first).
  package static func mount(leaving free: Int) throws -> FullDisk {
    let disk = try mountEmpty()
    var info = statvfs()
    statvfs(disk.path, &info)
    let available = Int(info.f_bavail) * Int(info.f_frsize)
    let filler = disk.path + "/filler"
    _ = FileManager.default.createFile(
      atPath: filler, contents: Data(count: max(0, available - free)))
    // `createFile` gives up on a short write; top up byte by byte until the disk is full.
    if free == 0, let h = FileHandle(forWritingAtPath: filler) {
      h.seekToEndOfFile()
      while (try? h.write(contentsOf: Data(count: 512))) != nil {}
      try? h.close()
    }
    return disk
  }

  private static func mountEmpty() throws -> FullDisk {
    let scratch = try ScratchDirectory("full")
    let disk = FullDisk(scratch: scratch)
    try FileManager.default.createDirectory(atPath: disk.path, withIntermediateDirectories: true)
    let r = try BuiltProduct.run(
      executable: URL(fileURLWithPath: "/bin/mount"),
      ["-t", "tmpfs", "-o", "size=64k", "tmpfs", disk.path])
    guard r.status == 0 else {
      scratch.remove()
      throw MountFailure(description: r.stderr.trimmingCharacters(in: .newlines))
    }
    return disk
  }

  /// `mount(8)`'s complaint.
  package struct MountFailure: Error, CustomStringConvertible {
    package var description: String
  }

  /// Every entry on the disk but the filler.
  package func leftovers() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0 != "filler" }
      .sorted()
  }

  package func unmount() {
    _ = try? BuiltProduct.run(executable: URL(fileURLWithPath: "/bin/umount"), [path])
    scratch.remove()
  }
}
