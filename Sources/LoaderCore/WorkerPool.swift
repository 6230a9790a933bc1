import Dispatch
import Foundation
import Synchronization

/// Work a `WorkerPool` call splits: `run(_:)` is called once for each piece of a range, from
/// several threads at once, each with a different piece. It must write only inside its piece.
///
/// A struct, not a closure: the pool hands workers the job's address and type, which
/// allocates nothing, where an escaping closure is boxed on every call. A job of raw pointers
/// is `@unchecked Sendable` and says why its pieces cannot race (each writes only inside its
/// range; `forEachRange` returns only after every piece ran, so the memory outlives the work).
package protocol RangeJob: Sendable {
  /// Does the work of indices `range`.
  func run(_ range: Range<Int>)
}

extension RangeJob {
  /// `run(range)` on the job at `address` (a worker's way in: it knows the job's type only
  /// as `any RangeJob.Type`).
  fileprivate static func run(_ range: Range<Int>, jobAt address: UnsafeRawPointer) {
    address.assumingMemoryBound(to: Self.self).pointee.run(range)
  }
}

/// The threads the library's CPU work spreads over: the engine's passes over many rings and the
/// `spans` backend's blending. One pool for the process (`shared`), its threads made on the
/// first call that wants more than one and kept.
///
/// `forEachRange(_:pieces:alignment:workers:_:)` cuts a range into contiguous pieces and hands
/// them to up to `workers` threads, the caller's included, through one shared counter: a
/// thread the system schedules late holds a call up by one piece, not by a fixed share. A call
/// allocates nothing (Dispatch's `concurrentPerform` allocates a few blocks on every call).
///
/// After a call a worker spins for `spinLimit` polls before it parks on its semaphore, so the
/// passes of one frame (the engine's, then the blending) find it awake. The caller waits for
/// the last piece the same way, and only for pieces some thread has claimed: a worker that
/// wakes after the others took every piece holds nothing up.
///
/// One call at a time: a call made while another runs (on another thread, or from inside a
/// job) runs all its pieces on its own thread, with the same result.
package final class WorkerPool: Sendable {
  /// The process's pool: one thread fewer than the cores (the caller is the last).
  package static let shared = WorkerPool(threads: RotationEngine.availableCores)

  /// Polls of a flag a waiting thread makes before it parks: tens of microseconds, about the
  /// gap between one frame's passes.
  static let spinLimit = 1 << 14

  /// Threads a call can use, the caller's included.
  package var threads: Int { crew.threads }

  /// What the workers share; they hold it, not the pool, so the pool can go and stop them.
  private let crew: Crew

  /// A pool of `threads` threads, the caller's included (at most 255).
  package init(threads: Int) {
    crew = Crew(threads: Swift.min(255, Swift.max(1, threads)))
  }

  /// Stops the workers (of a pool other than `shared`, as the tests make).
  deinit { crew.stop() }

  /// Runs `job` over `0..<count` cut into `pieces` (at most 65535) contiguous ranges, each
  /// starting on a multiple of `alignment` (`piece(_:of:count:alignment:)`; some may be
  /// empty), on up to `workers` threads (the caller's included, at most `threads`), and
  /// returns when every piece is done. With one worker or one piece it runs `job` over the
  /// whole range on the calling thread.
  package func forEachRange<Job: RangeJob>(
    _ count: Int, pieces: Int, alignment: Int = 1, workers: Int, _ job: Job
  ) {
    guard count > 0 else { return }
    let pieces = Swift.min(Swift.max(1, pieces), Crew.maximumPieces)
    guard workers > 1, pieces > 1 else { return job.run(0..<count) }
    let helped = withUnsafePointer(to: job) { address in
      crew.run(
        Crew.Call(
          kind: Job.self, address: UnsafeRawPointer(address), count: count, pieces: pieces,
          alignment: Swift.max(1, alignment)),
        workers: workers)
    }
    if helped > 0, Self.recordings.load(ordering: .relaxed) > 0 { Self.note(helped) }
  }

  /// `shared.forEachRange(...)`, where a call of one worker or one piece runs on the calling
  /// thread without reaching `shared`: a program that never needs a second thread (a
  /// `LoaderView`'s five rings) never makes the pool nor reads the core count that sizes it
  /// (Foundation's cgroup quota reading pages in much code).
  package static func forEachRange<Job: RangeJob>(
    _ count: Int, pieces: Int, alignment: Int = 1, workers: Int, _ job: Job
  ) {
    guard workers > 1, pieces > 1 else {
      if count > 0 { job.run(0..<count) }
      return
    }
    shared.forEachRange(count, pieces: pieces, alignment: alignment, workers: workers, job)
  }

  /// Piece `p` of `0..<count` cut into `pieces` that start on multiples of `alignment`: the
  /// range in units of `alignment` indices (the last unit may be short) split as evenly as
  /// whole units allow.
  package static func piece(_ p: Int, of pieces: Int, count: Int, alignment: Int) -> Range<Int> {
    let units = (count + alignment - 1) / alignment
    func start(_ k: Int) -> Int { Swift.min(count, units * k / pieces * alignment) }
    return start(p)..<start(p + 1)
  }
}

