import LoaderCore

extension CoverageSpanKernel {
  /// Where a ring's mask lands: its chunks, anchor pixel, colour, and whether it needs
  /// clipping; `count` 0 for a culled (or non-finite, or fully transparent) ring, -1 while
  /// `first` still holds the mask's key.
  struct Placement {
    var first = 0
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
    /// The ring's shape: its index among the draw's atlases.
    var shape: Int32 = 0
  }

  /// Where `ring` (a visible one: `RasterFrame.forEachVisibleRing`) lands on `target`, with
  /// its mask's key in `first` and `count` -1 (`resolveMasks(_:atlases:)` puts the mask's
  /// chunks there); `count` 0 for a culled ring.
  @inline(__always)
  func placement(
    of ring: RingInstance, atlas: RingCoverageAtlas, target: PixelTarget, offsetsFit: Bool
  ) -> Placement {
    let reach = Float(atlas.reach)
    // Culled before any arithmetic that could overflow.
    let cx = ring.centerX - target.originX
    let cy = ring.centerY - target.originY
    guard cx > -reach, cy > -reach, cx < Float(target.width) + reach,
      cy < Float(target.height) + reach
    else { return Placement() }
    // Anchor pixel and sub-pixel step of the centre, from its own coordinates (so the
    // target's corner never changes the rounding).
    let (ax, sx) = atlas.keys.anchor(ring.centerX)
    let (ay, sy) = atlas.keys.anchor(ring.centerY)
    let px = ax - target.originPixelX
    let py = ay - target.originPixelY
    let key = atlas.key(phase: atlas.phase(ofDegrees: ring.angle), sx: sx, sy: sy)
    let c = ring.color
    return Placement(
      first: key, count: -1, px: px, py: py,
      color: 0xFF00_0000 | UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b),
      alphaWeight: UInt32(c.a) + UInt32(c.a >> 7),
      insideX: px - atlas.reach >= 0 && px + atlas.reach < target.width && offsetsFit)
  }

  /// Rings looked up this many placements ahead of the one whose mask is resolved.
  static let keyPrefetchDistance = 16

  /// Replaces each placement's key (`placement(of:...)`) by its mask's chunks, building the
  /// masks not built yet, and drops the placements whose mask is empty. Each lookup is a probe
  /// of a shape's key table (`RingCoverageAtlas.KeyTable`: usually its first slot); in a scene
  /// of moving rings the keys are random and the tables of a few dozen shapes exceed the
  /// nearer caches, so the slot `keyPrefetchDistance` placements ahead is asked for first and
  /// the misses overlap instead of queueing.
  ///
  /// The masks not built yet are built after the lookups, on up to `threads` threads
  /// (`buildMissingMasks`): each shape's on one thread, since an atlas is not shared.
  func resolveMasks(_ placed: inout [Placement], atlases: [RingCoverageAtlas?], threads: Int = 1) {
    guard let any = atlases.first(where: { $0 != nil }) ?? nil else { return }
    // Each shape's key table as plain pointers: no reference counting per ring (a shape with
    // nothing to draw has no placements, so any atlas stands in for it). Valid until the
    // first mask is built (after the lookups). Kept between frames (locals: see the README).
    var tables: [RingCoverageAtlas.KeyTable] = []
    swap(&tables, &frameKeyTables)
    defer { swap(&tables, &frameKeyTables) }
    tables.removeAll(keepingCapacity: true)
    for atlas in atlases { tables.append((atlas ?? any).maskTable) }
    var clocks: [UInt32] = []
    swap(&clocks, &frameClocks)
    defer { swap(&clocks, &frameClocks) }
    clocks.removeAll(keepingCapacity: true)
    for atlas in atlases { clocks.append((atlas ?? any).frame) }
    var misses: [Int32] = []
    swap(&misses, &frameMisses)
    defer { swap(&misses, &frameMisses) }
    misses.removeAll(keepingCapacity: true)
    let ahead = Self.keyPrefetchDistance
    let kept = placed.withUnsafeMutableBufferPointer { placed in
      tables.withUnsafeBufferPointer { tables in
        clocks.withUnsafeBufferPointer { clocks in
          let n = placed.count
          var kept = 0
          for i in 0..<n {
            if i + ahead < n {
              let q = placed[i + ahead]
              let table = tables[Int(q.shape)]
              prefetch(table.slots + table.home(q.first))
            }
            var p = placed[i]
            let entry = tables[Int(p.shape)].slot(p.first)
            let m = entry.pointee
            if m.key >= 0 {
              // Written only when it changes: rings sharing a mask dirty its line once.
              let clock = clocks[Int(p.shape)]
              if m.stamp != clock { entry.pointee.stamp = clock }
            } else if atlases[Int(p.shape)] != nil {
              // Built after the lookups; `first` keeps the key until then.
              misses.append(Int32(kept))
              placed[kept] = p
              kept += 1
              continue
            }
            guard m.count > 0 else { continue }
            p.first = Int(m.start)
            p.count = Int(m.count)
            placed[kept] = p
            kept += 1
          }
          return kept
        }
      }
    }
    placed.removeLast(placed.count - kept)
    guard !misses.isEmpty else { return }
    buildMissingMasks(misses, in: &placed, atlases: atlases, threads: threads)
    // A mask with no pixels (a ring too faint to cover any) is dropped as at the lookup.
    if misses.contains(where: { placed[Int($0)].count == 0 }) {
      placed.removeAll { $0.count == 0 }
    }
  }

  /// Fewest masks to build before the workers are woken: below it the calling thread builds
  /// them sooner alone (a mask takes 5-50 us, waking a worker some microseconds).
  static let minimumMissesForThreads = 8

  /// Builds (or finds: two rings may need the same one) the mask of each placement of
  /// `misses`, whose `first` holds its key, and puts its chunks there. The misses are grouped
  /// by shape (a counting sort over the shape indices), and the shapes shared among up to
  /// `threads` threads, each shape's masks built by one (`MaskBuilds`).
  func buildMissingMasks(
    _ misses: [Int32], in placed: inout [Placement], atlases: [RingCoverageAtlas?],
    threads: Int
  ) {
    var order: [Int32] = []
    var groups: [Int32] = []
    swap(&order, &frameMissOrder)
    swap(&groups, &frameMissGroups)
    defer {
      swap(&order, &frameMissOrder)
      swap(&groups, &frameMissGroups)
    }
    // Counting sort in one array: shape `s`'s count at `s + 2`; after the prefix sums
    // `groups[s + 1]` is where its group starts, and the cursor filling it; after the fill,
    // `groups[s + 1]` is where it ends, so the group is `groups[s] ..< groups[s + 1]`.
    let shapes = atlases.count
    groups.removeAll(keepingCapacity: true)
    groups.append(contentsOf: repeatElement(0, count: shapes + 2))
    for i in misses { groups[Int(placed[Int(i)].shape) + 2] += 1 }
    for k in 1...shapes { groups[k + 1] += groups[k] }
    order.removeAll(keepingCapacity: true)
    order.append(contentsOf: repeatElement(0, count: misses.count))
    for i in misses {
      let s = Int(placed[Int(i)].shape) + 1
      order[Int(groups[s])] = i
      groups[s] += 1
    }
    let workers = misses.count >= Self.minimumMissesForThreads ? max(1, threads) : 1
    placed.withUnsafeMutableBufferPointer { placed in
      order.withUnsafeBufferPointer { order in
        groups.withUnsafeBufferPointer { groups in
          atlases.withUnsafeBufferPointer { atlases in
            let job = MaskBuilds(placed: placed, order: order, groups: groups, atlases: atlases)
            // Many more pieces than workers: shapes differ in what they build, and a worker
            // takes the next piece when it is done with one.
            WorkerPool.forEachRange(
              shapes, pieces: min(shapes, 16 * workers), workers: workers, job)
          }
        }
      }
    }
  }
}

