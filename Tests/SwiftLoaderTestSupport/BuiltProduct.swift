import Foundation
import Synchronization

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
  ///
  /// The child gets `timeout` of wall time from its launch; past that it is killed (`SIGKILL`)
  /// and the result says so (`timedOut`, reason `.uncaughtSignal`). The deadline runs from the
  /// launch, not from when the test began: a test scheduled late on a loaded machine is not
  /// charged for the wait (Swift Testing's `.timeLimit` is).
  package static func run(
    executable: URL, _ arguments: [String], environment: [String: String?] = [:],
    directory: URL? = nil, timeout: Duration = .seconds(600)
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
    let watchdog = Watchdog(killing: p.processIdentifier, after: timeout)
    let stderrData = PipeDrain(err.fileHandleForReading)
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = stderrData.wait()
    p.waitUntilExit()
    let timedOut = watchdog.finish()
    return BuiltProduct(
      status: p.terminationStatus, reason: p.terminationReason,
      stdout: String(decoding: o, as: UTF8.self),
      stderr: String(decoding: e, as: UTF8.self), timedOut: timedOut)
  }

  /// Whether the child outlived its `timeout` and was killed.
  package var timedOut = false
}

/// Reads a pipe on a thread of its own, to its end (or, with `firstLineOnly`, through its first
/// newline: a server announcing itself keeps the pipe open), so that the caller can read
/// another pipe or wait with a deadline meanwhile. A plain thread, not a Dispatch queue: on a
/// loaded machine whose Dispatch threads are all blocked (other tests waiting on their
/// children), Linux's Dispatch may not add one for a long time, and the child blocks on the
/// full pipe until it does.
package final class PipeDrain: @unchecked Sendable {
  // Safe: `data` is written by the reading thread before it signals `done`, and read only
  // after a wait has taken that signal.
  private var data = Data()
  private let done = DispatchSemaphore(value: 0)

  package init(_ handle: FileHandle, firstLineOnly: Bool = false) {
    let thread = Thread { [self] in
      if firstLineOnly {
        while !data.contains(UInt8(ascii: "\n")) {
          let chunk = handle.availableData
          if chunk.isEmpty { break }
          data.append(chunk)
        }
      } else {
        data = handle.readDataToEndOfFile()
      }
      done.signal()
    }
    thread.start()
  }

  /// What the pipe carried, once read.
  package func wait() -> Data {
    done.wait()
    return data
  }

  /// What the pipe carried, or nil when it is not read within `seconds`.
  package func wait(seconds: Double) -> Data? {
    done.wait(timeout: .now() + seconds) == .success ? data : nil
  }
}

/// Kills process `pid` with `SIGKILL` unless `finish()` is called within `after` of its
/// making; `finish()` says whether it had to.
package final class Watchdog: Sendable {
  private let finished = DispatchSemaphore(value: 0)
  private let fired = Atomic<Bool>(false)
  private let stopped = DispatchSemaphore(value: 0)

  package init(killing pid: Int32, after timeout: Duration) {
    let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
    let thread = Thread { [self] in
      if finished.wait(timeout: .now() + seconds) == .timedOut {
        fired.store(true, ordering: .sequentiallyConsistent)
        kill(pid, SIGKILL)
      }
      stopped.signal()
    }
    thread.start()
  }

  /// Stops the watch; true when the process was killed for its time.
  package func finish() -> Bool {
    finished.signal()
    stopped.wait()
    return fired.load(ordering: .sequentiallyConsistent)
  }
}