/// A `WorkerPool`'s threads and the call they work on.
///
/// `@unchecked Sendable` is safe because its three plain variables below are each written by
/// one thread at a time and published through an atomic before any other thread reads them:
/// see each one's comment. Everything else is `let`, atomics, or `Sendable`.
private final class Crew: @unchecked Sendable {
  let threads: Int

  /// The current call's number (32 bits) above a byte of how many threads it uses:
  /// `number << 8 | threads`. A worker learns from this one value whether it takes part.
  private let published = Atomic<Int>(0)
  /// The current call's number (bits 32 and up), its pieces (bits 16 to 31) and the next
  /// piece to claim (bits 0 to 15). A worker claims a piece by incrementing it, only while the
  /// number is the call it woke for: one that wakes late, after its call ended, claims nothing
  /// of the next.
  private let claims = Atomic<Int>(0)
  /// Pieces of the current call done.
  private let done = Atomic<Int>(0)
  /// Set while a call runs.
  private let busy = Atomic<Bool>(false)
  private let sleeping: [ParkingSpot]
  private let caller = ParkingSpot()
  private let started = Atomic<Bool>(false)
  private let startLock = Mutex<Void>(())

  /// Most pieces a call can have (16 bits of `claims`).
  static let maximumPieces = 0xFFFF

  /// A call's job: where it is and its type, and how to cut its range.
  struct Call {
    let kind: any RangeJob.Type
    let address: UnsafeRawPointer
    let count: Int
    let pieces: Int
    let alignment: Int

    func run(piece p: Int) {
      kind.run(
        WorkerPool.piece(p, of: pieces, count: count, alignment: alignment), jobAt: address)
    }
  }

  // Safe: written only by the thread holding `busy` (one caller at a time), before it
  // publishes the call with a releasing store of `claims`; read by a worker only after its
  // acquiring claim of a piece of that call succeeded, and the caller neither returns nor
  // writes it again until every piece is done.
  private nonisolated(unsafe) var call: Call?
  // Safe: written once, by `stop()` in the pool's deinit (no call can be running then),
  // before the sequentially consistent store of `published` that the workers read before it.
  private nonisolated(unsafe) var stopping = false
  // Safe: read and written only by the thread holding `busy`, or by `stop()` when no call can
  // run; the workers learn the number from `published` and `claims`, never from here.
  private nonisolated(unsafe) var callNumber = 0

  init(threads: Int) {
    self.threads = threads
    sleeping = (1..<threads).map { _ in ParkingSpot() }
  }

  /// Ends the workers' loops.
  func stop() {
    guard started.load(ordering: .acquiring) else { return }
    stopping = true
    publish(threads: threads)
  }

