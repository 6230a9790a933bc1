import LoaderCore

extension CoverageSpanKernel {
  /// Frames of fewer rings are blended on the calling thread alone: their blending is shorter
  /// than waking the workers.
  static let minimumRingsForThreads = 256

  /// Blends every ring's mask into `target`, band by band (`RingBandBuckets`).
  ///
  /// Per pixel of coverage `c` (0...255, as the weight `w = c + c >> 7` in 0...256) and a
  /// colour of alpha `a` (as `A = a + a >> 7`), each channel in a 16-bit lane:
  /// ```
  /// W   = w * A >> 8          (w itself when the colour is opaque)
  /// dst = (src * W + dst * (256 - W)) >> 8
  /// ```
  /// with the source's own alpha channel 255: Porter-Duff "over" of a straight-alpha colour
  /// at coverage `c`, `out = src * a * c + dst * (1 - a * c)`, for straight and premultiplied
  /// destinations alike.
  /// - Returns: a rectangle of `target` (its own pixels) that holds every pixel changed,
  ///   nil when none was.
  @discardableResult
  func blend(
    _ frame: RasterFrame, shapes: FrameShapes, region: PixelRegion,
    into target: PixelTarget
  ) -> ChangedPixels? {
    let threads = frame.threads
    // Filled as locals (see the README); the capacity is dropped when the scene has shrunk to
    // a small part of it.
    var placed: [Placement] = []
    swap(&placed, &placements)
    defer { swap(&placed, &placements) }
    if placed.capacity > 4 * frame.rings.count + 4096 {
      placed = []
    }
    placed.removeAll(keepingCapacity: true)
    // Every mask of the frame is built: the arena stays put until the next draw.
    var masks: [ShapeMasks] = []
    swap(&masks, &frameMasks)
    defer { swap(&masks, &frameMasks) }
    place(
      frame, shapes: shapes.shapes, region: region, target: target, into: &placed, masks: &masks)
    guard !masks.isEmpty else { return nil }
    var changed = ChangedPixels()
    for p in placed {
      let m = masks[Int(p.shape)]
      changed.add(x: p.px, y: p.py, reach: m.reach, rowReach: m.rowReach)
    }
    let reach = shapes.maximumReach
    // Bands of `RingBandBuckets.bandBytes` of frame stay in a core's L2 cache while every
    // ring over them is drawn, with the next band streaming in beside them and the rings'
    // masks passing through; a random scene otherwise misses on nearly every row of every
    // ring (larger bands and the next one filled the cache; smaller ones left more rings
    // straddling two bands: Benchmarks/README.md, "Figures behind the code"). With several
    // threads, at least two bands each, so that uneven bands even out.
    let workers = placed.count >= Self.minimumRingsForThreads ? max(1, threads) : 1
    let cacheRows = RingBandBuckets.bandBytes / max(1, target.pitch)
    let shareRows = (target.height + 2 * workers - 1) / (2 * workers)
    let bandRows = max(2 * reach, workers > 1 ? min(cacheRows, shareRows) : cacheRows)
    placed.withUnsafeBufferPointer { placed in
      masks.withUnsafeBufferPointer { masks in
        bands.schedule(count: placed.count, height: target.height, bandRows: bandRows) { i in
          let r = masks[Int(placed[i].shape)].rowReach
          return (placed[i].py - r, placed[i].py + r)
        }
        bands.withBands { bandStart, items in
          let banded = BandedFrame(
            placed: placed, bandStart: bandStart, items: items, bandCount: bands.bandCount,
            bandRows: bands.bandRows, masks: masks, target: target)
          // A share of whole bands per worker: a band streams the next one in only within
          // its share.
          WorkerPool.forEachRange(banded.bandCount, pieces: workers, workers: workers, banded)
        }
      }
    }
    return changed.clipped(width: target.width, height: target.height)
  }

  /// Appends where each visible ring lands (culled, transparent and shapeless rings left
  /// out), building the masks it needs, and each shape's masks as the blender reads them
  /// (empty when the frame has no shape).
  func place(
    _ frame: RasterFrame, shapes: [RingMaskShape?], region: PixelRegion,
    target: PixelTarget, into placed: inout [Placement], masks: inout [ShapeMasks]
  ) {
    masks.removeAll(keepingCapacity: true)
    let cache = frame.masks
    guard let any = shapes.first(where: { $0 != nil }) ?? nil else { return }
    var pitches: [Int] = []
    swap(&pitches, &framePitches)
    defer { swap(&pitches, &framePitches) }
    pitches.removeAll(keepingCapacity: true)
    for s in shapes { pitches.append((s ?? any).storedPitch(forTarget: target.pitch)) }
    pitches.withUnsafeBufferPointer { pitches in
      _ = frame.forEachVisibleRing(caches: shapes, in: region) { ring, shape, index in
        let fits = pitches[Int(index)] == target.pitch
        var p = placement(of: ring, shape: shape, target: target, offsetsFit: fits)
        if p.count != 0 {
          p.shape = index
          placed.append(p)
        }
        return true
      }
    }
    resolveMasks(
      &placed, shapes: shapes, pitches: pitches, cache: cache, now: frame.now,
      threads: frame.threads)
    // A shape with nothing to draw has no placements: any shape stands in for it.
    for (k, shape) in shapes.enumerated() {
      let s = shape ?? any
      masks.append(
        ShapeMasks(chunks: cache.chunks, pitch: pitches[k], reach: s.reach, rowReach: s.rowReach))
    }
  }
}

