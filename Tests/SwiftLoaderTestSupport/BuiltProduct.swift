import Foundation

/// An executable product of this package (`demo`, `bench`) as built beside the test bundle,
/// launched with `Process`: what it printed and how it exited.
package struct BuiltProduct {
  /// The exit status, or the signal's number when `reason` is `.uncaughtSignal`.
  package var status: Int32
  package var reason: Process.TerminationReason = .exit
  package var stdout: String
  package var stderr: String

  /// `.build/<triple>/debug/<name>`, next to the test bundle this process runs from.
  package static func executable(named name: String) -> URL {
    let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var dir = me.deletingLastPathComponent()
    // On Linux the bundle is `.../debug/SwiftLoaderPackageTests.xctest`, a file; be lenient
    // if a runner puts the binary inside a bundle directory.
    while !FileManager.default.fileExists(atPath: dir.appendingPathComponent(name).path),
      dir.pathComponents.count > 1
    {
      dir = dir.deletingLastPathComponent()
    }
    return dir.appendingPathComponent(name)
  }

  /// Runs product `name` with `arguments`, this process's environment changed by
  /// `environment` (a nil value removes the variable), in `directory` if given.
  package static func run(
    _ name: String, _ arguments: [String], environment: [String: String?] = [:],
    directory: URL? = nil
  ) throws -> BuiltProduct {
    try run(
      executable: executable(named: name), arguments, environment: environment,
      directory: directory)
  }

  /// Runs `executable`, reading its stdout and stderr at the same time: reading one to its
  /// end first would deadlock on a child that fills the other pipe (64 KiB) meanwhile.
  package static func run(
    executable: URL, _ arguments: [String], environment: [String: String?] = [:],
    directory: URL? = nil
  ) throws -> BuiltProduct {
    let p = Process()
    p.executableURL = executable
    p.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    p.environment = env
    if let directory { p.currentDirectoryURL = directory }
    let out = Pipe()
    let err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    final class Drained: @unchecked Sendable {
      // Written by the reading thread before `group.wait()` returns, read only after it.
      var data = Data()
    }
    let stderrData = Drained()
    let group = DispatchGroup()
    let errHandle = err.fileHandleForReading
    DispatchQueue.global().async(group: group) {
      stderrData.data = errHandle.readDataToEndOfFile()
    }
    let o = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    p.waitUntilExit()
    return BuiltProduct(
      status: p.terminationStatus, reason: p.terminationReason,
      stdout: String(decoding: o, as: UTF8.self),
      stderr: String(decoding: stderrData.data, as: UTF8.self))
  }
}