  /// Runs `call` on up to `workers` threads, the caller's included, and returns how many of
  /// its pieces other threads ran.
  func run(_ call: Call, workers: Int) -> Int {
    let used = Swift.min(workers, threads, call.pieces)
    guard used > 1,
      busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
    else {
      for p in 0..<call.pieces { call.run(piece: p) }
      return 0
    }
    defer { busy.store(false, ordering: .releasing) }
    startWorkers()
    self.call = call
    done.store(0, ordering: .relaxed)
    let number = publish(threads: used, pieces: call.pieces)
    let own = claimPieces(ofCall: number)
    caller.wait { self.done.load(ordering: .sequentiallyConsistent) == call.pieces }
    self.call = nil
    return call.pieces - own
  }

  /// Makes the worker threads on the first call that uses them.
  private func startWorkers() {
    guard !started.load(ordering: .acquiring) else { return }
    startLock.withLock { _ in
      guard !started.load(ordering: .acquiring) else { return }
      for w in 1..<threads {
        let thread = Thread { self.work(as: w) }
        thread.name = "SwiftLoader worker \(w)"
        thread.start()
      }
      started.store(true, ordering: .releasing)
    }
  }

  /// Starts call number `callNumber + 1` of `pieces` pieces on threads `1..<used`, wakes
  /// those that are parked, and returns its number.
  @discardableResult
  private func publish(threads used: Int, pieces: Int = 0) -> Int {
    callNumber = (callNumber + 1) & 0xFFFF_FFFF
    claims.store(callNumber << 32 | pieces << 16, ordering: .releasing)
    published.store(callNumber << 8 | used, ordering: .sequentiallyConsistent)
    for w in 1..<used { sleeping[w - 1].wake() }
    return callNumber
  }

  /// Claims and runs pieces of call `number` until none is left, and returns how many it ran;
  /// the thread that finishes the last piece wakes the caller.
  @discardableResult
  private func claimPieces(ofCall number: Int) -> Int {
    var ran = 0
    var c = claims.load(ordering: .acquiring)
    while c >> 32 == number {
      let p = c & 0xFFFF
      let pieces = c >> 16 & 0xFFFF
      guard p < pieces else { break }
      let (claimed, now) = claims.compareExchange(
        expected: c, desired: c + 1, ordering: .acquiringAndReleasing)
      guard claimed else {
        c = now
        continue
      }
      call?.run(piece: p)
      ran += 1
      if done.add(1, ordering: .sequentiallyConsistent).newValue == pieces { caller.wake() }
      c = claims.load(ordering: .acquiring)
    }
    return ran
  }

  /// Worker `w`'s loop: wait for a call it takes part in, claim pieces of it.
  private func work(as w: Int) {
    var seen = 0
    let spot = sleeping[w - 1]
    while true {
      var value = published.load(ordering: .acquiring)
      if value == seen {
        spot.wait { self.published.load(ordering: .sequentiallyConsistent) != seen }
        value = published.load(ordering: .acquiring)
      }
      seen = value
      guard w < value & 0xFF else { continue }
      if stopping { return }
      claimPieces(ofCall: value >> 8)
    }
  }
}

/// Where one thread waits: it polls its condition `WorkerPool.spinLimit` times, then parks
/// on a semaphore until another thread that made the condition true calls `wake()`.
///
/// The flag says the waiter may be parked. The waker clears it and, if it was set, signals;
/// the waiter sets it, checks its condition once more, and parks only if still false. If the
/// condition turned true meanwhile and the waker already cleared the flag, its signal is on
/// the way and the waiter takes it, so no signal is left over for the next wait.
private final class ParkingSpot: Sendable {
  private let parked = Atomic<Bool>(false)
  private let semaphore = DispatchSemaphore(value: 0)

  func wait(until ready: () -> Bool) {
    var polls = 0
    while !ready() {
      if polls < WorkerPool.spinLimit {
        polls += 1
        continue
      }
      parked.store(true, ordering: .sequentiallyConsistent)
      if ready() {
        if !parked.exchange(false, ordering: .sequentiallyConsistent) { semaphore.wait() }
        return
      }
      semaphore.wait()
      polls = 0
    }
  }

  func wake() {
    if parked.exchange(false, ordering: .sequentiallyConsistent) { semaphore.signal() }
  }
}
