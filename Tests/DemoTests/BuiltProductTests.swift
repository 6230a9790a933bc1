import Foundation
import SwiftLoaderTestSupport
import Testing

/// The launcher every executable test goes through.
@Suite struct BuiltProductTests {
  /// A child that writes 1 MiB to stderr before anything to stdout: a launcher that reads
  /// stdout to its end first waits for ever (the child blocks on the full stderr pipe).
  @Test(.timeLimit(.minutes(1))) func drainsStdoutAndStderrTogether() throws {
    let r = try BuiltProduct.run(
      executable: URL(fileURLWithPath: "/bin/sh"),
      ["-c", "head -c 1048576 /dev/zero | tr '\\0' e >&2; head -c 300000 /dev/zero | tr '\\0' o"])
    #expect(r.status == 0)
    #expect(r.stderr.utf8.count == 1 << 20)
    #expect(r.stderr.utf8.allSatisfy { $0 == UInt8(ascii: "e") })
    #expect(r.stdout.utf8.count == 300_000)
  }
}
