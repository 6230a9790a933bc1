import Foundation
import SwiftLoaderTestSupport
import Testing

/// The demo that `cpu/*` runs as a child ends with the bench, however the bench ends.
@Suite struct BenchChildProcessTests {
  /// The pids whose parent is `parent`, from `/proc/*/stat` (`pid (comm) state ppid ...`;
  /// the command name may hold spaces and parentheses, so fields are read after the last `)`).
  static func children(of parent: pid_t) -> [pid_t] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { name in
      guard let pid = pid_t(name), let fields = statFields(pid), fields.count > 1,
        pid_t(fields[1]) == parent
      else { return nil }
      return pid
    }
  }

  /// The fields of `/proc/PID/stat` after the command name: state, ppid, ...
  static func statFields(_ pid: pid_t) -> [Substring]? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    return stat[stat.index(after: close)...].split(separator: " ")
  }

  /// Gone, or a zombie waiting for whoever inherited it: either way it runs no more.
  static func hasEnded(_ pid: pid_t) -> Bool {
    guard let state = statFields(pid)?.first else { return true }
    return state == "Z" || state == "X"
  }

  /// SIGKILL gives the bench no chance to stop its child: the kernel does (the demo runs
  /// with a parent-death signal), so no demo window loop outlives the bench.
  @Test func aKilledBenchTakesItsDemoWithIt() throws {
    let p = Process()
    p.executableURL = BuiltProduct.executable(named: "bench")
    p.arguments = ["--filter", "cpu/seed-animating"]
    var environment = ProcessInfo.processInfo.environment
    environment["BENCH_NO_RELAUNCH"] = "1"
    p.environment = environment
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try p.run()
    var demo: pid_t?
    let deadline = Date().addingTimeInterval(60)
    while demo == nil, p.isRunning, Date() < deadline {
      demo = Self.children(of: p.processIdentifier).first
      usleep(20_000)
    }
    let child = try #require(demo, "the bench started no demo")
    kill(p.processIdentifier, SIGKILL)
    let killed = Date()
    while !Self.hasEnded(child), Date().timeIntervalSince(killed) < 5 { usleep(20_000) }
    #expect(Self.hasEnded(child), "the demo (pid \(child)) outlived the bench")
    // Whatever this test finds, it leaves no demo running; and only then waits, since
    // `waitUntilExit` does not return while an orphaned demo still holds the bench's files.
    if !Self.hasEnded(child) { kill(child, SIGKILL) }
    p.waitUntilExit()
  }
}
