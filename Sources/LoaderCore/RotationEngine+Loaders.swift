/// Adding, removing and toggling loaders.
extension RotationEngine {
  /// Adds a loader, like `LoaderView(isAnimating:)` appearing at `time` (default: now).
  @discardableResult
  package mutating func addLoader(
    style: LoaderStyle = .seed, isAnimating: Bool = false, at time: Double? = nil
  ) throws(Error) -> LoaderID {
    do { try style.validate() } catch { throw .invalidStyle(error) }
    let start = time ?? self.time
    // A stopped loader's time is kept too (a later toggle is checked against it): it must be
    // a time a toggle could take.
    try checkToggleTime(start)

    let n = style.ringCount
    let firstRing: Int
    if var block = freeRingBlocks[n], let reused = block.popLast() {
      freeRingBlocks[n] = block
      firstRing = reused
    } else {
      firstRing = ringHistory.count
      ringHistory.append(repeating: RingHistory(), count: n)
      relativeStart.append(repeating: Self.neverStarted, count: n)
      wrappedBase.append(repeating: 0, count: n)
      inverseDuration.append(repeating: 0, count: n)
      ringDegrees.append(repeating: 0, count: n)
    }
    for r in firstRing..<(firstRing + n) {
      ringHistory[r] = RingHistory()
      relativeStart[r] = Self.neverStarted
      // With no trigger yet, `c` reads 1 at any time: start from `-D` so the sum is 0.
      wrappedBase[r] = Float(Self.wrapped(-style.turnDegrees))
      inverseDuration[r] = Float(1 / style.turnDuration)
      ringDegrees[r] = Float(style.turnDegrees)
    }

    let slot: Int
    if let reused = freeSlots.popLast() {
      slot = reused
    } else {
      slot = loaderRuns.count
      loaderRuns.append(LoaderRun(generation: retiredGeneration))
      lastToggle.append(-.infinity)
      quietFrom.append(-.infinity)
      runTags.append(0)
    }
    var s = loaderRuns[slot]
    s.stagger = style.stagger
    s.turnDuration = style.turnDuration
    s.turnDegrees = style.turnDegrees
    s.firstRing = Int32(firstRing)
    s.ringCount = Int32(n)
    s.isLive = true
    s.isAnimating = false
    s.isFullTurn = style.turnDegrees == 360
    s.runStamp &+= 1
    loaderRuns[slot] = s
    runTags[slot] = s.runStamp << 1
    lastToggle[slot] = -.infinity
    quietFrom[slot] = -.infinity
    liveCount += 1
    compactBelow = Swift.max(compactBelow, liveCount / 2)
    useTiming(Timing(duration: style.turnDuration, degrees: style.turnDegrees), by: 1)

    let id = LoaderID(slot: slot, generation: s.generation)
    if isAnimating { startRun(slot: slot, at: start) }
    lastToggle[slot] = start
    return id
  }

  /// Removes a loader; its slot and rings are reused by a later `addLoader`, and its id goes
  /// stale. Each time the live count has halved, the storage behind the highest live slot
  /// and ring goes back to the allocator (`compactStorage()`): a grid shrunk from a million
  /// loaders to one holds what one loader needs, not what a million did.
  package mutating func remove(_ id: LoaderID) throws(Error) {
    let slot = try liveSlot(id)
    if loaderRuns[slot].isAnimating { endRun(slot: slot, at: time) }
    var s = loaderRuns[slot]
    let first = Int(s.firstRing)
    let n = Int(s.ringCount)
    overlaps.removeAll { $0.ring >= first && $0.ring < first + n }
    for r in first..<(first + n) {
      ringHistory[r] = RingHistory()
      relativeStart[r] = Self.neverStarted
      wrappedBase[r] = 0
    }
    freeRingBlocks[n, default: []].append(first)
    useTiming(Timing(duration: s.turnDuration, degrees: s.turnDegrees), by: -1)
    s.isLive = false
    s.isAnimating = false
    s.generation &+= 1
    s.runStamp &+= 1
    loaderRuns[slot] = s
    runTags[slot] = s.runStamp << 1
    freeSlots.append(slot)
    liveCount -= 1
    compactIfSparse()
  }

  /// Whether `id` names a live loader (false once it was removed, even if its slot was reused).
  package func contains(_ id: LoaderID) -> Bool {
    id.slot >= 0 && id.slot < loaderRuns.count && loaderRuns[id.slot].isLive
      && loaderRuns[id.slot].generation == id.generation
  }

  /// The loader's `isAnimating` as last set (its turns may still be running after `false`).
  package func isAnimating(_ id: LoaderID) throws(Error) -> Bool {
    loaderRuns[try liveSlot(id)].isAnimating
  }

  /// The first of `ringCount(of:)` entries for this loader in `presentationAngles(at:into:)`.
  package func firstRing(of id: LoaderID) throws(Error) -> Int {
    Int(loaderRuns[try liveSlot(id)].firstRing)
  }

  /// The loader's `LoaderStyle.ringCount`.
  package func ringCount(of id: LoaderID) throws(Error) -> Int {
    Int(loaderRuns[try liveSlot(id)].ringCount)
  }

  /// `isAnimating = on` for one loader at `time` (>= `time` of the engine, and not before the
  /// loader's previous toggle). A repeat of the current value is ignored.
  package mutating func setAnimating(_ on: Bool, loader id: LoaderID, at time: Double) throws(Error)
  {
    let slot = try liveSlot(id)
    try checkToggleTime(time)
    guard time >= lastToggle[slot] else {
      throw .timeDecreasing(loader: id, time: time, previous: lastToggle[slot])
    }
    lastToggle[slot] = time
    guard on != loaderRuns[slot].isAnimating else { return }
    if on { startRun(slot: slot, at: time) } else { endRun(slot: slot, at: time) }
  }

  /// `isAnimating = on` for every live loader at `time`.
  package mutating func setAnimatingAll(_ on: Bool, at time: Double) throws(Error) {
    try checkToggleTime(time)
    for slot in loaderRuns.indices where loaderRuns[slot].isLive {
      guard time >= lastToggle[slot] else {
        let id = LoaderID(slot: slot, generation: loaderRuns[slot].generation)
        throw .timeDecreasing(loader: id, time: time, previous: lastToggle[slot])
      }
    }
    for slot in loaderRuns.indices where loaderRuns[slot].isLive {
      lastToggle[slot] = time
      guard on != loaderRuns[slot].isAnimating else { continue }
      if on { startRun(slot: slot, at: time) } else { endRun(slot: slot, at: time) }
    }
  }

  func liveSlot(_ id: LoaderID) throws(Error) -> Int {
    guard contains(id) else { throw .staleLoader(id) }
    return id.slot
  }

  func checkToggleTime(_ t: Double) throws(Error) {
    guard t.isFinite else { throw .timeNotFinite(t) }
    guard t >= time else { throw .timeBeforeNow(time: t, now: time) }
    // Keeps `tickContaining` and the trigger index far from Int overflow.
    guard t <= maximumTime else { throw .timeOutOfRange(t) }
  }

  mutating func useTiming(_ timing: Timing, by delta: Int) {
    let n = timingUse[timing, default: 0] + delta
    timingUse[timing] = n == 0 ? nil : n
    if timingUse.count == 1, let only = timingUse.keys.first, only.degrees == 360 {
      uniformTurnRate = Float(360 / only.duration)
    } else {
      uniformTurnRate = timingUse.isEmpty ? 360 : nil
    }
  }
}
