import Foundation

/// A 64 KiB tmpfs mounted on a scratch directory, filled until only `free` bytes are left:
/// a full disk that the executables' writes run into. Needs root (or CAP_SYS_ADMIN);
/// `mount()` returns nil and prints why when mounting is not permitted, and the test that
/// asked skips its checks.
package struct FullDisk {
  package let scratch: ScratchDirectory
  package var path: String { scratch.file("disk") }

  package static func mount(leaving free: Int) throws -> FullDisk? {
    let scratch = try ScratchDirectory("full")
    let disk = FullDisk(scratch: scratch)
    try FileManager.default.createDirectory(atPath: disk.path, withIntermediateDirectories: true)
    let r = try BuiltProduct.run(
      executable: URL(fileURLWithPath: "/bin/mount"),
      ["-t", "tmpfs", "-o", "size=64k", "tmpfs", disk.path])
    guard r.status == 0 else {
      print("skipped: cannot mount a tmpfs to fill (\(r.stderr.trimmingCharacters(in: .newlines)))")
      scratch.remove()
      return nil
    }
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
