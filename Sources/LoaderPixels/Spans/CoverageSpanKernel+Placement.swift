import LoaderCore

extension CoverageSpanKernel {
  /// Where a ring's mask lands: its chunks, anchor pixel, colour, and whether it needs
  /// clipping; `count` 0 for a culled (or non-finite, or fully transparent) ring.
  struct Placement {
    /// While `count` is -1 (placed, its mask not yet looked up), the mask's cache key
    /// (`RingMaskShape.cacheKey(_:)`); from then on, its first chunk in the arena (one word
    /// for both: the blend reads every placement of a frame).
    var keyOrFirstChunk = 0
    /// The mask's chunks, -1 until it is looked up.
    var count = 0
    var px = 0
    var py = 0
    /// `0xFFRRGGBB`: the colour's alpha is in `alpha`, applied to the coverage.
    var color: UInt32 = 0
    /// The colour's alpha `a` (0...255) as the weight `a + a >> 7` (1...256): the mask's
    /// weights are multiplied by `alphaWeight / 256` when it is below 256.
    var alphaWeight: UInt32 = 256
    /// No chunk leaves the target's columns: only rows need clipping.
    var insideX = false
    /// The ring's shape: its index among the draw's shapes.
    var shape: Int32 = 0
  }

  /// A mask a draw builds: its shape and key, the pitch it is built at, where its chunks
  /// went (a scratch's, then the arena's), and the slot it was given (where it still is unless
  /// a later mask grew the table).
  struct MaskBuild {
    var shape: Int32
    var key: Int
    var pitch: Int
    var start = 0
    var count = 0
    var scratch = 0
    var slot = 0
  }

