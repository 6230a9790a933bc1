import Foundation
import SwiftLoaderTestSupport
import Testing

/// Every entry point that takes a count, a capacity, a thread count or a byte budget, fed 0,
/// -1, `Int.max`, `1 << 40` and its limit +- 1, each in a process of its own
/// (`Tests/CountLimitsChild`): a trap (an overflow, a failed allocation of 61 TB) ends that
/// process, not the test runner, and is seen here as the crash it is. Each call must answer
/// with its result or its error, naming the value and the limit, and the process must exit 0.
///
/// The limits are written out as the documentation gives them (`LoaderField.maximumCount` of
/// the seed, `LoaderField.maximumThreads`, a budget's 1 MiB floor), so that this suite also
/// runs against a build that lacks them: on the code before these checks it fails.
@Suite struct CountLimitsTests {
  /// `LoaderField(style: .seed).maximumCount`, and the engine's `maximumLoaders`.
  static let countLimit = 1 << 24
  /// `LoaderField.maximumThreads`.
  static let threadLimit = 256
  /// The smallest byte budget (a smaller one counts as this).
  static let budgetFloor = 1 << 20
  static let hostile = [0, -1, Int.max, 1 << 40]

  /// What one child should print.
  enum Answer: Sendable, CustomStringConvertible {
    /// `ok ...`; with `budget`, the budget it reports.
    case ok(budget: Int? = nil)
    /// A `LoaderField.Error` of this reason, naming the value and `limit`.
    case error(String, limit: Int?)
    /// A `RotationEngine.Error`, naming the value and `limit`.
    case engineError(limit: Int)
    /// Still adding 2 s on: the count was taken.
    case running

    var description: String {
      switch self {
      case .ok(let b): b.map { "ok budget=\($0)" } ?? "ok"
      case .error(let r, let l): "error \(r)" + (l.map { " naming \($0)" } ?? "")
      case .engineError(let l): "engine-error naming \(l)"
      case .running: "running"
      }
    }
  }

  struct Entry: Sendable, CustomTestStringConvertible {
    var name: String
    var cases: [(value: Int, answer: Answer)]
    var testDescription: String { name }
  }

  /// A count of loaders: refused below 0 (`.outOfRange`) and past `room` (`.tooLarge`), the
  /// most the call can take; `taken` is what a count it takes answers.
  static func count(_ name: String, room: Int, taken: Answer) -> Entry {
    let tooMany = Answer.error("tooLarge", limit: countLimit)
    return Entry(
      name: name,
      cases: [
        (0, .ok()), (-1, .error("outOfRange", limit: nil)), (Int.max, tooMany),
        (1 << 40, tooMany), (room - 1, taken), (room + 1, tooMany),
      ])
  }

  /// A thread count: 1...`threadLimit`.
  static func threads(_ name: String, engine: Bool = false) -> Entry {
    let refused: Answer =
      engine ? .engineError(limit: threadLimit) : .error("outOfRange", limit: threadLimit)
    return Entry(
      name: name,
      cases: hostile.map { ($0, refused) } + [
        (threadLimit - 1, .ok()), (threadLimit, .ok()), (threadLimit + 1, refused),
      ])
  }

  /// A byte budget: any value is taken, below the floor as the floor.
  static func budget(_ name: String) -> Entry {
    Entry(
      name: name,
      cases: (hostile + [budgetFloor - 1, budgetFloor + 1]).map {
        ($0, .ok(budget: max($0, budgetFloor)))
      })
  }

  /// A size of a 16 x 16 buffer's description (64-byte rows): refused by the checked
  /// initializer unless it fits the buffer's memory.
  static func bufferSize(_ name: String, fits: Int, limit: Int) -> Entry {
    let refused = Answer.error("buffer", limit: nil)
    return Entry(
      name: name,
      cases: hostile.map { ($0, refused) } + [(fits, .ok()), (limit + 1, refused)])
  }

  static let entries: [Entry] = [
    count("field-capacity", room: countLimit, taken: .ok()),
    count("add-loaders", room: countLimit, taken: .running),
    count("add-loaders-after-one", room: countLimit - 1, taken: .running),
    Entry(
      name: "engine-capacity",
      cases: (hostile + [countLimit - 1, countLimit + 1]).map {
        ($0, (0...countLimit).contains($0) ? .ok() : .engineError(limit: countLimit))
      }),
    threads("field-threads"),
    threads("set-threads"),
    threads("engine-thread-count", engine: true),
    threads("engine-set-thread-count", engine: true),
    budget("cache-budget"),
    budget("renderer-budget"),
    bufferSize("buffer-width", fits: 15, limit: 16),
    bufferSize("buffer-height", fits: 15, limit: 16),
    bufferSize("buffer-row", fits: 64, limit: 64),
  ]

  static let child = BuiltProduct.executable(named: "SwiftLoaderCountLimitsChild")

  @Test(arguments: entries)
  func everyValueAnswersAndTheProcessLives(entry: Entry) throws {
    for (value, answer) in entry.cases {
      let label = "\(entry.name) \(value)"
      let run = try BuiltProduct.run(
        executable: Self.child, [entry.name, String(value)], timeout: .seconds(120))
      let line = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
      // A trap ends the child with a signal (SIGILL for an overflow, SIGABRT for a failed
      // allocation): the call crashed the host instead of answering.
      guard run.reason == .exit, run.status == 0, !run.timedOut else {
        let how = run.reason == .exit ? "exit status" : "signal"
        let killed = run.timedOut ? ", killed for time" : ""
        Issue.record(
          Comment(
            rawValue: "\(label): the process died (\(how) \(run.status)\(killed)),"
              + " expected \(answer): \(run.stderr)"))
        continue
      }
      switch answer {
      case .ok(let budget):
        #expect(line.hasPrefix("ok"), "\(label): \(line), expected \(answer)")
        if let budget { #expect(line == "ok budget=\(budget)", "\(label)") }
      case .running:
        #expect(line == "running", "\(label): \(line), expected the count taken")
      case .error(let reason, let limit):
        #expect(line.hasPrefix("error \(reason): "), "\(label): \(line), expected \(answer)")
        #expect(line.contains(String(value)), "\(label): the value is not named: \(line)")
        if let limit {
          #expect(line.contains(String(limit)), "\(label): the limit is not named: \(line)")
        }
      case .engineError(let limit):
        #expect(line.hasPrefix("engine-error: "), "\(label): \(line), expected \(answer)")
        #expect(line.contains(String(value)), "\(label): the value is not named: \(line)")
        #expect(line.contains(String(limit)), "\(label): the limit is not named: \(line)")
      }
    }
  }
}
