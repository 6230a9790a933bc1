extension RotationEngine {
  /// Advances one fixed step: fires every trigger `s` with `time <= s < time + dt` at `s`,
  /// then `tick += 1`. Allocates nothing once the overlap pool has grown to its working size.
  public mutating func step() {
    let k = tick
    let windowStart = Double(k) * dt
    let windowEnd = Double(k + 1) * dt
    pruneOverlaps(finishedBy: windowStart)
    fireBucket(of: k, windowStart: windowStart, windowEnd: windowEnd)
    tick = k + 1
    if windowEnd - epoch > Self.rebaseInterval { rebase(to: windowEnd) }
  }

  /// `count` steps.
  public mutating func step(count: Int) {
    for _ in 0..<Swift.max(0, count) { step() }
  }

  /// The tick `k` with `Double(k) * dt <= t < Double(k + 1) * dt`, by the same products the
  /// step compares with, so a trigger on a step boundary lands in exactly one step. (Times are
  /// checked to keep `t / dt` far inside `Int`.)
  @inline(__always)
  func tickContaining(_ t: Double) -> Int {
    var k = Int(t / dt)
    while Double(k + 1) * dt <= t { k += 1 }
    while Double(k) * dt > t { k -= 1 }
    return k
  }

  @inline(__always)
  static func markWheel(
    _ wheel: UnsafeMutablePointer<UInt64>, words: Int, mask: Int, slot: Int, tick k: Int
  ) {
    wheel[(k & mask) * words + slot >> 6] |= 1 << UInt64(slot & 63)
  }

  mutating func startRun(slot: Int, at t: Double) {
    schedules[slot].runStart = t
    schedules[slot].nextTrigger = 0
    schedules[slot].nextRing = 0
    schedules[slot].isAnimating = true
    Self.markWheel(
      wheel.mutablePointer(), words: wheelWords, mask: wheelMask, slot: slot,
      tick: tickContaining(t))
  }

  /// Ends the run at `c`: its triggers before `c` that no step has reached yet fire now (they
  /// read 0 until their time), then the run's turns are folded into each ring's history. The
  /// loader's wheel bit goes stale and is dropped when its bucket comes round.
  mutating func endRun(slot: Int, at c: Double) {
    var s = schedules[slot]
    var rings = ringPointers()
    Self.fire(&s, before: c, windowStart: time - dt, rings: &rings, overlaps: &overlaps)
    let first = Int(s.firstRing)
    let n = Int(s.ringCount)
    for i in 0..<n {
      let m = s.runTriggers(ofRing: i)
      guard m > 0 else { continue }
      ringHistory[first + i].count += m
      ringHistory[first + i].latestStart = s.triggerTime(i + n * (m - 1))
    }
    s.isAnimating = false
    s.nextTrigger = 0
    s.nextRing = 0
    schedules[slot] = s
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

  /// Fires `s`'s triggers before `end`, in order. A ring's previous turn, if it may still be
  /// running at a presentable time (`>= windowStart`), moves to the overlap pool.
  @inline(__always)
  static func fire(
    _ s: inout Schedule, before end: Double, windowStart: Double, rings: inout RingPointers,
    overlaps: inout [OverlapTurn]
  ) {
    var t = s.triggerTime(s.nextTrigger)
    while t < end {
      let n = Int(s.ringCount)
      let ring = Int(s.firstRing) + Int(s.nextRing)
      // The ring's previous turn: earlier in this run, or its last before the run.
      let previous =
        s.nextTrigger >= n ? s.triggerTime(s.nextTrigger - n) : rings.history[ring].latestStart
      if previous + s.turnDuration > windowStart {
        overlaps.append(
          OverlapTurn(ring: ring, start: previous, duration: s.turnDuration, degrees: s.turnDegrees)
        )
      }
      rings.relativeStart[ring] = Float(t - rings.epoch)
      if !s.isFullTurn {
        let count = rings.history[ring].count + s.nextTrigger / n + 1
        rings.wrappedBase[ring] = Float(wrapped(Double(count - 1) * s.turnDegrees))
      }
      s.nextTrigger += 1
      s.nextRing = s.nextRing + 1 == s.ringCount ? 0 : s.nextRing + 1
      t = s.triggerTime(s.nextTrigger)
    }
  }

  /// Fires bucket `k`'s loaders due in `[windowStart, windowEnd)`, in slot order.
  ///
  /// Two passes: the first lists the bucket's slots and clears its bits, loading each loader's
  /// record as it goes. That loop is a handful of instructions, so the processor keeps many of
  /// those cache misses in flight at once; the second pass then finds the records in cache.
  mutating func fireBucket(of k: Int, windowStart: Double, windowEnd: Double) {
    let b = k & wheelMask
    let words = wheelWords
    let mask = wheelMask
    let bucket = wheel.mutablePointer() + b * words
    let table = schedules.mutablePointer()
    let due = dueSlots.mutablePointer()
    var dueCount = 0
    var sink = 0
    for w in 0..<words {
      var bits = bucket[w]
      guard bits != 0 else { continue }
      bucket[w] = 0
      repeat {
        let slot = w << 6 | bits.trailingZeroBitCount
        bits &= bits &- 1
        due[dueCount] = Int32(truncatingIfNeeded: slot)
        dueCount += 1
        sink &+= table[slot].nextTrigger
      } while bits != 0
    }
    touchSink = sink
    guard dueCount > 0 else { return }

    let wheelBase = wheel.mutablePointer()
    var rings = ringPointers()
    for d in 0..<dueCount {
      let slot = Int(due[d])
      var s = table[slot]
      guard s.isLive, s.isAnimating else { continue }  // stale bit
      let t = s.triggerTime(s.nextTrigger)
      if t >= windowEnd {
        // A later lap of the wheel keeps its bit; a bit left by an earlier run is dropped.
        let dueTick = tickContaining(t)
        if dueTick & mask == b {
          Self.markWheel(wheelBase, words: words, mask: mask, slot: slot, tick: dueTick)
        }
        continue
      }
      Self.fire(&s, before: windowEnd, windowStart: windowStart, rings: &rings, overlaps: &overlaps)
      table[slot].nextTrigger = s.nextTrigger
      table[slot].nextRing = s.nextRing
      Self.markWheel(
        wheelBase, words: words, mask: mask, slot: slot,
        tick: tickContaining(s.triggerTime(s.nextTrigger)))
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
    let rel = relativeStart.mutablePointer()
    for i in 0..<relativeStart.count { rel[i] -= shift }
  }

  /// `x` reduced to `[0, 360)`.
  static func wrapped(_ x: Double) -> Double {
    var w = x.truncatingRemainder(dividingBy: 360)
    if w < 0 { w += 360 }
    return w >= 360 ? 0 : w
  }
}
