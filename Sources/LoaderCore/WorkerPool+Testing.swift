import Foundation
import Synchronization

/// The tests' view of who did a call's work: a setting of several threads must show pieces
/// run on threads other than the caller's, which equal pixels alone cannot tell apart from
/// one thread doing everything.
extension WorkerPool {
  /// Recordings in progress: while none is, a call pays one relaxed load for them.
  static let recordings = Atomic<Int>(0)
  /// Per recording thread, pieces of its calls that other threads ran.
  private static let helpedPieces = Mutex<[ObjectIdentifier: Int]>([:])

  /// Adds `pieces` to the calling thread's count, if it is recording.
  static func note(_ pieces: Int) {
    let me = ObjectIdentifier(Thread.current)
    helpedPieces.withLock { counts in
      if let n = counts[me] { counts[me] = n + pieces }
    }
  }

  /// Runs `body` on this thread and returns, with its result, how many pieces of the pool
  /// calls this thread made meanwhile other threads ran. Calls made by other threads (other
  /// tests) are not counted.
  package static func countingPiecesRunElsewhere<R, E: Error>(
    _ body: () throws(E) -> R
  ) throws(E) -> (result: R, pieces: Int) {
    let me = ObjectIdentifier(Thread.current)
    helpedPieces.withLock { $0[me] = 0 }
    recordings.add(1, ordering: .relaxed)
    defer { recordings.subtract(1, ordering: .relaxed) }
    let result: R
    do {
      result = try body()
    } catch {
      helpedPieces.withLock { _ = $0.removeValue(forKey: me) }
      throw error
    }
    let pieces = helpedPieces.withLock { $0.removeValue(forKey: me) ?? 0 }
    return (result, pieces)
  }
}
