extension RotationEngine {
  /// The latest time, seconds, the engine can be advanced to or take a toggle at:
  /// ```
  /// maximumTime = min(2^50 * dt, 2^52 * LoaderStyle.minimumDuration)
  /// ```
  /// The first bound keeps the tick and every `t / dt` far inside `Int`; the second keeps
  /// every trigger index below `2^52`, where `Double(j)` is exact and `runStart + stagger * j`
  /// grows with `j`.
  package var maximumTime: Double { Swift.min(0x1p50 * dt, 0x1p52 * LoaderStyle.minimumDuration) }

  /// Moves the engine forward until `tau` is presentable: afterwards `time` is the first step
  /// boundary at or after `tau`, exactly where calling `step()` while `time < tau` leaves it,
  /// with the same angles (to `Float` rounding). Nothing happens when `tau <= time`.
  ///
  /// A gap of at most `jumpThreshold` steps is stepped; a longer one is one jump, a pass over
  /// the loader slots and their rings on the calling thread, whatever the gap:
  /// ```
  /// O(slots + rings + wheelSize + sum over running loaders of K)
  /// K = ringCount                                      (whole 360-degree turns that end
  ///                                                     before their ring comes round)
  /// K = ringCount + (turnDuration + dt) / stagger + 2  (any other style)
  /// ```
  /// `K` is the triggers whose effect is still visible at `tau`: each ring's latest, and the
  /// earlier ones whose turns still run (a running schedule is periodic, so the trigger count
  /// comes in closed form). The epoch moves to the new time first, as after stepping.
  ///
  /// - Throws: `Error.timeNotFinite` for NaN or an infinity, `Error.timeOutOfRange` past
  ///   `maximumTime`; the engine is unchanged then.
  package mutating func advance(to tau: Double) throws(Error) {
    try checkAdvanceTime(tau)
    guard tau > time else { return }
    var k = tickContaining(tau)
    if Double(k) * dt < tau { k += 1 }
    advance(toTick: k)
  }

  /// Moves the engine forward to the step that contains `tau`, without passing it: afterwards
  /// `time <= tau < time + dt`, so a toggle at `tau` lands at its exact time (the engine takes
  /// toggles at or after `time`). Nothing happens when `tau < time + dt` already. Same cost
  /// and errors as `advance(to:)`.
  package mutating func advance(toStepContaining tau: Double) throws(Error) {
    try checkAdvanceTime(tau)
    guard tau > time else { return }
    advance(toTick: tickContaining(tau))
  }

  func checkAdvanceTime(_ tau: Double) throws(Error) {
    guard tau.isFinite else { throw .timeNotFinite(tau) }
    guard tau <= maximumTime else { throw .timeOutOfRange(tau) }
  }

  /// Steps up to `jumpThreshold` ticks, jumps past that.
  mutating func advance(toTick k: Int) {
    let gap = k - tick
    guard gap > 0 else { return }
    if gap <= jumpThreshold { step(count: gap) } else { jump(toTick: k) }
  }

  /// Gaps up to this many steps are stepped: that fires at most a lap of the wheel, about
  /// what a jump's pass over every loader costs.
  var jumpThreshold: Int { wheel.size }

