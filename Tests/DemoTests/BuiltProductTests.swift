import Foundation
import SwiftLoaderTestSupport
import Testing

/// The launcher every executable test goes through.
@Suite struct BuiltProductTests {
  /// A child that writes 1 MiB to stderr before anything to stdout: a launcher that reads
  /// stdout to its end first waits for ever (the child blocks on the full stderr pipe).
  /// The child's time runs from its launch (a `.timeLimit` would also count the time the test
  /// waited for a thread on a loaded machine): a deadlock is a child killed after 60 s.
  @Test func drainsStdoutAndStderrTogether() throws {
    let r = try BuiltProduct.run(
      executable: URL(fileURLWithPath: "/bin/sh"),
      ["-c", "head -c 1048576 /dev/zero | tr '\\0' e >&2; head -c 300000 /dev/zero | tr '\\0' o"],
      timeout: .seconds(60))
    #expect(!r.timedOut)
    #expect(r.status == 0)
    #expect(r.stderr.utf8.count == 1 << 20)
    #expect(r.stderr.utf8.allSatisfy { $0 == UInt8(ascii: "e") })
    #expect(r.stdout.utf8.count == 300_000)
  }

  /// A child past its time is killed, and the result says so.
  @Test func aChildPastItsTimeIsKilled() throws {
    let started = Date()
    let r = try BuiltProduct.run(
      executable: URL(fileURLWithPath: "/bin/sh"), ["-c", "echo begun; exec sleep 60"],
      timeout: .seconds(1))
    #expect(r.timedOut)
    #expect(r.reason == .uncaughtSignal && r.status == SIGKILL)
    #expect(r.stdout == "begun\n")
    #expect(Date().timeIntervalSince(started) < 30)
  }
}
