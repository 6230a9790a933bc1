import Testing

@testable import LoaderCore

/// Memory fixed by the loader count, also when the count goes down (issue 11: a grid shrunk
/// from a million loaders to one kept the million's storage).
@Suite struct RotationEngineStorageTests {
  /// A grid's life: `peak` animating loaders, stepped past their first turns (so the wheel
  /// has grown), then shrunk from the end, as `-` does, down to `survivors`.
  static func shrunk(peak: Int, to survivors: Int) throws -> (
    RotationEngine, ids: [RotationEngine.LoaderID], peakBytes: Int
  ) {
    var engine = try RotationEngine(dt: 1.0 / 120, threadCount: 1)
    var ids: [RotationEngine.LoaderID] = []
    for _ in 0..<peak { ids.append(try engine.addLoader(isAnimating: true, at: 0)) }
    advance(&engine, to: 2)
    let peakBytes = engine.storageBytes
    while ids.count > survivors { try engine.remove(ids.removeLast()) }
    return (engine, ids, peakBytes)
  }

  @Test func shrinkingFromTheEndGivesTheStorageBack() throws {
    let (engine, ids, peakBytes) = try Self.shrunk(peak: 100_000, to: 1)
    #expect(engine.count == 1 && ids.count == 1)
    // 100k seed loaders hold about 24 MB (228 bytes each, wheel included); one loader, the
    // wheel's 64 empty buckets of 16 entries and the empty pools hold about 60 KB.
    #expect(peakBytes > 100_000 * 200, "peak \(peakBytes) bytes")
    #expect(engine.storageBytes < 100_000, "after the shrink \(engine.storageBytes) bytes")
    #expect(engine.ringSlotCount == 5)
    var bulk = [Float](repeating: 0, count: 500_000)
    try engine.presentationAngles(at: engine.time, into: &bulk)
    #expect(bulk.count == 5 && bulk.capacity < 100_000)
  }

  /// Every run's entries travel together through the wheel, a different bucket each
  /// stagger: the storage must not grow with each bucket they pass through.
  @Test func aLongRunHoldsWhatItsFirstSecondHeld() throws {
    var engine = try RotationEngine(dt: 1.0 / 120, capacity: 20_000, threadCount: 1)
    for _ in 0..<20_000 { try engine.addLoader(isAnimating: true, at: 0) }
    advance(&engine, to: 1)
    let early = engine.storageBytes
    advance(&engine, to: 30)
    let late = engine.storageBytes
    // 228 bytes a seed loader in the arrays, and a 40-byte wheel entry per running loader in
    // the bucket being fired and the one it fills, each at most twice its count (the first
    // bucket has all 20k at once). Keeping every bucket the runs passed through held 32.
    #expect(late <= early + early / 8, "\(early) -> \(late) bytes")
    #expect(late < 20_000 * (228 + 4 * 2 * 40), "\(late) bytes")
  }

  @Test func theSurvivorsMoveExactlyAsIfAloneAndRegrowWorks() throws {
    var (engine, ids, _) = try Self.shrunk(peak: 2_000, to: 3)
    var alone = try RotationEngine(dt: 1.0 / 120, threadCount: 1)
    var aloneIDs: [RotationEngine.LoaderID] = []
    for _ in 0..<3 { aloneIDs.append(try alone.addLoader(isAnimating: true, at: 0)) }
    advance(&alone, to: engine.time)
    try engine.setAnimating(false, loader: ids[1], at: 2.1)
    try alone.setAnimating(false, loader: aloneIDs[1], at: 2.1)
    // Regrow past the old peak: new loaders start at 3 s, the survivors keep their motion.
    var later: [RotationEngine.LoaderID] = []
    for _ in 0..<3_000 { later.append(try engine.addLoader(isAnimating: true, at: 3)) }
    let reference = LoaderTimeline(animatingFrom: 3)
    for t in stride(from: 2.05, through: 6, by: 0.13) {
      advance(&engine, to: t)
      advance(&alone, to: t)
      for (a, b) in zip(ids, aloneIDs) {
        #expect(try engine.angles(loader: a, at: t) == alone.angles(loader: b, at: t), "t \(t)")
      }
      for i in 0..<5 {
        let got = try engine.angle(loader: later[2_999], ring: i, at: t)
        #expect(abs(got - reference.angle(ofRing: i, at: t)) < 1e-9, "t \(t) ring \(i)")
      }
    }
    #expect(engine.count == 3_003)
  }

  @Test func idsOfDroppedSlotsStayStaleWhenTheSlotIsMadeAgain() throws {
    var engine = try RotationEngine(dt: 1.0 / 120, threadCount: 1)
    let keep = try engine.addLoader(isAnimating: true, at: 0)
    var stale: [RotationEngine.LoaderID] = []
    for _ in 0..<5 {
      let id = try engine.addLoader(isAnimating: true, at: engine.time)
      engine.step()
      try engine.remove(id)  // half the loaders gone: slot 1 is dropped, not kept free
      #expect(engine.slotCount == 1 && engine.ringSlotCount == 5)
      stale.append(id)
    }
    // The same slot was made five times, each with a new generation.
    #expect(stale.allSatisfy { $0.slot == 1 })
    #expect(Set(stale).count == 5)
    let current = try engine.addLoader(at: engine.time)
    #expect(current.slot == 1 && !stale.contains(current))
    for id in stale {
      #expect(!engine.contains(id), "\(id)")
      #expect(throws: RotationEngine.Error.staleLoader(id)) {
        try engine.setAnimating(false, loader: id, at: engine.time)
      }
    }
    #expect(engine.loaderIDs == [keep, current])
  }

  @Test func holesBelowTheHighestLiveLoaderAreReusedNotDropped() throws {
    var engine = try RotationEngine(dt: 1.0 / 120, threadCount: 1)
    var ids: [RotationEngine.LoaderID] = []
    for _ in 0..<1_000 { ids.append(try engine.addLoader(isAnimating: true, at: 0)) }
    advance(&engine, to: 1)
    // Remove all but the last: its slot and rings keep their place (its id stays valid).
    let last = ids.removeLast()
    for id in ids { try engine.remove(id) }
    #expect(engine.count == 1 && engine.loaderIDs == [last])
    #expect(try engine.firstRing(of: last) == 4_995)
    #expect(engine.ringSlotCount == 5_000)
    // The next loader takes a hole instead of growing the storage.
    let next = try engine.addLoader(isAnimating: true, at: engine.time)
    #expect(next.slot < 999 && engine.ringSlotCount == 5_000)
    advance(&engine, to: 2)
    let reference = LoaderTimeline(animatingFrom: 0)
    for i in 0..<5 {
      #expect(
        abs(try engine.angle(loader: last, ring: i, at: 2) - reference.angle(ofRing: i, at: 2))
          < 1e-9)
    }
  }
}
