import Foundation
import Synchronization

/// SIGINT and SIGTERM as a flag that long loops check, so an interrupted run leaves through
/// the same clean-up path as a failed one and exits `128 + signal` (130, 143), as shells do.
///
/// `install()` replaces both signals' default action by a handler that only records the
/// signal. The loops call `check()`, which throws `Interruption`; the caller's
/// error path discards its `OutputFile`s and exits with `Interruption.exitStatus`.
///
/// A loop that does not reach a check in time (one very slow frame) must still not leave a
/// temporary behind: `graceSeconds` after the first signal, or at once on a second one, a
/// watcher thread removes every live temporary itself and exits with the same status.
package enum Cancellation {
  /// How long the loops get to notice the flag before the handler exits for them.
  package static let graceSeconds = 3.0

  private static let received = Atomic<Int32>(0)
  /// Signals received so far; a second one means "now".
  private static let count = Atomic<Int32>(0)
  /// The prefix of the line the last resort prints (`demo`, `bench`).
  private static let program = Mutex<String>("")
  private static let installed = Atomic<Bool>(false)
  /// Run by the watcher thread when the first signal arrives (`whenSignalled(_:)`).
  private static let wake = Mutex<(@Sendable () -> Void)?>(nil)

  /// Asks for `body` to run, on the watcher thread (not in the signal handler, so it may call
  /// anything thread-safe), as soon as a signal has arrived: a loop that sleeps until an event
  /// (a window waiting for input) posts itself one, so it sees the flag at once.
  package static func whenSignalled(_ body: @escaping @Sendable () -> Void) {
    wake.withLock { $0 = body }
  }

  /// Routes SIGINT and SIGTERM to the flag. Call once, early, in a process that has no other
  /// use for them.
  package static func install(program name: String) {
    program.withLock { $0 = name }
    guard installed.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
    else { return }
    // A parent may hand its children SIGINT / SIGTERM blocked (a test runner's threads do):
    // the handler would then never run. Threads made from here on inherit this mask.
    var wanted = sigset_t()
    sigemptyset(&wanted)
    sigaddset(&wanted, SIGINT)
    sigaddset(&wanted, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &wanted, nil)
    // The handler only stores two atomics (async-signal-safe); a thread of its own, not one of
    // Dispatch's (which a long parallel pass may keep busy), runs the last resort.
    for number in [SIGINT, SIGTERM] {
      Glibc.signal(number) { n in
        _ = Cancellation.received.compareExchange(
          expected: 0, desired: n, ordering: .acquiringAndReleasing)
        Cancellation.count.add(1, ordering: .acquiringAndReleasing)
      }
    }
    let watcher = Thread {
      while Cancellation.received.load(ordering: .acquiring) == 0 { usleep(10_000) }
      let first = Date()
      Cancellation.wake.withLock { $0 }?()
      while Date().timeIntervalSince(first) < graceSeconds,
        Cancellation.count.load(ordering: .acquiring) < 2
      {
        usleep(10_000)
      }
      exitNow(Cancellation.received.load(ordering: .acquiring))
    }
    watcher.start()
  }

  package static var signal: Int32? {
    let s = received.load(ordering: .acquiring)
    return s == 0 ? nil : s
  }

  /// Throws once a signal has arrived.
  package static func check() throws(Interruption) {
    if let s = signal { throw Interruption(signal: s) }
  }

  /// The last resort: the same clean-up and status as the loops' path, from this thread.
  private static func exitNow(_ signal: Int32) -> Never {
    TemporaryFiles.removeAll()
    let name = program.withLock { $0 }
    ErrorLine.print("\(name): \(Interruption(signal: signal))")
    _exit(128 + signal)
  }
}

/// A run stopped by SIGINT or SIGTERM.
package struct Interruption: Error, Sendable, CustomStringConvertible {
  package var signal: Int32
  package init(signal: Int32) { self.signal = signal }
  /// The status a shell reports for a process killed by `signal`: `128 + signal`.
  package var exitStatus: Int32 { 128 + signal }
  package var description: String {
    let name =
      switch signal {
      case SIGINT: "SIGINT"
      case SIGTERM: "SIGTERM"
      default: "signal \(signal)"
      }
    return "interrupted by \(name); partial output removed"
  }
}
