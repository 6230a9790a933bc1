extension RotationEngine {
  /// Every ring's on-screen angle at `renderTime` (in `presentableTimes`), in degrees clockwise
  /// reduced to `[0, 360)`, into `angles[0..<ringSlotCount]`: loader `id`'s rings are at
  /// `firstRing(of: id) ..< firstRing(of: id) + ringCount(of: id)`; entries of removed loaders
  /// hold 0. `Float` is for drawing: times are `Float` seconds from an epoch at most a few
  /// seconds back, so the error stays under `2e-4 + |D| * 6e-7 / d` degrees (under 0.001 for
  /// the seed); `angle(loader:ring:at:)` is the exact one.
  ///
  /// Past `minimumRingsPerThread` rings the pass spreads over `threadCount` threads in
  /// contiguous ranges; the angles are bit-identical to one thread's.
  package func presentationAngles(
    at renderTime: Double, into angles: UnsafeMutableBufferPointer<Float>
  )
    throws(Error)
  {
    try checkRenderTime(renderTime)
    let n = ringSlotCount
    guard angles.count >= n, let out = angles.baseAddress else {
      if n == 0 { return }
      throw .bufferTooSmall(count: angles.count, needed: n)
    }
    let t = Float(renderTime - epoch)
    let start = relativeStart.pointer
    if let rate = uniformTurnRate {
      forEachRingRange(n, FullTurnPass(t: t, turnRate: rate, relativeStart: start, out: out))
    } else {
      forEachRingRange(
        n,
        GeneralPass(
          t: t, relativeStart: start, wrappedBase: wrappedBase.pointer,
          inverseDuration: inverseDuration.pointer, degrees: ringDegrees.pointer, out: out))
    }
    // Few rings overlap (quick toggles only), so this stays on the calling thread, after
    // every range is written.
    for o in overlaps {
      let correction = o.degrees * (Self.fraction(renderTime, o.start, o.duration) - 1)
      out[o.ring] = Float(Self.wrapped(Double(out[o.ring]) + correction))
    }
  }

  /// `presentationAngles(at:into:)` into an array, resized to `ringSlotCount`. When the
  /// engine's storage has shrunk to under a quarter of the array's, the array is made anew,
  /// so its memory goes back too.
  package func presentationAngles(at renderTime: Double, into angles: inout [Float]) throws(Error) {
    let n = ringSlotCount
    if angles.count < n {
      angles.append(contentsOf: repeatElement(0, count: n - angles.count))
    } else if angles.count > n {
      angles.removeLast(angles.count - n)
      angles.releaseExcessCapacity(factor: 4, floor: 1 << 12)
    }
    try angles.withUnsafeMutableBufferPointer { (buf) throws(Error) in
      try presentationAngles(at: renderTime, into: buf)
    }
  }

  /// Ring `ring` of loader `id` at `renderTime` (in `presentableTimes`), exactly, unwrapped:
  /// the reference model's `angle(ofRing:at:)`.
  package func angle(loader id: LoaderID, ring: Int, at renderTime: Double) throws(Error) -> Double
  {
    let slot = try liveSlot(id)
    try checkRenderTime(renderTime)
    let s = loaderRuns[slot]
    guard ring >= 0, ring < Int(s.ringCount) else {
      throw .ringOutOfRange(ring: ring, ringCount: Int(s.ringCount))
    }
    let r = Int(s.firstRing) + ring
    let history = ringHistory[r]
    let m = s.runTriggers(ofRing: ring, fired: s.triggers(before: time))
    let count = history.count + m
    let latest = m > 0 ? s.triggerTime(ring + Int(s.ringCount) * (m - 1)) : history.latestStart
    guard count > 0 else { return 0 }
    var a =
      Double(count - 1) * s.turnDegrees
      + s.turnDegrees * Self.fraction(renderTime, latest, s.turnDuration)
    for o in overlaps where o.ring == r {
      a += o.degrees * (Self.fraction(renderTime, o.start, o.duration) - 1)
    }
    return a
  }

  /// All of loader `id`'s rings, exactly, unwrapped.
  package func angles(loader id: LoaderID, at renderTime: Double) throws(Error) -> [Double] {
    let n = try ringCount(of: id)
    var out: [Double] = []
    out.reserveCapacity(n)
    for i in 0..<n { out.append(try angle(loader: id, ring: i, at: renderTime)) }
    return out
  }

  func checkRenderTime(_ t: Double) throws(Error) {
    guard presentableTimes.contains(t) else {
      throw .renderTimeOutsideWindow(time: t, window: presentableTimes)
    }
  }

  /// `c(s) = min(1, max(0, (t - s) / d))`, the share of a linear turn done at `t`.
  @inline(__always)
  static func fraction(_ t: Double, _ start: Double, _ duration: Double) -> Double {
    let f = (t - start) / duration
    return f > 1 ? 1 : (f > 0 ? f : 0)
  }

  /// `Float(360).bitPattern`: the full-turn pass's one compare.
  static let fullTurnBits = Float(360).bitPattern

  /// `fullTurnAngles` over a range of rings (a `WorkerPool` job).
  // @unchecked Sendable: the pointers are read by every piece, and each piece writes only the
  // indices of its own range; `forEachRange` returns after the last piece, while they live.
  struct FullTurnPass: RangeJob, @unchecked Sendable {
    let t: Float
    let turnRate: Float
    let relativeStart: UnsafePointer<Float>
    let out: UnsafeMutablePointer<Float>

    func run(_ r: Range<Int>) {
      RotationEngine.fullTurnAngles(
        t: t, turnRate: turnRate, relativeStart: relativeStart + r.lowerBound,
        into: out + r.lowerBound, count: r.count)
    }
  }

  /// `generalAngles` over a range of rings (a `WorkerPool` job).
  // @unchecked Sendable: the pointers are read by every piece, and each piece writes only the
  // indices of its own range; `forEachRange` returns after the last piece, while they live.
  struct GeneralPass: RangeJob, @unchecked Sendable {
    let t: Float
    let relativeStart: UnsafePointer<Float>
    let wrappedBase: UnsafePointer<Float>
    let inverseDuration: UnsafePointer<Float>
    let degrees: UnsafePointer<Float>
    let out: UnsafeMutablePointer<Float>

    func run(_ r: Range<Int>) {
      let i = r.lowerBound
      RotationEngine.generalAngles(
        t: t, relativeStart: relativeStart + i, wrappedBase: wrappedBase + i,
        inverseDuration: inverseDuration + i, degrees: degrees + i, into: out + i,
        count: r.count)
    }
  }

  /// 360-degree turns of one duration: `360 * c`, computed as `rate * (t - s)` with
  /// `rate = 360 / d` (one product per ring instead of two, and one rounding fewer), then
  /// reduced to `[0, 360)`: a turn not yet started reads 0 and a finished one 360, which is 0.
  /// Both ends are one unsigned compare of the bit pattern: a non-negative `Float` orders as
  /// its bits do, and a negative one (sign bit set) compares above `bitPattern(360)`, so
  /// ```
  /// angle = bits(a) < bits(360) ? a : 0      (a NaN reads 0 too)
  /// ```
  /// Branch-free so the loop vectorizes: one compare and mask covers both ends.
  @inline(__always)
  static func fullTurnAngles(
    t: Float, turnRate: Float, relativeStart: UnsafePointer<Float>,
    into out: UnsafeMutablePointer<Float>, count n: Int
  ) {
    // Sixteen at a time: the loop overhead is paid once per four SSE vectors.
    typealias Lanes = SIMD16<Float>
    let lanes = Lanes.scalarCount
    var i = 0
    let tv = Lanes(repeating: t)
    let rate = Lanes(repeating: turnRate)
    let zero = Lanes(repeating: 0)
    let full = SIMD16<UInt32>(repeating: fullTurnBits)
    while i + lanes <= n {
      let r = UnsafeRawPointer(relativeStart + i).loadUnaligned(as: Lanes.self)
      var a = (tv - r) * rate
      let bits = unsafeBitCast(a, to: SIMD16<UInt32>.self)
      a.replace(with: zero, where: .!(bits .< full))
      UnsafeMutableRawPointer(out + i).storeBytes(of: a, as: Lanes.self)
      i += lanes
    }
    while i < n {
      let a = (t - relativeStart[i]) * turnRate
      out[i] = a.bitPattern < fullTurnBits ? a : 0
      i += 1
    }
  }

  /// Any turn: `base + D * c` reduced to `[0, 360)`. The floor is a round-to-nearest through
  /// `1.5 * 2^23` and a correction, which vectorizes where `Float.rounded(.down)` would call libm.
  @inline(__always)
  static func generalAngles(
    t: Float, relativeStart: UnsafePointer<Float>, wrappedBase: UnsafePointer<Float>,
    inverseDuration: UnsafePointer<Float>, degrees: UnsafePointer<Float>,
    into out: UnsafeMutablePointer<Float>, count n: Int
  ) {
    for i in 0..<n {
      var c = (t - relativeStart[i]) * inverseDuration[i]
      c = c > 0 ? c : 0
      c = c < 1 ? c : 1
      let a = wrappedBase[i] + degrees[i] * c
      let y = a * (1 / 360)
      let nearest = (y + 0x1.8p23) - 0x1.8p23
      let floor = nearest > y ? nearest - 1 : nearest
      var w = a - 360 * floor
      w = w < 0 ? w + 360 : w
      w = w < 360 ? w : w - 360
      out[i] = w
    }
  }
}
