import LoaderCore

/// The baseline for the bench and a second opinion for the tests: the same semantics as
/// `RotationEngine`, written the obvious way, one object per loader with its own schedule (as
/// SwiftUI gives each view its own task). Not for use: it chases a pointer per loader and an
/// array per ring, and visits every loader every step.
package final class NaiveLoaderSimulation {
  /// One loader with its own schedule and per-ring lists of running turns.
  package final class Loader {
    /// The style it was added with.
    package let style: LoaderStyle
    /// `isAnimating` as last set.
    package var isAnimating = false
    var runStart = 0.0
    var nextTrigger = 0
    /// Per ring: turns finished for good, and start times of turns that may still run.
    var finishedTurns: [Int]
    var runningTurns: [[Double]]

    init(style: LoaderStyle) {
      self.style = style
      finishedTurns = Array(repeating: 0, count: style.ringCount)
      runningTurns = Array(repeating: [], count: style.ringCount)
    }

    func nextTriggerTime() -> Double { runStart + style.stagger * Double(nextTrigger) }

    func fire(at t: Double) {
      runningTurns[nextTrigger % style.ringCount].append(t)
      nextTrigger += 1
    }

    func setAnimating(_ on: Bool, at t: Double) {
      guard on != isAnimating else { return }
      if on {
        runStart = t
        nextTrigger = 0
      } else {
        while nextTriggerTime() < t { fire(at: nextTriggerTime()) }
      }
      isAnimating = on
    }

    func step(from start: Double, to end: Double) {
      for i in 0..<style.ringCount {
        let before = runningTurns[i].count
        runningTurns[i].removeAll { $0 + style.turnDuration <= start }
        finishedTurns[i] += before - runningTurns[i].count
      }
      while isAnimating, nextTriggerTime() < end { fire(at: nextTriggerTime()) }
    }

    func angle(ofRing i: Int, at t: Double) -> Double {
      var a = Double(finishedTurns[i]) * style.turnDegrees
      for s in runningTurns[i] {
        a += style.turnDegrees * Swift.min(1, Swift.max(0, (t - s) / style.turnDuration))
      }
      return a
    }
  }

  /// Step length, seconds.
  package let dt: Double
  /// Steps taken.
  package private(set) var tick = 0
  /// Every loader, in the order added (the index is its id).
  package private(set) var loaders: [Loader] = []

  package init(dt: Double) { self.dt = dt }

  /// `Double(tick) * dt`.
  package var time: Double { Double(tick) * dt }
  /// Rings over all loaders.
  package var ringCount: Int { loaders.reduce(0) { $0 + $1.style.ringCount } }

  /// Adds a loader; its index in `loaders` is its id.
  @discardableResult
  package func addLoader(
    style: LoaderStyle = .seed, isAnimating: Bool = false, at time: Double? = nil
  )
    -> Int
  {
    let loader = Loader(style: style)
    loader.setAnimating(isAnimating, at: time ?? self.time)
    loaders.append(loader)
    return loaders.count - 1
  }

  /// `isAnimating = on` for loader `i` at `t` (not before `time`).
  package func setAnimating(_ on: Bool, loader i: Int, at t: Double) {
    loaders[i].setAnimating(on, at: t)
  }

  /// `isAnimating = on` for every loader at `t`.
  package func setAnimatingAll(_ on: Bool, at t: Double) {
    for l in loaders { l.setAnimating(on, at: t) }
  }

  /// Fires every trigger in `[time, time + dt)`.
  package func step() {
    let start = time
    let end = Double(tick + 1) * dt
    for l in loaders { l.step(from: start, to: end) }
    tick += 1
  }

  /// Every ring's angle at `t` (within the last step), loader by loader, reduced to `[0, 360)`.
  package func presentationAngles(at t: Double, into out: inout [Float]) {
    out.removeAll(keepingCapacity: true)
    for l in loaders {
      for i in 0..<l.style.ringCount {
        var a = l.angle(ofRing: i, at: t).truncatingRemainder(dividingBy: 360)
        if a < 0 { a += 360 }
        out.append(Float(a))
      }
    }
  }

  /// Ring `ring` of loader `i` at `t`, unwrapped.
  package func angle(loader i: Int, ring: Int, at t: Double) -> Double {
    loaders[i].angle(ofRing: ring, at: t)
  }
}
