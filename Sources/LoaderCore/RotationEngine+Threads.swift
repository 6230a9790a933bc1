import Foundation

extension RotationEngine {
  /// Cores this process may run on, at most `maximumThreadCount`: the default `threadCount`.
  /// Read once, and only by what runs on several threads (Foundation reads the cgroup's CPU
  /// quota for it, paging in much code): a `LoaderView` never asks.
  package static var availableCores: Int { cores }
  private static let cores = Swift.min(
    ProcessInfo.processInfo.activeProcessorCount, maximumThreadCount)

  /// The most threads a pass may be given (`LoaderField.maximumThreads`). Passes split into
  /// pieces of at least `minimumRingsPerThread` rings, and the pool has one thread fewer than
  /// the cores: a larger count changes nothing but the number a caller mistyped.
  package static let maximumThreadCount = 256

  package static var threadCountRange: ClosedRange<Int> { 1...maximumThreadCount }

  /// Sets the threads the per-ring passes may use (1...`maximumThreadCount`; 1 runs them on
  /// the calling thread).
  ///
  /// The passes are element-wise (ring `i`'s angle reads only ring `i`'s inputs), so they
  /// split into contiguous ring ranges with no lock on the output, each written by one worker.
  /// Ranges start on multiples of `chunkAlignment`, so every ring takes the same vector or
  /// scalar path as on one thread and the output is bit-identical. A pass uses
  /// ```
  /// workers = min(threadCount, max(1, rings / minimumRingsPerThread))
  /// ```
  /// so a small engine never pays for waking a worker. `step()` fires a bucket's common
  /// triggers on the same threads past `minimumTriggersPerThread` per worker; moving entries
  /// between buckets stays on the calling thread.
  package mutating func setThreadCount(_ n: Int) throws(Error) {
    guard Self.threadCountRange.contains(n) else { throw .invalidThreadCount(n) }
    threadCount = n
  }

  /// Rings per worker below which another worker costs more than it saves: waking a parked
  /// worker costs about a presentation pass over this many rings (Benchmarks/README.md).
  package static let minimumRingsPerThread = 1 << 15

  /// Ranges start at multiples of this many rings: 16 `Float`s, one vector iteration of the
  /// full-turn pass and one 64-byte line of each `CacheAlignedArray`, so no two workers
  /// write one line of the engine's arrays.
  static let chunkAlignment = 16

  /// How many workers a pass over `rings` rings uses.
  func workers(forRings rings: Int) -> Int {
    Swift.max(1, Swift.min(threadCount, rings / Self.minimumRingsPerThread))
  }

  /// Runs `job` over the engine's `rings` rings in `workers(forRings:)` ranges.
  func forEachRingRange<Job: RangeJob>(_ rings: Int, _ job: Job) {
    Self.forEachRange(rings, workers: workers(forRings: rings), job)
  }

  /// Pieces per worker a pass is cut into. Workers claim pieces one at a time, so one that
  /// the system schedules late (a busy machine) holds up the pass by one piece, not by its
  /// whole share.
  static let piecesPerWorker = 8

  /// Runs `job` over `0..<count` on `workers` threads of `WorkerPool.shared` and returns when
  /// all of it is done; one worker runs it on the calling thread. The range is cut into
  /// `piecesPerWorker * workers` contiguous pieces that start on `chunkAlignment`; `job` must
  /// write only inside the piece it is given. `package` so the bench splits its copies
  /// exactly as the engine's passes do.
  package static func forEachRange<Job: RangeJob>(_ count: Int, workers: Int, _ job: Job) {
    WorkerPool.forEachRange(
      count, pieces: workers * piecesPerWorker, alignment: chunkAlignment, workers: workers, job)
  }
}