/// A frame's masks to build, shape by shape (a `WorkerPool` job over shape indices).
// @unchecked Sendable: each shape index belongs to one piece, so each atlas is used by one
// worker only (building a mask changes nothing outside its atlas but the process's
// `masksBuilt` counter, an atomic); each worker writes only the placements of its shapes'
// misses, which no other worker reads or writes; the order, groups and atlas list are read only.
// Nothing else touches the atlases or the placements until `forEachRange` returns.
struct MaskBuilds: RangeJob, @unchecked Sendable {
  let placed: UnsafeMutableBufferPointer<CoverageSpanKernel.Placement>
  /// Placement indices, grouped by shape.
  let order: UnsafeBufferPointer<Int32>
  /// Shape `s`'s placements are `order[groups[s] ..< groups[s + 1]]`.
  let groups: UnsafeBufferPointer<Int32>
  let atlases: UnsafeBufferPointer<RingCoverageAtlas?>

  func run(_ range: Range<Int>) {
    for s in range where groups[s] < groups[s + 1] {
      guard let atlas = atlases[s] else { continue }
      for k in Int(groups[s])..<Int(groups[s + 1]) {
        let i = Int(order[k])
        let (start, count) = atlas.mask(placed[i].first)
        placed[i].first = start
        placed[i].count = count
      }
    }
  }
}
