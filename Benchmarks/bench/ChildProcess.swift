import Foundation
import SwiftLoaderSupport

/// A process the bench starts and waits for (`cpu/*` runs the demo, `host/*` the bench
/// itself), which dies with the bench however the bench ends.
enum ChildProcess {
  /// util-linux's `setpriv`, which children are started through with `--pdeathsig KILL`: the
  /// kernel kills the child when the bench dies, by SIGKILL or a crash too, where no handler
  /// of the bench runs (a window loop would otherwise run on for ever, and load every later
  /// measurement). `setpriv` execs the child in its own process, so the pid is the child's.
  /// Only a death in the instant between the spawn and `setpriv`'s `prctl` escapes it; without
  /// `setpriv` the child is spawned directly.
  static let parentDeathLauncher = ["/usr/bin/setpriv", "/bin/setpriv"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Starts `executable arguments` with `environment` added to the bench's, standard input
  /// from `/dev/null` and its output into the files `stdout` and `stderr` (nil: `/dev/null`).
  /// The child starts with no signal blocked or ignored, whatever this process inherited (a
  /// test runner blocks most signals): otherwise SIGTERM would stay pending for ever.
  static func spawn(
    _ executable: String, _ arguments: [String], environment extra: [String: String],
    stdout: String?, stderr: String?
  ) -> Result<pid_t, Failure> {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    for (fd, path) in [(Int32(1), stdout), (2, stderr)] {
      if let path {
        posix_spawn_file_actions_addopen(&actions, fd, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
      } else {
        posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0)
      }
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    var all = sigset_t()
    sigemptyset(&none)
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
    let launcher = parentDeathLauncher.map { [$0, "--pdeathsig", "KILL", "--"] } ?? []
    let argv = (launcher + [executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for p in argv { free(p) }
      for p in envp { free(p) }
    }
    var pid: pid_t = 0
    let spawned = posix_spawn(
      &pid, parentDeathLauncher ?? executable, &actions, &attributes, argv, envp)
    guard spawned == 0 else {
      return .failure(
        Failure(description: "cannot run \(executable): \(String(cString: strerror(spawned)))"))
    }
    return .success(pid)
  }

  /// Kills `pid` with SIGKILL and reaps it.
  static func kill(_ pid: pid_t) {
    var status: Int32 = 0
    Foundation.kill(pid, SIGKILL)
    while wait4(pid, &status, 0, nil) < 0, errno == EINTR {}
  }

  /// Sleeps `seconds` in short slices; SIGINT or SIGTERM to the bench kills `pid` and ends the
  /// run well within `Cancellation.graceSeconds`, so no child is left running.
  static func sleep(_ seconds: Double, watching pid: pid_t) {
    let end = Stopwatch.now() + UInt64(seconds * 1e9)
    while case let now = Stopwatch.now(), now < end {
      if let signal = Cancellation.signal {
        kill(pid)
        let interruption = Interruption(signal: signal)
        printError("bench: \(interruption)")
        exit(interruption.exitStatus)
      }
      usleep(useconds_t(min(50_000, (end - now) / 1000)))
    }
  }

  static func describe(_ status: Int32) -> String {
    status & 0x7F == 0 ? "exit status \((status >> 8) & 0xFF)" : "signal \(status & 0x7F)"
  }
}