  /// Fires every trigger before `Double(k) * dt` whose effect is visible from the step that
  /// ends there, and sets `tick = k` (`k > tick`). See `advance(to:)`.
  ///
  /// The wheel is rebuilt rather than walked: every running loader's cursor follows from its
  /// `LoaderRun` in closed form, so one pass in slot order touches records and rings in
  /// address order (walking the buckets would miss the cache once per loader). Entries of
  /// ended runs are not made again; rings of removed loaders hold `neverStarted`, which no
  /// shift changes. The pass is memory-bound and stays on the calling thread: a threaded
  /// version, which reads the records twice, measured slower (Benchmarks/README.md).
  mutating func jump(toTick k: Int) {
    precondition(k > tick, "a jump goes forward")
    let end = Double(k) * dt
    // The presentable window after the jump starts here: overlapping turns that end by it
    // are dropped and none is added, as the steps up to `k` would.
    let windowStart = Double(k - 1) * dt
    pruneOverlaps(finishedBy: windowStart)
    let pass = JumpPass(
      now: time, end: end, shift: Float(end - epoch), runs: loaderRuns.pointer,
      tags: runTags.pointer, relativeStart: relativeStart.mutablePointer(), dt: dt,
      inverseDt: inverseDt, wheelMask: wheelMask)
    epoch = end
    let wheel = uniqueWheel()
    for b in 0..<wheel.size {
      wheel.counts[b] = 0
      endedRuns[b] = 0
    }
    var divisor = Divisor(1)
    for slot in 0..<loaderRuns.count {
      let run = pass.runs[slot]
      guard run.isLive else { continue }
      switch pass.kind(of: run, tag: pass.tags[slot]) {
      case .still:
        pass.shiftRings(of: run)
      case .common(let due):
        let ring = divisor.remainder(due, of: Int(run.ringCount))
        pass.writeRings(of: run, due: due, ring: ring)
        let (entry, bucket) = pass.entry(of: run, due: due, ring: ring, slot: slot)
        wheel.append(entry, to: bucket)
      case .general(let due):
        pass.shiftRings(of: run)
        jumpGeneral(pass, wheel: wheel, slot: slot, due: due, windowStart: windowStart)
      }
    }
    tick = k
  }

  /// A running loader that is not common (see `JumpPass.Kind`), its rings already shifted:
  /// its cursor moved past its `due` triggers before the jump's end, firing those still
  /// visible, and its entry appended to `wheel` (the engine's, made unique by the jump: a
  /// second `uniqueWheel()` here would copy it, as the jump holds a reference).
  mutating func jumpGeneral(
    _ pass: JumpPass, wheel: TimingWheel, slot: Int, due: Int, windowStart: Double
  ) {
    let run = pass.runs[slot]
    let fired = run.triggers(before: pass.now)
    var c = run.cursor(fired: fired, slot: slot, tag: pass.tags[slot])
    if due > fired {
      var rings = ringPointers()
      jumpCursor(&c, run, due: due, end: pass.end, windowStart: windowStart, rings: &rings)
    }
    wheel.append(c, to: tickContaining(c.triggerTime(c.next)) & wheelMask)
  }

  /// What a jump reads and writes per loader, as raw pointers its passes share (each loader
  /// writes only its own rings).
  struct JumpPass {
    /// The engine's time before the jump: triggers before it have fired.
    let now: Double
    /// The jump's end, the new time and epoch.
    let end: Double
    /// `Float(end - epoch)`: what every ring's start moves by.
    let shift: Float
    let runs: UnsafePointer<LoaderRun>
    let tags: UnsafePointer<UInt32>
    let relativeStart: UnsafeMutablePointer<Float>
    let dt: Double
    let inverseDt: Double
    let wheelMask: Int

    enum Kind {
      /// Not running: its rings only move with the epoch.
      case still
      /// A simple run (turns end before their ring comes round: no overlap; 360 degrees: no
      /// base) past its first cycle, whose last `ringCount` triggers before `end` have not
      /// fired yet: they are all it needs, one `Float` per ring, every ring written. `due`
      /// triggers of the run come before `end`.
      case common(due: Int)
      /// Any other running loader (`jumpGeneral`).
      case general(due: Int)
    }

    @inline(__always)
    func kind(of run: LoaderRun, tag: UInt32) -> Kind {
      guard run.isAnimating else { return .still }
      let due = RotationEngine.triggers(runStart: run.runStart, stagger: run.stagger, before: end)
      let n = Int(run.ringCount)
      if tag & 1 == 1, due >= 2 * n, run.triggerTime(due - n) >= now { return .common(due: due) }
      return .general(due: due)
    }

    @inline(__always)
    func shiftRings(of run: LoaderRun) {
      let first = Int(run.firstRing)
      for r in first..<(first + Int(run.ringCount)) { relativeStart[r] -= shift }
    }

    /// A common run's last `ringCount` triggers before `end`, `due - n ..< due`; the first
    /// turns ring `ring` (`due mod n`), as `fireCommon` writes them.
    @inline(__always)
    func writeRings(of run: LoaderRun, due: Int, ring: Int) {
      let n = Int(run.ringCount)
      let rings = relativeStart + Int(run.firstRing)
      var r = ring
      for j in (due - n)..<due {
        rings[r] = Float(run.triggerTime(j) - end)
        r = r + 1 == n ? 0 : r + 1
      }
    }

