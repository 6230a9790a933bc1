import Dispatch
import Foundation
import Synchronization
import Testing

@testable import LoaderCore

/// The one pool of threads the engine's passes and the `spans` blending share.
@Suite struct WorkerPoolTests {
  /// Runs a job over `0..<count` on `pool` and returns how often each index was visited.
  static func visits(
    _ pool: WorkerPool, count: Int, pieces: Int, alignment: Int = 1, workers: Int
  ) -> [Int32] {
    let visits = UnsafeMutableBufferPointer<Int32>.allocate(capacity: Swift.max(1, count))
    visits.initialize(repeating: 0)
    defer { visits.deallocate() }
    pool.forEachRange(
      count, pieces: pieces, alignment: alignment, workers: workers, CountVisits(visits: visits))
    return Array(visits.prefix(count))
  }

  @Test func everyIndexRunsOnceCallAfterCall() {
    // More threads than this machine has cores: workers spin, park and are woken in turn.
    let pool = WorkerPool(threads: 4)
    for call in 0..<3000 {
      let count = [0, 1, 2, 3, 17, 64, 1000][call % 7]
      let pieces = [1, 2, 5, 8, 33][call % 5]
      let workers = [1, 2, 3, 4, 9][call % 3 + call % 2]
      let alignment = [1, 16][call % 2]
      let v = Self.visits(
        pool, count: count, pieces: pieces, alignment: alignment, workers: workers)
      guard v.allSatisfy({ $0 == 1 }) else {
        Issue.record("call \(call): \(count) in \(pieces) pieces on \(workers) workers: \(v)")
        return
      }
    }
  }

  /// The shared pool's entry: every index once, at one worker or one piece on the calling
  /// thread (where it does not reach `shared`) and on several.
  @Test func theSharedEntryVisitsEveryIndexOnce() {
    for (count, pieces, workers) in [(0, 1, 1), (1000, 8, 1), (1000, 1, 4), (1000, 8, 2)] {
      let visits = UnsafeMutableBufferPointer<Int32>.allocate(capacity: Swift.max(1, count))
      visits.initialize(repeating: 0)
      defer { visits.deallocate() }
      WorkerPool.forEachRange(count, pieces: pieces, workers: workers, CountVisits(visits: visits))
      #expect(
        visits.prefix(count).allSatisfy { $0 == 1 },
        "\(count) in \(pieces) pieces on \(workers) workers")
    }
  }

  @Test func piecesCoverTheRangeInOrderOnAlignedStarts() {
    for count in [0, 1, 15, 16, 17, 100, 65_537] {
      for pieces in 1...9 {
        for alignment in [1, 3, 16] {
          var next = 0
          for p in 0..<pieces {
            let r = WorkerPool.piece(p, of: pieces, count: count, alignment: alignment)
            #expect(r.lowerBound == next && r.lowerBound <= r.upperBound)
            #expect(r.lowerBound % alignment == 0 || r.lowerBound == count)
            next = r.upperBound
          }
          #expect(next == count, "count \(count) pieces \(pieces) alignment \(alignment)")
        }
      }
    }
  }

  /// Two pieces that each wait for the other to start can only finish on two threads; on one
  /// they time out. Checked with the workers awake (just used) and parked (after a pause).
  @Test(arguments: [false, true]) func piecesRunOnTwoThreadsAtOnce(afterPause: Bool) {
    let pool = WorkerPool(threads: 2)
    _ = Self.visits(pool, count: 2, pieces: 2, workers: 2)
    if afterPause { Thread.sleep(forTimeInterval: 0.2) }
    let meeting = Meeting()
    pool.forEachRange(2, pieces: 2, workers: 2, meeting)
    #expect(meeting.met.withLock { $0 } == [true, true])
  }

  @Test func aCallFromInsideAJobRunsOnItsOwnThread() {
    let pool = WorkerPool(threads: 3)
    let nested = Nested(pool: pool)
    pool.forEachRange(4, pieces: 4, workers: 3, nested)
    #expect(nested.visits.withLock { $0 }.allSatisfy { $0 == 1 })
  }

  @Test func callsFromSeveralThreadsAtOnceEachFinish() {
    let pool = WorkerPool(threads: 3)
    let bad = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for call in 0..<300 {
        let v = Self.visits(pool, count: 1 + call % 40, pieces: 6, workers: 3)
        if !v.allSatisfy({ $0 == 1 }) { bad.add(1, ordering: .relaxed) }
      }
    }
    #expect(bad.load(ordering: .relaxed) == 0)
  }

  /// A call that finds the pool busy with another thread's call does not wait for it: it
  /// runs its pieces on its own thread and returns while the other call is still held up (two
  /// fields drawn on two threads: neither blocks the other).
  @Test func aCallWhileThePoolIsBusyDoesNotWaitForIt() {
    let pool = WorkerPool(threads: 2)
    let held = Holding()
    let other = Thread { pool.forEachRange(2, pieces: 2, workers: 2, held) }
    other.start()
    #expect(held.started.wait(timeout: .now() + 10) == .success, "the first call never began")
    let began = DispatchTime.now()
    let v = Self.visits(pool, count: 100, pieces: 4, workers: 2)
    let waited = Double(DispatchTime.now().uptimeNanoseconds - began.uptimeNanoseconds) / 1e9
    held.release.signal()
    held.release.signal()
    #expect(v.allSatisfy { $0 == 1 })
    #expect(waited < 5, "the second call waited \(waited) s for the first")
    #expect(held.finished.wait(timeout: .now() + 10) == .success)
  }

  /// A pool that goes stops its threads: dropping 40 pools of 4 threads leaves no 120 threads.
  @Test func aPoolThatGoesStopsItsThreads() throws {
    func threads() throws -> Int {
      try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count
    }
    let before = try threads()
    for _ in 0..<40 {
      let pool = WorkerPool(threads: 4)
      _ = Self.visits(pool, count: 8, pieces: 8, workers: 4)
    }
    var after = try threads()
    let deadline = Date().addingTimeInterval(10)
    while after > before + 40, Date() < deadline {
      Thread.sleep(forTimeInterval: 0.05)
      after = try threads()
    }
    // Other suites make and end threads meanwhile: the slack is a third of what would leak.
    #expect(after <= before + 40, "threads: \(before) before, \(after) after")
  }

  @Test func theSharedPoolHasAThreadPerCore() {
    #expect(WorkerPool.shared.threads == Swift.min(255, RotationEngine.availableCores))
    #expect(Self.visits(.shared, count: 100, pieces: 64, workers: 64).allSatisfy { $0 == 1 })
  }
}

