extension RotationEngine {
  /// Bytes the engine holds now: every array's and wheel bucket's capacity times its element's
  /// stride (what it asked the allocator for, headers and the allocator's own overhead left
  /// out). Fixed by the loader count: a step allocates nothing once the wheel has grown to
  /// its working size, and removals give storage back (see `remove(_:)`).
  package var storageBytes: Int {
    func bytes<T>(_ a: CacheAlignedArray<T>) -> Int { a.capacity * MemoryLayout<T>.stride }
    func bytes<T>(_ a: [T]) -> Int { a.capacity * MemoryLayout<T>.stride }
    var total = bytes(loaderRuns) + bytes(lastToggle) + bytes(quietFrom) + bytes(freeSlots)
    total += bytes(runTags)
    total += bytes(ringHistory) + bytes(relativeStart) + bytes(wrappedBase)
    total += bytes(inverseDuration) + bytes(ringDegrees)
    total += freeRingBlocks.values.reduce(0) { $0 + bytes($1) } + bytes(overlaps)
    total += bytes(endedRuns)
    for b in 0..<wheel.size { total += wheel.capacities[b] * MemoryLayout<WheelEntry>.stride }
    return total
  }

  /// The most loaders an engine holds (and reserves for): 2^24. Their slots, rings and wheel
  /// entries are indexed by 32 bits with room to spare, and `count * ringCount` cannot
  /// overflow `Int` for any style. A host's tables add theirs (`LoaderField.maximumCount`).
  package static let maximumLoaders = 1 << 24

  /// Bytes one loader of `ringCount` rings adds to `storageBytes` once its tables are
  /// reserved: its run, toggle times and tag, one wheel entry (an animating loader waits in
  /// one bucket), and each ring's history and four per-ring `Float`s. Spare capacity, free
  /// lists and the overlap pool are left out.
  package static func bytesPerLoader(ringCount: Int) -> Int {
    MemoryLayout<LoaderRun>.stride + 2 * MemoryLayout<Double>.stride
      + MemoryLayout<UInt32>.stride + MemoryLayout<WheelEntry>.stride
      + ringCount * (MemoryLayout<RingHistory>.stride + 4 * MemoryLayout<Float>.stride)
  }

  /// Called after a removal: once the live loaders have halved since the last look, gives
  /// back the storage behind the highest live slot and ring (`compactStorage()`). Each look
  /// costs a pass over the slots and the wheel, and comes only after the count halves, so
  /// removing loaders one by one stays amortized O(1).
  mutating func compactIfSparse() {
    guard liveCount <= compactBelow else { return }
    compactStorage()
    compactBelow = liveCount / 2
  }

  /// Drops the dead slots and rings after the highest live ones, then lets every array and
  /// wheel bucket keep at most twice what it holds. Ids stay valid (slots below the highest
  /// live one do not move), and a slot made again later starts from a generation above any
  /// it had, so an id of a dropped slot stays stale.
  ///
  /// What it cannot give back: holes below the highest live slot or ring (a removed loader
  /// whose later neighbours live on) stay until an `addLoader` reuses them. A grid shrinks
  /// from its end, so all of its storage comes back.
  mutating func compactStorage() {
    compactions += 1
    var slots = loaderRuns.count
    while slots > 0, !loaderRuns[slots - 1].isLive { slots -= 1 }
    var rings = 0
    for i in 0..<slots where loaderRuns[i].isLive {
      rings = Swift.max(rings, Int(loaderRuns[i].firstRing) + Int(loaderRuns[i].ringCount))
    }
    for i in slots..<loaderRuns.count {
      retiredGeneration = Swift.max(retiredGeneration, loaderRuns[i].generation)
    }

    // Wheel entries of ended runs go too: those of dropped slots would read past `runTags`.
    let w = uniqueWheel()
    let tags = runTags.pointer
    for b in 0..<w.size {
      let entries = w.bases[b]
      var kept = 0
      for e in 0..<w.counts[b] {
        let c = entries[e]
        guard Int(c.slot) < slots, tags[Int(c.slot)] == c.tag else { continue }
        entries[kept] = c
        kept += 1
      }
      w.counts[b] = kept
      w.shrink(b, toAtMost: 2 * kept)
    }

    loaderRuns.truncate(to: slots)
    runTags.truncate(to: slots)
    lastToggle.removeLast(lastToggle.count - slots)
    lastToggle.releaseExcessCapacity()
    quietFrom.removeLast(quietFrom.count - slots)
    quietFrom.releaseExcessCapacity()
    freeSlots.removeAll { $0 >= slots }
    freeSlots.releaseExcessCapacity()
    ringHistory.truncate(to: rings)
    relativeStart.truncate(to: rings)
    wrappedBase.truncate(to: rings)
    inverseDuration.truncate(to: rings)
    ringDegrees.truncate(to: rings)
    for (n, blocks) in freeRingBlocks {
      let below = blocks.filter { $0 < rings }
      freeRingBlocks[n] = below.isEmpty ? nil : below
    }
    overlaps.releaseExcessCapacity(floor: 256)
  }
}

extension Array {
  /// Makes the storage anew at the count when it is more than `factor` times the count (and
  /// than `floor`): what a shrunken scene's buffers do to give memory back. An array only
  /// shrinks its storage this way (`removeAll(keepingCapacity: false)` would drop the elements).
  package mutating func releaseExcessCapacity(factor: Int = 2, floor: Int = 16) {
    guard capacity > factor * Swift.max(count, floor) else { return }
    var fresh: [Element] = []
    fresh.reserveCapacity(count)
    fresh.append(contentsOf: self)
    self = fresh
  }
}