    /// The bucket of a common run's next trigger, `due`.
    @inline(__always)
    func bucket(of run: LoaderRun, due: Int) -> Int {
      RotationEngine.tick(containing: run.triggerTime(due), dt: dt, inverseDt: inverseDt)
        & wheelMask
    }

    /// A common run's new entry (next trigger `due`, on ring `ring`) and its bucket.
    @inline(__always)
    func entry(of run: LoaderRun, due: Int, ring: Int, slot: Int) -> (WheelEntry, Int) {
      (run.cursor(fired: due, ring: ring, slot: slot, tag: tags[slot]), bucket(of: run, due: due))
    }
  }

  /// Any running loader's cursor, with `due` triggers before `end`, moved there, firing those
  /// still visible (see `advance(to:)`): the last `ringCount`, and those that start a turn
  /// which may overlap a later one running at `windowStart` or after.
  mutating func jumpCursor(
    _ c: inout WheelEntry, _ run: LoaderRun, due: Int, end: Double, windowStart: Double,
    rings: inout RingPointers
  ) {
    let n = Int(c.ringCount)
    // A skipped trigger `q` (index < due - visible) starts at or before
    // `end - stagger * (visible - n + 1)`, so with this many its ring's previous turn (which
    // started no later than it) ends by `windowStart`: no overlap to record, and a later
    // trigger of the same ring, still fired, sets the ring's start and base.
    let turns = ((run.turnDuration + dt) / c.stagger).rounded(.up)
    let visible = n + 2 + Int(Swift.min(turns, 0x1p52))
    c.skip(to: Swift.max(c.next, due - visible))
    Self.fire(&c, run, before: end, windowStart: windowStart, rings: &rings, overlaps: &overlaps)
  }

  /// Triggers of a run from `runStart` every `stagger` before `horizon`: the least `j >= 0`
  /// with `runStart + stagger * j >= horizon`, by the same products the step fires with
  /// (they grow with `j`, so the fired triggers are always a prefix). O(1): the quotient is
  /// off by at most a unit or two.
  @inline(__always)
  static func triggers(runStart: Double, stagger: Double, before horizon: Double) -> Int {
    func time(_ j: Int) -> Double { runStart + stagger * Double(j) }
    // Truncated, not rounded up (a libm call): the loops below make it exact either way.
    let estimate = (horizon - runStart) / stagger
    var j = estimate > 0 ? Int(Swift.min(estimate, 0x1p52)) : 0
    while j > 0, time(j - 1) >= horizon { j -= 1 }
    while time(j) < horizon { j += 1 }
    return j
  }

  /// `j mod n` for `0 <= j < 2^53` by a `Double` reciprocal made once per divisor (loaders
  /// of one style share it): a multiply and two compares where an integer division takes
  /// tens of cycles. The quotient is off by at most one either way, which the compares fix.
  struct Divisor {
    var n: Int
    var inverse: Double

    init(_ n: Int) {
      self.n = n
      inverse = 1 / Double(n)
    }

    /// `j mod n`, the reciprocal made anew when `n` changes.
    @inline(__always)
    mutating func remainder(_ j: Int, of n: Int) -> Int {
      if n != self.n { self = Divisor(n) }
      var r = j - n * Int(Double(j) * inverse)
      if r < 0 { r += n }
      if r >= n { r -= n }
      return r
    }
  }
}

extension RotationEngine.LoaderRun {
  /// The cursor with `fired` triggers so far, whose next ring (`fired mod ringCount`) is
  /// known: `ring`.
  @inline(__always)
  func cursor(fired: Int, ring: Int, slot: Int, tag: UInt32) -> RotationEngine.WheelEntry {
    RotationEngine.WheelEntry(
      runStart: runStart, stagger: stagger, next: fired, firstRing: UInt32(firstRing),
      slot: UInt32(slot), tag: tag, nextRing: UInt16(ring), ringCount: UInt16(ringCount))
  }
}

extension RotationEngine.WheelEntry {
  /// Moves the cursor to trigger `j` (>= `next`) without firing those in between.
  @inline(__always) mutating func skip(to j: Int) {
    next = j
    nextRing = UInt16(j % Int(ringCount))
  }
}
