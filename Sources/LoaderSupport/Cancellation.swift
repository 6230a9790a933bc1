import Foundation
import Synchronization

/// SIGINT and SIGTERM as a flag that long loops check, so an interrupted run leaves through
/// the same clean-up path as a failed one and exits `128 + signal` (130, 143), as shells do.
///
/// `install()` sets both signals to be ignored by the kernel's default action and delivers
/// them instead to a Dispatch signal source, whose handler runs on an ordinary thread and only
/// records the signal. The loops call `check()`, which throws `Interruption`; the caller's
/// error path discards its `OutputFile`s and exits with `Interruption.exitStatus`.
///
/// A loop that does not reach a check in time (one very slow frame) must still not leave a
/// temporary behind: `graceSeconds` after the first signal, or at once on a second one, the
/// handler removes every live temporary itself and exits with the same status.
public enum Cancellation {
  /// How long the loops get to notice the flag before the handler exits for them.
  public static let graceSeconds = 3.0

  private static let received = Atomic<Int32>(0)
  /// The prefix of the line the last resort prints (`demo`, `bench`).
  private static let program = Mutex<String>("")
  private static let sources = Mutex<[any DispatchSourceSignal]>([])

  /// Routes SIGINT and SIGTERM to the flag. Call once, early, in a process that has no other
  /// use for them (not before an `exec`: ignored signals stay ignored across it).
  public static func install(program name: String) {
    program.withLock { $0 = name }
    sources.withLock { list in
      guard list.isEmpty else { return }
      for number in [SIGINT, SIGTERM] {
        Glibc.signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler { received(number) }
        source.resume()
        list.append(source)
      }
    }
  }

  /// The signal received, if any.
  public static var signal: Int32? {
    let s = received.load(ordering: .acquiring)
    return s == 0 ? nil : s
  }

  /// Throws once a signal has arrived.
  public static func check() throws(Interruption) {
    if let s = signal { throw Interruption(signal: s) }
  }

  private static func received(_ number: Int32) {
    let (first, original) = received.compareExchange(
      expected: 0, desired: number, ordering: .acquiringAndReleasing)
    if first {
      DispatchQueue.global().asyncAfter(deadline: .now() + graceSeconds) { exitNow(number) }
    } else {
      exitNow(original)
    }
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
public struct Interruption: Error, Sendable, CustomStringConvertible {
  public var signal: Int32
  public init(signal: Int32) { self.signal = signal }
  /// The status a shell reports for a process killed by `signal`: `128 + signal`.
  public var exitStatus: Int32 { 128 + signal }
  public var description: String {
    let name =
      switch signal {
      case SIGINT: "SIGINT"
      case SIGTERM: "SIGTERM"
      default: "signal \(signal)"
      }
    return "interrupted by \(name); partial output removed"
  }
}
