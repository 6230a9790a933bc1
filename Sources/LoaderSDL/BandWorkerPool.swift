import Dispatch
import Foundation

/// Threads kept for a CPU backend's frames: `threads - 1` workers beside the caller, each
/// woken per frame to blend its share of the bands (`BandedFrame.blend(share:of:)`), the
/// caller blending share 0 and waiting for the rest.
///
/// Made once and kept: a frame costs two semaphore operations per worker and allocates
/// nothing (`DispatchQueue.concurrentPerform` allocates on every call). Semaphores also order
/// memory: what the caller wrote before waking a worker, and what a worker wrote before
/// signalling it is done, is seen by the other side.
final class BandWorkerPool {
  /// What the workers share: one semaphore each to wake them, one for "done", the frame.
  private final class State: @unchecked Sendable {
    let wake: [DispatchSemaphore]
    let done = DispatchSemaphore(value: 0)
    /// Written by the caller before it wakes workers, read by them after: never at once.
    var frame: BandedFrame?
    var shares = 0
    var stopping = false

    init(workers: Int) {
      wake = (0..<workers).map { _ in DispatchSemaphore(value: 0) }
    }
  }

  /// Threads a frame can use, the caller's included.
  let threads: Int
  private let state: State

  init(threads: Int) {
    self.threads = max(1, threads)
    state = State(workers: self.threads - 1)
    for w in 0..<(self.threads - 1) {
      let state = state
      let thread = Thread {
        while true {
          state.wake[w].wait()
          if state.stopping { return }
          state.frame?.blend(share: w + 1, of: state.shares)
          state.done.signal()
        }
      }
      thread.name = "spans band worker \(w + 1)"
      thread.start()
    }
  }

  deinit {
    state.stopping = true
    for s in state.wake { s.signal() }
  }

  /// Blends `frame` in `shares` shares (at most `threads`), share 0 on the calling thread;
  /// returns when every share is done.
  func blend(_ frame: BandedFrame, shares requested: Int) {
    let shares = min(max(1, requested), threads)
    state.frame = frame
    state.shares = shares
    for w in 0..<(shares - 1) { state.wake[w].signal() }
    frame.blend(share: 0, of: shares)
    for _ in 0..<(shares - 1) { state.done.wait() }
    state.frame = nil
  }
}
