extension RotationEngine {
  /// Advances one fixed step: fires every trigger `s` with `time <= s < time + dt` at `s`,
  /// then `tick += 1`. Allocates nothing once the wheel buckets and the overlap pool have grown
  /// to their working size.
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
  /// step compares with, so a trigger on a step boundary lands in exactly one step.
  func tickContaining(_ t: Double) -> Int {
    var k = Int((t / dt).rounded(.down))
    while Double(k + 1) * dt <= t { k += 1 }
    while Double(k) * dt > t { k -= 1 }
    return k
  }

  mutating func startRun(slot: Int, at t: Double) {
    schedules[slot].runStart = t
    schedules[slot].nextTrigger = 0
    schedules[slot].isAnimating = true
    schedules[slot].stamp &+= 1
    let entry = UInt64(slot) | UInt64(schedules[slot].stamp) << 32
    wheel[tickContaining(t) & wheelMask].append(entry)
  }

  /// Ends the run at `c`: its triggers before `c` that no step has reached yet fire now (they
  /// read 0 until their time), so the wheel never holds more than one run per loader.
  mutating func endRun(slot: Int, at c: Double) {
    var s = schedules[slot]
    let windowStart = time - dt
    let first = Int(s.firstRing)
    let n = Int(s.ringCount)
    var t = s.triggerTime(s.nextTrigger)
    while t < c {
      fire(ring: first + s.nextTrigger % n, at: t, schedule: s, windowStart: windowStart)
      s.nextTrigger += 1
      t = s.triggerTime(s.nextTrigger)
    }
    s.isAnimating = false
    s.stamp &+= 1
    schedules[slot] = s
  }

  /// One trigger: ring `ring` starts a turn at `t`. Its previous turn, if it may still be
  /// running at a presentable time (`>= windowStart`), moves to the overlap pool.
  @inline(__always)
  mutating func fire(ring: Int, at t: Double, schedule s: Schedule, windowStart: Double) {
    var turns = ringTurns[ring]
    if turns.latestStart + s.turnDuration > windowStart {
      overlaps.append(
        OverlapTurn(
          ring: ring, start: turns.latestStart, duration: s.turnDuration, degrees: s.turnDegrees))
    }
    turns.count += 1
    turns.latestStart = t
    ringTurns[ring] = turns
    relativeStart[ring] = Float(t - epoch)
    wrappedBase[ring] = Float(Self.wrapped(Double(turns.count - 1) * s.turnDegrees))
  }

  mutating func fireBucket(of k: Int, windowStart: Double, windowEnd: Double) {
    let b = k & wheelMask
    let pending = wheel[b].count
    var kept = 0
    for e in 0..<pending {
      let entry = wheel[b][e]
      let slot = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF)
      var s = schedules[slot]
      guard s.isLive, s.isAnimating, s.stamp == UInt32(truncatingIfNeeded: entry >> 32) else {
        continue
      }
      var t = s.triggerTime(s.nextTrigger)
      if t >= windowEnd {  // due on a later lap of the wheel
        wheel[b][kept] = entry
        kept += 1
        continue
      }
      let first = Int(s.firstRing)
      let n = Int(s.ringCount)
      repeat {
        fire(ring: first + s.nextTrigger % n, at: t, schedule: s, windowStart: windowStart)
        s.nextTrigger += 1
        t = s.triggerTime(s.nextTrigger)
      } while t < windowEnd
      schedules[slot].nextTrigger = s.nextTrigger
      wheel[tickContaining(t) & wheelMask].append(entry)
    }
    wheel[b].removeSubrange(kept..<pending)
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
    relativeStart.withUnsafeMutableBufferPointer { rel in
      for i in rel.indices { rel[i] -= shift }
    }
  }

  /// `x` reduced to `[0, 360)`.
  static func wrapped(_ x: Double) -> Double {
    var w = x.truncatingRemainder(dividingBy: 360)
    if w < 0 { w += 360 }
    return w >= 360 ? 0 : w
  }
}
