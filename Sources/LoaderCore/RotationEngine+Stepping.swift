extension RotationEngine {
  /// Advances one fixed step: fires every trigger `s` with `time <= s < time + dt` at `s`,
  /// then `tick += 1`. Allocates nothing once the wheel's buckets and the overlap pool have
  /// grown to their working size.
  package mutating func step() {
    let k = tick
    let windowStart = Double(k) * dt
    let windowEnd = Double(k + 1) * dt
    pruneOverlaps(finishedBy: windowStart)
    fireBucket(of: k, windowStart: windowStart, windowEnd: windowEnd)
    tick = k + 1
    if windowEnd - epoch > Self.rebaseInterval { rebase(to: windowEnd) }
  }

  package mutating func step(count: Int) {
    for _ in 0..<Swift.max(0, count) { step() }
  }

  /// The tick `k` with `Double(k) * dt <= t < Double(k + 1) * dt`, by the same products the
  /// step compares with, so a trigger on a step boundary lands in exactly one step. (Toggle
  /// times are checked to keep `t / dt` far inside `Int`.)
  @inline(__always)
  func tickContaining(_ t: Double) -> Int {
    Self.tick(containing: t, dt: dt, inverseDt: inverseDt)
  }

  /// `tickContaining(_:)` for a pass that holds the step, not the engine.
  @inline(__always)
  static func tick(containing t: Double, dt: Double, inverseDt: Double) -> Int {
    var k = Int(t * inverseDt)
    while Double(k + 1) * dt <= t { k += 1 }
    while Double(k) * dt > t { k -= 1 }
    return k
  }

  mutating func startRun(slot: Int, at t: Double) {
    var s = loaderRuns[slot]
    s.runStart = t
    s.isAnimating = true
    s.runStamp &+= 1
    loaderRuns[slot] = s
    // Whole turns that end before the ring's next turn in the run starts (with two steps to
    // spare for rounding) need no look at the overlap pool or the ring's history in a step.
    let simple =
      s.isFullTurn && s.stagger * Double(s.ringCount) >= s.turnDuration + 2 * dt ? 1 as UInt32 : 0
    let tag = s.runStamp << 1 | simple
    runTags[slot] = tag
    uniqueWheel().append(
      s.cursor(fired: 0, slot: slot, tag: tag), to: tickContaining(t) & wheelMask)
  }

  /// Ends the run at `c`: its triggers before `c` that no step has reached yet fire now (they
  /// read 0 until their time), then the run's turns are folded into each ring's history and
  /// its last trigger's turn end into `quietFrom`. The run's wheel entry goes stale and is
  /// dropped when its bucket comes round.
  mutating func endRun(slot: Int, at c: Double) {
    var s = loaderRuns[slot]
    var cursor = s.cursor(fired: s.triggers(before: time), slot: slot, tag: 0)
    endedRuns[tickContaining(cursor.triggerTime(cursor.next)) & wheelMask] += 1
    var rings = ringPointers()
    Self.fire(&cursor, s, before: c, windowStart: time - dt, rings: &rings, overlaps: &overlaps)
    // The cursor stops past the run's last trigger before `c`, whose turn ends last. A run
    // with no trigger leaves the earlier runs' end.
    if cursor.next > 0 { quietFrom[slot] = s.triggerTime(cursor.next - 1) + s.turnDuration }
    let first = Int(s.firstRing)
    let n = Int(s.ringCount)
    for i in 0..<n {
      let m = s.runTriggers(ofRing: i, fired: cursor.next)
      guard m > 0 else { continue }
      ringHistory[first + i].count += m
      ringHistory[first + i].latestStart = s.triggerTime(i + n * (m - 1))
    }
    s.isAnimating = false
    s.runStamp &+= 1
    loaderRuns[slot] = s
    runTags[slot] = s.runStamp << 1
  }

  /// What firing writes per ring, as raw pointers for the step's loops.
  struct RingPointers {
    var relativeStart: UnsafeMutablePointer<Float>
    var wrappedBase: UnsafeMutablePointer<Float>
    var history: UnsafeMutablePointer<RingHistory>
    var epoch: Double
  }

  mutating func ringPointers() -> RingPointers {
    RingPointers(
      relativeStart: relativeStart.mutablePointer(), wrappedBase: wrappedBase.mutablePointer(),
      history: ringHistory.mutablePointer(), epoch: epoch)
  }

  /// Fires the run's triggers before `end`, in order, any style. A ring's previous turn, if
  /// it may still be running at a presentable time (`>= windowStart`), moves to the overlap pool.
  static func fire(
    _ c: inout WheelEntry, _ s: LoaderRun, before end: Double, windowStart: Double,
    rings: inout RingPointers, overlaps: inout [OverlapTurn]
  ) {
    var t = c.triggerTime(c.next)
    let n = Int(c.ringCount)
    while t < end {
      let ring = Int(c.firstRing) + Int(c.nextRing)
      // The ring's previous turn: earlier in this run, or its last before the run.
      let previous = c.next >= n ? c.triggerTime(c.next - n) : rings.history[ring].latestStart
      if previous + s.turnDuration > windowStart {
        overlaps.append(
          OverlapTurn(ring: ring, start: previous, duration: s.turnDuration, degrees: s.turnDegrees)
        )
      }
      rings.relativeStart[ring] = Float(t - rings.epoch)
      if !s.isFullTurn {
        let count = rings.history[ring].count + c.next / n + 1
        rings.wrappedBase[ring] = Float(wrapped(turns: count - 1, of: s.turnDegrees))
      }
      c.next += 1
      c.nextRing = c.nextRing + 1 == c.ringCount ? 0 : c.nextRing + 1
      t = c.triggerTime(c.next)
    }
  }

  /// Fires bucket `k`'s entries due in `[windowStart, windowEnd)` and moves each to the bucket
  /// of its next trigger. The common trigger (a simple run past its first `n` triggers, one
  /// trigger in the step) touches the entry, its tag and one `Float`.
  mutating func fireBucket(of k: Int, windowStart: Double, windowEnd: Double) {
    let b = k & wheelMask
    let wheel = uniqueWheel()
    let pending = wheel.counts[b]
    guard pending > 0 else { return }
    let entries = wheel.bases[b]
    let tags = runTags.pointer
    let checkTags = endedRuns[b] > 0
    endedRuns[b] = 0
    fireCommonOnThreads(entries, pending, checkTags: checkTags, windowEnd: windowEnd)
    let epoch = self.epoch
    var rings = ringPointers()
    let rel = rings.relativeStart
    var kept = 0
    // Most entries of a bucket move on to the same bucket: its count stays in a register
    // while they do, instead of a load and a store per entry.
    var target = -1
    var targetCount = 0
    for e in 0..<pending {
      var c = entries[e]
      if checkTags, tags[Int(c.slot)] != c.tag { continue }  // the run has ended
      var t = c.triggerTime(c.next)
      if t < windowEnd {
        if c.isCommon {
          t = Self.fireCommon(&c, from: t, before: windowEnd, relativeStart: rel, epoch: epoch)
        } else {
          Self.fire(
            &c, loaderRuns[Int(c.slot)], before: windowEnd, windowStart: windowStart,
            rings: &rings, overlaps: &overlaps)
          t = c.triggerTime(c.next)
        }
      }
      let next = tickContaining(t) & wheelMask
      if next == b {  // a later lap of the wheel: stays here
        entries[kept] = c
        kept += 1
      } else {
        if next != target {
          if target >= 0 { wheel.counts[target] = targetCount }
          target = next
          targetCount = wheel.counts[next]
          // Room for every entry still to move (they usually all go here), made before the
          // first one lands: an empty bucket then takes fitting storage with nothing to copy.
          if targetCount + pending - e > wheel.capacities[next] {
            wheel.reserve(next, targetCount + pending - e)
          }
        }
        wheel.bases[next][targetCount] = c
        targetCount += 1
      }
    }
    if target >= 0 { wheel.counts[target] = targetCount }
    wheel.counts[b] = kept
  }

  /// The common trigger (`WheelEntry.isCommon`) due at `t`, and every later one before `end`:
  /// one `Float` each, no overlap possible, the base stays 0. Returns the next trigger's time.
  @inline(__always)
  static func fireCommon(
    _ c: inout WheelEntry, from t: Double, before end: Double,
    relativeStart rel: UnsafeMutablePointer<Float>, epoch: Double
  ) -> Double {
    var t = t
    repeat {
      rel[Int(c.firstRing) + Int(c.nextRing)] = Float(t - epoch)
      c.next += 1
      c.nextRing = c.nextRing + 1 == c.ringCount ? 0 : c.nextRing + 1
      t = c.triggerTime(c.next)
    } while t < end
    return t
  }

  /// Triggers per worker below which firing stays on one thread.
  static let minimumTriggersPerThread = 1 << 11

  /// Past `minimumTriggersPerThread` entries per worker, fires a bucket's common triggers on
  /// `threadCount` threads in place, before the serial pass over the bucket: that pass then
  /// finds them no longer due and only moves them to their next bucket (appends to shared
  /// buckets stay serial), and fires the rest (overlaps, first triggers of a run) itself.
  /// Each entry is a different run, so workers write different rings: no lock, no atomic,
  /// and the same bytes as one thread writes. The cost is a second read of the bucket.
  mutating func fireCommonOnThreads(
    _ entries: UnsafeMutablePointer<WheelEntry>, _ pending: Int, checkTags: Bool,
    windowEnd: Double
  ) {
    let workers = Swift.min(threadCount, pending / Self.minimumTriggersPerThread)
    guard workers > 1 else { return }
    let rel = relativeStart.mutablePointer()
    Self.forEachRange(
      pending, workers: workers,
      CommonTriggersPass(
        entries: entries, checkTags: checkTags, tags: runTags.pointer, relativeStart: rel,
        epoch: epoch, windowEnd: windowEnd))
  }

  /// `fireCommon` over a range of a bucket's entries (a `WorkerPool` job).
  // @unchecked Sendable: the pointers are read by every piece, and each piece writes only the
  // indices of its own range; `forEachRange` returns after the last piece, while they live.
  struct CommonTriggersPass: RangeJob, @unchecked Sendable {
    let entries: UnsafeMutablePointer<WheelEntry>
    let checkTags: Bool
    let tags: UnsafePointer<UInt32>
    let relativeStart: UnsafeMutablePointer<Float>
    let epoch: Double
    let windowEnd: Double

    func run(_ r: Range<Int>) {
      for e in r {
        var c = entries[e]
        guard c.isCommon, !checkTags || tags[Int(c.slot)] == c.tag else { continue }
        let t = c.triggerTime(c.next)
        guard t < windowEnd else { continue }
        _ = RotationEngine.fireCommon(
          &c, from: t, before: windowEnd, relativeStart: relativeStart, epoch: epoch)
        entries[e] = c
      }
    }
  }

  /// Drops overlapping turns that have finished before every presentable time; their whole
  /// turn is already in the ring's count.
  mutating func pruneOverlaps(finishedBy t: Double) {
    var i = 0
    while i < overlaps.count {
      if overlaps[i].start + overlaps[i].duration <= t {
        overlaps.swapAt(i, overlaps.count - 1)
        overlaps.removeLast()
      } else {
        i += 1
      }
    }
  }

  /// Moves the `Float` origin to `newEpoch`. Finished rings only need to stay finished, so
  /// shifting their far-past starts is harmless.
  mutating func rebase(to newEpoch: Double) {
    let shift = Float(newEpoch - epoch)
    epoch = newEpoch
    // The pointer first: made inside the call's arguments, with `self` read for the call,
    // the uniqueness check would see a second owner and copy the array.
    let rel = relativeStart.mutablePointer()
    forEachRingRange(relativeStart.count, RebasePass(relativeStart: rel, shift: shift))
  }

  /// Moves a range of rings' starts by `shift` (a `WorkerPool` job).
  // @unchecked Sendable: the pointers are read by every piece, and each piece writes only the
  // indices of its own range; `forEachRange` returns after the last piece, while they live.
  struct RebasePass: RangeJob, @unchecked Sendable {
    let relativeStart: UnsafeMutablePointer<Float>
    let shift: Float

    func run(_ r: Range<Int>) {
      for i in r { relativeStart[i] -= shift }
    }
  }

  /// `x` reduced to `[0, 360)`.
  static func wrapped(_ x: Double) -> Double {
    var w = x.truncatingRemainder(dividingBy: 360)
    if w < 0 { w += 360 }
    return w >= 360 ? 0 : w
  }

  /// `count * degrees` reduced to `[0, 360)`. The product rounds by `ulp(count * degrees)`:
  /// for integer degrees only past `2^53`, for others at any count (0.004 degree once it
  /// passes 2^44). Its exact rounding error (a fused multiply-add) is added back after the
  /// reduction, which is exact, so the base keeps the fraction of a turn however many turns
  /// came before. `count` is below `2^52` (`maximumTime`), so `Double(count)` is exact.
  static func wrapped(turns count: Int, of degrees: Double) -> Double {
    let c = Double(count)
    let product = c * degrees
    let error = (-product).addingProduct(c, degrees)
    return wrapped(wrapped(product) + error)
  }
}
