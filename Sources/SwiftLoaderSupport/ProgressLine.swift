import Foundation

/// How far a long run has come, as one line on a terminal rewritten in place:
/// ```
/// demo: big.mp4: 1234/20000 frames, 4.1 s, about 61 s left
/// ```
/// Each update returns the carriage to the line's start (`\r`) and writes the line again,
/// padded with spaces over whatever was longer before; `finish()` writes the final count
/// and ends the line with a newline, so the next output starts on a line of its own.
///
/// Nothing at all is written when the stream is not a terminal (a pipe, a file: a log must
/// not fill with carriage returns), when the caller silences it (`--quiet`), or when the run
/// ends within `delay` of its start. The estimate is the mean time per frame so far times the
/// frames left. Rewrites come at most every `interval`, so a run of many quick frames does
/// not spend its time on the terminal.
///
/// The clock and the test for a terminal are injected, so tests drive it without either.
package final class ProgressLine {
  /// Seconds of running before the first line: shorter runs show nothing.
  package static let delay = 1.0
  /// Least seconds between two rewrites.
  package static let interval = 0.2
  /// Characters of the label kept (escaped, then cut like an error line's values), so the
  /// line fits an 80-column terminal and never wraps: a wrapped line is not rewritten in place.
  package static let labelLimit = 30

  private let label: String
  private let total: Int
  private let unit: String
  private let isShown: Bool
  private let clock: () -> Double
  private let write: (String) -> Void
  private let started: Double
  private var lastWritten: Double?
  private var width = 0
  private var done = 0
  private var finished = false

  /// `label` names the run (`demo: big.mp4`), `total` its frames (or any `unit`s). Writes
  /// through `write` only if `isTerminal` and not `quiet`; `clock` is monotonic seconds.
  package init(
    label: String, total: Int, unit: String = "frames", isTerminal: Bool, quiet: Bool = false,
    clock: @escaping () -> Double, write: @escaping (String) -> Void
  ) {
    self.label = ErrorLine.cut(ErrorLine.escaped(label), to: Self.labelLimit)
    self.total = max(0, total)
    self.unit = unit
    isShown = isTerminal && !quiet
    self.clock = clock
    self.write = write
    started = clock()
  }

  /// A line on standard error, shown only when standard error is a terminal (`isatty`).
  package static func standardError(label: String, total: Int, unit: String = "frames", quiet: Bool)
    -> ProgressLine
  {
    ProgressLine(
      label: label, total: total, unit: unit, isTerminal: isatty(STDERR_FILENO) != 0,
      quiet: quiet, clock: { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 },
      write: { StandardStreams.writeError($0) })
  }

  /// Whether anything has been written: the line is on screen, unfinished or finished.
  package var hasWritten: Bool { lastWritten != nil }

  /// Records that `done` of the total are done, rewriting the line when it is due.
  package func update(done: Int) {
    self.done = min(max(0, done), total)
    guard isShown, !finished else { return }
    let now = clock()
    let elapsed = now - started
    guard elapsed >= Self.delay else { return }
    if let last = lastWritten, now - last < Self.interval { return }
    lastWritten = now
    show(text(elapsed: elapsed, final: false), ending: "")
  }

  /// Ends the line with the final count and a newline, if a line was shown; later calls do
  /// nothing.
  package func finish() {
    guard !finished else { return }
    finished = true
    guard isShown, lastWritten != nil else { return }
    show(text(elapsed: clock() - started, final: true), ending: "\n")
  }

  /// `label: done/total unit, elapsed, about N s left`; when final, `label: done/total unit
  /// in elapsed`.
  func text(elapsed: Double, final: Bool) -> String {
    let count = "\(label): \(done)/\(total) \(unit)"
    if final { return "\(count) in \(Self.seconds(elapsed))" }
    guard done > 0, done < total else { return "\(count), \(Self.seconds(elapsed))" }
    let left = elapsed / Double(done) * Double(total - done)
    return "\(count), \(Self.seconds(elapsed)), about \(Self.seconds(left)) left"
  }

  private func show(_ line: String, ending: String) {
    let pad = String(repeating: " ", count: max(0, width - line.count))
    width = line.count
    write("\r" + line + pad + ending)
  }

  /// `4.1 s` under 10 s, `41 s` under a minute, `3 min 05 s` beyond.
  static func seconds(_ s: Double) -> String {
    let t = s.isFinite ? max(0, s) : 0
    if t < 9.95 { return String(format: "%.1f s", t) }
    let whole = Int(t.rounded())
    if whole < 60 { return "\(whole) s" }
    return String(format: "%d min %02d s", whole / 60, whole % 60)
  }
}