/// Each piece says it started, then waits for `release` (up to 10 s); the last to end says so.
private final class Holding: RangeJob, Sendable {
  let started = DispatchSemaphore(value: 0)
  let release = DispatchSemaphore(value: 0)
  let finished = DispatchSemaphore(value: 0)
  let ended = Atomic<Int>(0)

  func run(_ range: Range<Int>) {
    for _ in range {
      started.signal()
      _ = release.wait(timeout: .now() + 10)
      if ended.add(1, ordering: .sequentiallyConsistent).newValue == 2 { finished.signal() }
    }
  }
}

/// Pieces 0 and 1 each say they started and wait up to 10 s for the other.
private final class Meeting: RangeJob, Sendable {
  let started = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
  let met = Locked([false, false])

  func run(_ range: Range<Int>) {
    for p in range {
      started[p].signal()
      let other = started[1 - p].wait(timeout: .now() + 10) == .success
      met.withLock { $0[p] = other }
    }
  }
}

/// Each of its pieces runs another call on the same pool, of 50 indices.
private final class Nested: RangeJob, Sendable {
  let pool: WorkerPool
  let visits = Locked([Int](repeating: 0, count: 4 * 50))

  init(pool: WorkerPool) { self.pool = pool }

  func run(_ range: Range<Int>) {
    for p in range {
      let inner = UnsafeMutableBufferPointer<Int32>.allocate(capacity: 50)
      inner.initialize(repeating: 0)
      defer { inner.deallocate() }
      pool.forEachRange(50, pieces: 5, workers: 3, CountVisits(visits: inner))
      visits.withLock { v in
        for i in 0..<50 { v[p * 50 + i] += Int(inner[i]) }
      }
    }
  }
}

/// A value behind an `NSLock`, for the jobs above to share between the pool's threads.
/// Not `Synchronization.Mutex`: on Linux a contended `Mutex` is handed over by the kernel
/// (a priority-inheriting futex), which ThreadSanitizer cannot see, so `make check-threads`
/// would report the very accesses it guards.
final class Locked<Value>: @unchecked Sendable {
  // Safe: `value` is only touched inside `withLock`, under `lock`.
  private var value: Value
  private let lock = NSLock()

  init(_ value: Value) { self.value = value }

  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