  /// Where `ring` (a visible one: `RasterFrame.forEachVisibleRing`) lands on `target`, with
  /// its mask's cache key in `first` and `count` -1 (`resolveMasks` puts the mask's chunks
  /// there); `count` 0 for a culled ring.
  @inline(__always)
  func placement(
    of ring: RingInstance, shape: RingMaskShape, target: PixelTarget, offsetsFit: Bool
  ) -> Placement {
    let reach = Float(shape.reach)
    // Culled before any arithmetic that could overflow.
    let cx = ring.centerX - target.originX
    let cy = ring.centerY - target.originY
    guard cx > -reach, cy > -reach, cx < Float(target.width) + reach,
      cy < Float(target.height) + reach
    else { return Placement() }
    // Anchor pixel and sub-pixel step of the centre, from its own coordinates (so the
    // target's corner never changes the rounding).
    let (ax, sx) = shape.keys.anchor(ring.centerX)
    let (ay, sy) = shape.keys.anchor(ring.centerY)
    let px = ax - target.originPixelX
    let py = ay - target.originPixelY
    let key = shape.keys.key(phase: shape.keys.phase(ofDegrees: ring.angle), sx: sx, sy: sy)
    let c = ring.color
    return Placement(
      keyOrFirstChunk: Int(truncatingIfNeeded: shape.cacheKey(key)), count: -1, px: px, py: py,
      color: 0xFF00_0000 | UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b),
      alphaWeight: UInt32(c.a) + UInt32(c.a >> 7),
      insideX: px - shape.reach >= 0 && px + shape.reach < target.width && offsetsFit)
  }

  /// Rings looked up this many placements ahead of the one whose mask is resolved.
  static let keyPrefetchDistance = 16

  /// Replaces each placement's key by its mask's chunks in `cache`, building the masks not
  /// held yet (each once, however many rings or equal shapes need it), and drops the
  /// placements whose mask is empty. A held mask is stamped `now` (`CachePolicy.reusedBit` set
  /// when an earlier draw made it) and moved to `pitches[shape]` if it was stored at another.
  /// In a scene of moving rings the keys are random over a table larger than the nearer
  /// caches, so the slot `keyPrefetchDistance` placements ahead is asked for first.
  func resolveMasks(
    _ placed: inout [Placement], shapes: [RingMaskShape?], pitches: [Int], cache: MaskCache,
    now: UInt32, threads: Int
  ) {
    var builds: [MaskBuild] = []
    var waiting: [(placement: Int32, build: Int32)] = []
    swap(&builds, &frameBuilds)
    swap(&waiting, &frameWaiting)
    defer {
      builds.removeAll(keepingCapacity: true)
      waiting.removeAll(keepingCapacity: true)
      swap(&builds, &frameBuilds)
      swap(&waiting, &frameWaiting)
    }
    var table = cache.table
    var kept = 0
    let n = placed.count
    for i in 0..<n {
      if i + Self.keyPrefetchDistance < n {
        let ahead = placed[i + Self.keyPrefetchDistance].keyOrFirstChunk
        prefetch(table.slots + table.home(UInt64(bitPattern: Int64(ahead))))
      }
      var p = placed[i]
      let key = UInt64(bitPattern: Int64(p.keyOrFirstChunk))
      var m = table.slot(key)
      if m.pointee.key == MaskCache.empty {
        builds.append(
          MaskBuild(shape: p.shape, key: Int(key & 0x7F_FFFF), pitch: pitches[Int(p.shape)]))
        m = cache.add(
          MaskCache.Slot(key: key, start: -1, count: Int32(builds.count - 1), stamp: now, pitch: 0))
        table = cache.table
        builds[builds.count - 1].slot = m - table.slots
      }
      if m.pointee.start < 0 {
        waiting.append((Int32(kept), m.pointee.count))
        placed[kept] = p
        kept += 1
        continue
      }
      // Written only when it changes: rings sharing a mask dirty its line once.
      let stamp = CachePolicy.used(m.pointee.stamp, at: now)
      if stamp != m.pointee.stamp { m.pointee.stamp = stamp }
      if Int(m.pointee.pitch) != pitches[Int(p.shape)] {
        cache.repitch(m, to: pitches[Int(p.shape)])
      }
      guard m.pointee.count > 0 else { continue }
      p.keyOrFirstChunk = Int(m.pointee.start)
      p.count = Int(m.pointee.count)
      placed[kept] = p
      kept += 1
    }
    placed.removeLast(n - kept)
    guard !builds.isEmpty else { return }
    build(&builds, shapes: shapes, cache: cache, now: now, threads: threads)
    // Into the arena in the order they were asked for, then to the placements.
    for b in builds.indices {
      let s = scratches[builds[b].scratch]
      builds[b].start = cache.append(s.chunks + builds[b].start, count: builds[b].count)
      let key = shapes[Int(builds[b].shape)]!.cacheKey(builds[b].key)
      var m = cache.slots + builds[b].slot
      if m.pointee.key != key { m = cache.table.slot(key) }
      m.pointee.start = Int32(builds[b].start)
      m.pointee.count = Int32(builds[b].count)
      m.pointee.pitch = Int32(builds[b].pitch)
    }
    for (i, b) in waiting {
      placed[Int(i)].keyOrFirstChunk = builds[Int(b)].start
      placed[Int(i)].count = builds[Int(b)].count
    }
    // A mask with no pixels (a ring too faint to cover any) is dropped as at the lookup.
    if waiting.contains(where: { placed[Int($0.placement)].count == 0 }) {
      placed.removeAll { $0.count == 0 }
    }
    for i in scratches.indices where scratches[i].capacity > Self.keptScratchChunks {
      scratches[i] = MaskScratch()
    }
  }

  /// Chunks a build scratch keeps between draws (512 KiB).
  static let keptScratchChunks = 1 << 16

  /// Fewest masks to build before the workers are woken: below it the calling thread builds
  /// them sooner alone (a mask builds in microseconds, about what waking a worker costs;
  /// Benchmarks/README.md has the cost of a mask).
  static let minimumBuildsForThreads = 8

  /// Builds `builds` on up to `threads` threads: the grids they read that `cache` lacks first
  /// (each by one thread), then the masks in pieces, each piece into its own scratch
  /// (`MaskBuilds`).
  func build(
    _ builds: inout [MaskBuild], shapes: [RingMaskShape?], cache: MaskCache, now: UInt32,
    threads: Int
  ) {
    let workers = builds.count >= Self.minimumBuildsForThreads ? max(1, threads) : 1
    let pieces = min(builds.count, 4 * workers)
    while scratches.count < pieces { scratches.append(MaskScratch()) }
    for s in scratches { s.count = 0 }
    var grids: [RingDistanceGrid?] = []
    swap(&grids, &frameGrids)
    defer {
      grids.removeAll(keepingCapacity: true)
      swap(&grids, &frameGrids)
    }
    grids.append(contentsOf: repeatElement(nil, count: shapes.count))
    var missing: [DashedRing] = []
    for b in builds {
      guard let unit = shapes[Int(b.shape)]!.grid?.unit, grids[Int(b.shape)] == nil else {
        continue
      }
      if let g = cache.grids[unit] {
        grids[Int(b.shape)] = g.grid
        cache.grids[unit]!.stamp = CachePolicy.used(g.stamp, at: now)
      } else if !missing.contains(unit) {
        missing.append(unit)
      }
    }
    if !missing.isEmpty {
      var made = [RingDistanceGrid?](repeating: nil, count: missing.count)
      made.withUnsafeMutableBufferPointer { made in
        missing.withUnsafeBufferPointer { missing in
          WorkerPool.forEachRange(
            missing.count, pieces: missing.count, workers: workers,
            GridBuilds(units: missing, grids: made))
        }
      }
      for (unit, grid) in zip(missing, made) { cache.grids[unit] = (grid!, now) }
      for b in builds {
        if let unit = shapes[Int(b.shape)]!.grid?.unit {
          grids[Int(b.shape)] = cache.grids[unit]!.grid
        }
      }
    }
    // Built shape by shape, phase by phase (they were asked for in the rings' order): the
    // masks of one shape read one grid, and masks of nearby phases read the same nodes, so a
    // build finds them in the nearer caches. The arena still takes them in the order they
    // were asked for.
    var order: [UInt64] = []
    swap(&order, &buildOrder)
    defer {
      order.removeAll(keepingCapacity: true)
      swap(&order, &buildOrder)
    }
    let sortable = builds.count < 1 << 20 && shapes.count < 1 << 21
    for (i, b) in builds.enumerated() {
      order.append(sortable ? UInt64(b.shape) << 43 | UInt64(b.key) << 20 | UInt64(i) : UInt64(i))
    }
    if sortable { order.sort() }
    builds.withUnsafeMutableBufferPointer { builds in
      shapes.withUnsafeBufferPointer { shapes in
        grids.withUnsafeBufferPointer { grids in
          scratches.withUnsafeBufferPointer { scratches in
            order.withUnsafeBufferPointer { order in
              let job = MaskBuilds(
                builds: builds, order: order, indexBits: sortable ? 0xF_FFFF : UInt64.max,
                shapes: shapes, grids: grids, scratches: scratches, pieces: pieces)
              WorkerPool.forEachRange(pieces, pieces: pieces, workers: workers, job)
            }
          }
        }
      }
    }
  }
}

