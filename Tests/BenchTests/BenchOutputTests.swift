import Foundation
import SwiftLoaderTestSupport
import Testing

/// The bench's `--json` and `--chart` go through the same writer as the demo's files.
@Suite struct BenchOutputTests {
  static func run(_ arguments: [String]) throws -> BuiltProduct {
    try BuiltProduct.run("bench", arguments, environment: ["BENCH_NO_RELAUNCH": "1"])
  }

  @Test(.enabled(if: FullDisk.canMount, Comment(rawValue: FullDisk.needs)))
  func aFullDiskIsAnIOErrorThatLeavesNothing() throws {
    let disk = try FullDisk.mount(leaving: 0)
    defer { disk.unmount() }
    for flag in ["--json", "--chart"] {
      let r = try Self.run([
        "--quick", "--filter", "limit/fill", flag, disk.path + "/out.png",
      ])
      #expect(r.status == 1, "\(flag): \(r.stderr)")
      let lines = r.stderr.split(separator: "\n").filter {
        !$0.hasPrefix("bench: BENCH_NO_RELAUNCH")
      }
      #expect(lines.count == 1, "\(r.stderr)")
      #expect(lines.first?.contains("No space left on device") == true, "\(r.stderr)")
      #expect(disk.leftovers().isEmpty, "\(flag) left: \(disk.leftovers())")
    }
  }

  @Test func deviceTargetsAreRefusedAndStdoutCarriesTheJSONAlone() throws {
    let r = try Self.run(["--json", "/dev/null"])
    #expect(r.status == 2)
    #expect(r.stderr == "bench: --json: '/dev/null' is a character device, not a regular file\n")
    let s = try Self.run(["--quick", "--filter", "limit/fill", "--json", "-"])
    #expect(s.status == 0, "\(s.stderr)")
    let object = try JSONSerialization.jsonObject(with: Data(s.stdout.utf8)) as? [String: Any]
    #expect((object?["results"] as? [Any])?.count == 1)
    #expect(s.stderr.contains("limit/fill "))
  }

  /// The bench's time runs from its launch, not from when the test began (a `.timeLimit`
  /// would also charge the wait for a thread on a loaded machine): 2 s of work, then SIGTERM,
  /// then at most 60 s to exit before it is killed and the test fails.
  @Test func sigtermEndsTheRunWith143AndWritesNothing() throws {
    let dir = try ScratchDirectory("bench-signal")
    defer { dir.remove() }
    let p = Process()
    p.executableURL = BuiltProduct.executable(named: "bench")
    p.arguments = ["--quick", "--json", dir.file("r.json"), "--chart", dir.file("c.png")]
    var environment = ProcessInfo.processInfo.environment
    environment["BENCH_NO_RELAUNCH"] = "1"
    p.environment = environment
    p.standardOutput = FileHandle.nullDevice
    let err = Pipe()
    p.standardError = err
    try p.run()
    let drain = PipeDrain(err.fileHandleForReading)
    sleep(2)
    #expect(p.isRunning)
    let watchdog = Watchdog(killing: p.processIdentifier, after: .seconds(60))
    kill(p.processIdentifier, SIGTERM)
    let stderr = String(decoding: drain.wait(), as: UTF8.self)
    p.waitUntilExit()
    #expect(!watchdog.finish(), "the bench outlived 60 s after SIGTERM")
    #expect(p.terminationReason == .exit)
    #expect(p.terminationStatus == 143, "\(stderr)")
    #expect(
      stderr.hasSuffix("bench: interrupted by SIGTERM; partial output removed\n"), "\(stderr)")
    #expect(dir.contents().isEmpty)
  }

}
