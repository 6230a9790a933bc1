import Foundation
import SwiftLoaderTestSupport
import Testing

/// The demo's files go in together (`OutputFile.commit(_:)`): when any of them cannot be written,
/// every target keeps what it held before the run, byte for byte.
@Suite(.serialized) struct OutputTogetherTests {
  static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  @Test(.enabled(if: FullDisk.canMount, Comment(rawValue: FullDisk.needs)))
  func aFullDiskPartWayKeepsTheFramesAndTraceOfTheRunBefore() throws {
    let disk = try FullDisk.mount(leaving: 40 * 1024)
    defer { disk.unmount() }
    let dir = disk.path + "/frames"
    let names = ["frame-0000-t0.000.png", "frame-0001-t0.100.png", "t.json"]
    let first = try DemoProcess.run(["--at", "0,0.1", "--out", dir, "--trace", dir + "/t.json"])
    #expect(first.status == 0, "\(first.stderr)")
    let before = names.map { Self.bytes(dir + "/" + $0) }
    #expect(before.allSatisfy { $0 != nil })
    // Eight frames of about 8 KiB cannot fit in what is left: the fourth or so fails.
    let second = try DemoProcess.run([
      "--at", "0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9", "--out", dir, "--trace", dir + "/t.json",
    ])
    #expect(second.status == 1, "\(second.stderr)")
    #expect(second.stderr.contains("No space left on device"), "\(second.stderr)")
    let left = (try? FileManager.default.contentsOfDirectory(atPath: dir))?.sorted()
    #expect(left == names, "no new frame, no temporary")
    #expect(names.map { Self.bytes(dir + "/" + $0) } == before, "the old files are untouched")
  }
}