/// A draw's missing distance grids (a `WorkerPool` job over them).
// @unchecked Sendable: each grid is one index, made and written by one worker into its own
// element of `grids`; the units are read only. Nothing else reads `grids` until
// `forEachRange` returns.
struct GridBuilds: RangeJob, @unchecked Sendable {
  let units: UnsafeBufferPointer<DashedRing>
  let grids: UnsafeMutableBufferPointer<RingDistanceGrid?>
  func run(_ range: Range<Int>) { for i in range { grids[i] = RingDistanceGrid(unit: units[i]) } }
}

/// A draw's masks to build, in `pieces` runs of `order` (a `WorkerPool` job over piece
/// indices).
// @unchecked Sendable: piece `p` writes only `scratches[p]` and the builds its run of
// `order` names (each build once in `order`), which no other piece reads or writes; the
// shapes, grids and order are read only (the grids were made before), and the process's build
// counters are atomic. Nothing else touches the builds or the scratches until `forEachRange`
// returns.
struct MaskBuilds: RangeJob, @unchecked Sendable {
  let builds: UnsafeMutableBufferPointer<CoverageSpanKernel.MaskBuild>
  /// The builds in the order they are made: each one's index in the bits `indexBits` keeps.
  let order: UnsafeBufferPointer<UInt64>
  let indexBits: UInt64
  let shapes: UnsafeBufferPointer<RingMaskShape?>
  /// By shape index: the grid its masks read.
  let grids: UnsafeBufferPointer<RingDistanceGrid?>
  let scratches: UnsafeBufferPointer<MaskScratch>
  let pieces: Int

  func run(_ range: Range<Int>) {
    let start = MaskCache.nanoseconds()
    var chunks = 0
    for p in range {
      let scratch = scratches[p]
      for o in (p * builds.count / pieces)..<((p + 1) * builds.count / pieces) {
        let b = Int(truncatingIfNeeded: order[o] & indexBits)
        let s = Int(builds[b].shape)
        (builds[b].start, builds[b].count) = shapes[s]!.buildMask(
          builds[b].key, pitch: builds[b].pitch, grid: grids[s], into: scratch)
        builds[b].scratch = p
        chunks += builds[b].count
      }
    }
    MaskCache.maskChunksBuilt.wrappingAdd(chunks, ordering: .relaxed)
    MaskCache.maskBuildNanoseconds.wrappingAdd(
      MaskCache.nanoseconds() - start, ordering: .relaxed)
  }
}
