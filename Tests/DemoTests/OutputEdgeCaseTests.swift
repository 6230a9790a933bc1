import Foundation
import SwiftLoaderTestSupport
import Testing

/// Outputs a hostile user reaches for after the common cases: every recording format on a
/// full disk, a negative zero time in a frame's name, an `--out` through a dangling link.
@Suite struct OutputEdgeCaseTests {
  /// Every format fails on a full disk with one line and exit 1, never a signal, and leaves
  /// no temporary. WebM fails in the trailer (the muxer holds its clusters until then), the
  /// path where a second trailer call used to crash in libavformat.
  @Test(
    .enabled(if: FullDisk.canMount, Comment(rawValue: FullDisk.needs)),
    arguments: ["gif", "webp", "mp4", "webm"])
  func aRecordingOnAFullDiskIsAnIOErrorThatLeavesNothing(format: String) throws {
    let disk = try FullDisk.mount(leaving: 0)
    defer { disk.unmount() }
    let r = try DemoProcess.run([
      "--record", disk.path + "/r." + format, "--zoom", "2", "--duration", "1",
    ])
    #expect(r.status == 1, "\(r.stderr.prefix(300))")
    #expect(DemoOutputTests.oneLine(r.stderr), "\(r.stderr.prefix(300))")
    // giflib words it its own way ("Write failed (disk full?)"); the others quote errno.
    #expect(r.stderr.contains("r.\(format)"), "\(r.stderr.prefix(300))")
    #expect(disk.leftovers().isEmpty, "left: \(disk.leftovers())")
  }

  /// `-0` is a time in `0...86400`; its frame is named `t0.000` like `0`'s, so the next run
  /// recognises it as a frame and clears it (a `t-0.000` name would stay for ever).
  @Test func aNegativeZeroTimeNamesItsFrameLikeZeroAndIsClearedByTheNextRun() throws {
    let dir = try ScratchDirectory("negzero")
    defer { dir.remove() }
    let out = dir.file("o")
    let first = try DemoProcess.run(["--at", "-0,-0.0", "--out", out])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(
      (try? FileManager.default.contentsOfDirectory(atPath: out).sorted())
        == ["frame-0000-t0.000.png", "frame-0001-t0.000.png"])
    let second = try DemoProcess.run(["--at", "1", "--out", out])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(
      (try? FileManager.default.contentsOfDirectory(atPath: out)) == ["frame-0000-t1.000.png"])
  }

  /// A dangling link as `--out` (or above it) is a usage error naming the flag, and nothing
  /// is created at either end of the link.
  @Test(arguments: ["link", "link/below"])
  func anOutThroughADanglingLinkIsAUsageError(out: String) throws {
    let dir = try ScratchDirectory("dangling")
    defer { dir.remove() }
    #expect(symlink(dir.file("missing/target"), dir.file("link")) == 0)
    let r = try DemoProcess.run(["--at", "0", "--out", dir.file(out)])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(DemoOutputTests.oneLine(r.stderr), "\(r.stderr)")
    #expect(r.stderr.hasPrefix("demo: --out: "), "\(r.stderr)")
    #expect(dir.contents() == ["link"])
  }

  /// A frame's name in `--out` taken by a directory or a fifo is refused before any work,
  /// as every other non-regular target is: exit 2, one line naming `--out`, nothing changed.
  @Test(arguments: ["directory", "named pipe"])
  func aFrameNameTakenByANonRegularFileIsAUsageError(kind: String) throws {
    let dir = try ScratchDirectory("frame-taken")
    defer { dir.remove() }
    let taken = dir.file("frame-0001-t0.500.png")
    if kind == "directory" {
      try FileManager.default.createDirectory(atPath: taken, withIntermediateDirectories: false)
    } else {
      #expect(mkfifo(taken, 0o644) == 0)
    }
    let r = try DemoProcess.run(["--at", "0,0.5", "--out", dir.path])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(DemoOutputTests.oneLine(r.stderr), "\(r.stderr)")
    #expect(
      r.stderr.hasPrefix("demo: --out: '\(taken)' is a \(kind)"), "\(r.stderr)")
    #expect(dir.contents() == ["frame-0001-t0.500.png"])
  }

  /// A recording named only by its extension says so, instead of claiming a wrong extension.
  @Test func aRecordingNamedOnlyByItsExtensionSaysSo() throws {
    let r = try DemoProcess.run(["--record", "clips/.gif"])
    #expect(r.status == 2)
    #expect(r.stderr == "demo: --record: 'clips/.gif' has no file name before its .gif\n")
  }
}