/// One frame's rings sorted into bands, ready to blend (a `WorkerPool` job): everything a
/// worker reads, none of it written, so bands can be blended by several at once. The pointers
/// are read only, except `target`'s pixels, of which each worker writes its own bands' rows.
// @unchecked Sendable: workers read the placements, bands, masks and the target's pointer, none
// of which changes while the job runs (masks are built before it, and the store is not touched
// until `forEachRange` returns); each worker writes only the rows of its own bands, and no two
// workers share a band.
struct BandedFrame: RangeJob, @unchecked Sendable {
  let placed: UnsafeBufferPointer<CoverageSpanKernel.Placement>
  let bandStart: UnsafeBufferPointer<Int32>
  let items: UnsafeBufferPointer<Int32>
  let bandCount: Int
  let bandRows: Int
  /// By shape index (`Placement.shape`).
  let masks: UnsafeBufferPointer<ShapeMasks>
  let target: PixelTarget

  /// Rings between a mask's prefetch and its blending.
  static let maskDistance = 4

  /// Blends bands `range` in order, each over its own rows only.
  func run(_ range: Range<Int>) {
    for b in range {
      let top = b * bandRows
      let bottom = min(target.height, top + bandRows)
      let first = Int(bandStart[b])
      let end = Int(bandStart[b + 1])
      // Where rings crowd the next band (four chunks to each of its cache lines: about
      // two touches a line, as a row's chunks come in pairs, so nearly every line is
      // used), stream the whole band in, a slice per ring of this one: sequential lines
      // arrive at memory bandwidth instead of one row-miss at a time. Sparser bands
      // leave most of the streamed lines untouched, and streaming them measured slower
      // than the misses.
      var streamFrom = target.base
      var streamEnd = target.base
      var streamStep = 0
      if b + 1 < range.upperBound, end > first {
        let nextTop = bottom
        let nextBottom = min(target.height, nextTop + bandRows)
        let lines = (nextBottom - nextTop) * target.pitch / 64
        // Every ring of a frame has about as many chunks as this band's first.
        let chunksNext = (Int(bandStart[b + 2]) - end) * placed[Int(items[first])].count
        if chunksNext >= 4 * lines {
          streamFrom = target.base + nextTop * target.pitch
          streamEnd = target.base + nextBottom * target.pitch
          streamStep = (lines + (end - first) - 1) / (end - first) * 64
        }
      }
      for k in first..<end {
        if streamStep > 0 {
          let stop = min(streamEnd, streamFrom + streamStep)
          while streamFrom < stop {
            prefetch(streamFrom)
            streamFrom += 64
          }
        }
        // Ahead of the blending: ring k + 8's placement (a band reads the placements out
        // of order, a miss each where rings are scattered) and ring k + 4's whole mask
        // (`Blend` records, three or four lines for a ring ten pixels across; a moving
        // scene's masks come from all over a store of tens of megabytes). The distances and
        // what they bought are in Benchmarks/README.md, "Figures behind the code"; the rows
        // of frame, asked for a ring ahead, bought nothing: the hardware finds them as soon.
        if k + 8 < end, let base = placed.baseAddress {
          prefetch(base + Int(items[k + 8]))
        }
        if k + Self.maskDistance < end {
          let p = placed[Int(items[k + Self.maskDistance])]
          prefetchLines(masks[Int(p.shape)].chunks + p.keyOrFirstChunk, count: p.count)
        }
        let p = placed[Int(items[k])]
        let m = masks[Int(p.shape)]
        let rows = top..<bottom
        if !p.insideX {
          CoverageSpanKernel.blendClipped(p, masks: m, target: target, rows: rows)
        } else if p.alphaWeight < 256 {
          CoverageSpanKernel.blendUnclipped(
            p, translucent: true, masks: m, target: target, rows: rows)
        } else {
          CoverageSpanKernel.blendUnclipped(
            p, translucent: false, masks: m, target: target, rows: rows)
        }
      }
    }
  }
}

/// The pixels a draw changed, as a rectangle of its target: the union of every drawn ring's
/// reach around its anchor (a few pixels wider than its ink), cut to the target.
package struct ChangedPixels: Equatable, Sendable {
  package var minX = Int.max
  package var minY = Int.max
  package var maxX = Int.min
  package var maxY = Int.min

  /// Adds a ring anchored at `(x, y)` whose mask reaches `reach` columns and `rowReach` rows.
  @inline(__always)
  mutating func add(x: Int, y: Int, reach: Int, rowReach: Int) {
    minX = min(minX, x - reach)
    maxX = max(maxX, x + reach)
    minY = min(minY, y - rowReach)
    maxY = max(maxY, y + rowReach)
  }

  /// `(x, y, width, height)` within `width` x `height`, nil when empty.
  func clipped(width: Int, height: Int) -> ChangedPixels? {
    var c = self
    c.minX = max(0, minX)
    c.minY = max(0, minY)
    c.maxX = min(width - 1, maxX)
    c.maxY = min(height - 1, maxY)
    return c.minX <= c.maxX && c.minY <= c.maxY ? c : nil
  }
}
