import Foundation
import Testing

/// Runs the built `bench` executable (beside the test bundle, a debug build): flags are
/// validated before the bench would rebuild itself in release, so these runs never build or
/// measure anything.
private struct BenchProcess {
  var status: Int32
  var stdout: String
  var stderr: String

  static var executable: URL {
    var dir = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
      .deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("bench").path),
      dir.pathComponents.count > 1
    {
      dir = dir.deletingLastPathComponent()
    }
    return dir.appendingPathComponent("bench")
  }

  static func run(_ arguments: [String]) throws -> BenchProcess {
    let p = Process()
    p.executableURL = executable
    p.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    // If a flag were wrongly accepted, measure (quickly, in debug) rather than build release.
    env["BENCH_NO_RELAUNCH"] = "1"
    p.environment = env
    let out = Pipe()
    let err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return BenchProcess(
      status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
      stderr: String(decoding: e, as: UTF8.self))
  }
}

@Suite struct BenchCLITests {
  @Test func helpPrintsUsageAndExitsZero() throws {
    let r = try BenchProcess.run(["--help"])
    #expect(r.status == 0)
    #expect(
      r.stdout.hasPrefix(
        "usage: bench [--quick] [--filter SUBSTRING] [--json FILE] [--chart FILE.png]\n"))
    for flag in ["--quick", "--filter", "--json", "--chart", "--help"] {
      #expect(r.stdout.contains("  \(flag)"), "help lists \(flag)")
    }
    #expect(r.stderr.isEmpty)
  }

  @Test(arguments: [
    (["--bogus"], "bench: unknown option '--bogus' (see --help)"),
    (["--json"], "bench: --json needs a value"),
    (["--json", "--quick"], "bench: --json needs a value"),
    (["--filter="], "bench: --filter needs a value"),
    (["--quick=yes"], "bench: --quick takes no value"),
    (["--quick", "--quick"], "bench: --quick given twice"),
    (["--chart", "out.jpg"], "bench: --chart: 'out.jpg' must end in .png"),
    (["stray"], "bench: unexpected argument 'stray' (see --help)"),
    (
      ["--json", "same.png", "--chart", "same.png"],
      "bench: --json and --chart name the same file 'same.png'"
    ),
    (
      ["--json", "/nonexistent-bench-dir/r.json"],
      "bench: --json: cannot write '/nonexistent-bench-dir/r.json': No such file or directory"
    ),
    (
      ["--chart", "/nonexistent-bench-dir/c.png"],
      "bench: --chart: cannot write '/nonexistent-bench-dir/c.png': No such file or directory"
    ),
  ])
  func badUsageExitsTwoWithOneLine(arguments: [String], message: String) throws {
    let r = try BenchProcess.run(arguments)
    #expect(r.status == 2)
    #expect(r.stderr == message + "\n")
    #expect(r.stdout.isEmpty)
  }

  @Test func filterMatchingNothingIsAUsageError() throws {
    let r = try BenchProcess.run(["--filter", "no-such-entry"])
    #expect(r.status == 2)
    #expect(
      r.stderr.hasPrefix(
        "bench: --filter 'no-such-entry' matches no entry (entries: limit/bandwidth, "))
    #expect(r.stderr.split(separator: "\n").count == 1)
    #expect(r.stdout.isEmpty)
  }

  @Test func aDirectoryIsNotAnOutputFile() throws {
    let dir = FileManager.default.temporaryDirectory.path
    let r = try BenchProcess.run(["--json", dir])
    #expect(r.status == 2)
    #expect(r.stderr == "bench: --json: '\(dir)' is a directory\n")
  }
}
