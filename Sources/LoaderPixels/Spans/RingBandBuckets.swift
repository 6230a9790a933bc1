/// Per horizontal band of the target, the rings that touch it, in the caller's order: the
/// order a CPU backend visits rings in so the frame's rows stay in cache. The target is cut
/// into bands of about `bandBytes`, and each band draws the part of every ring that falls in it.
/// Each pixel lies in exactly one band, so overlapping rings still stack exactly as given, a
/// ring straddling a boundary is drawn in two parts, and bands can be drawn on different
/// threads with no pixel written by two.
///
/// A counting sort into buffers kept between frames: nothing is allocated once warmed up, and
/// the buffers shrink again when a scene needs far fewer entries than they hold.
final class RingBandBuckets {
  /// Bytes of frame a band holds, about: it and the next one stay in a core's L2 cache.
  static let bandBytes = 384 << 10
  private(set) var bandRows = 0
  private(set) var bandCount = 0
  /// Items of band `b` are `items[bandStart[b] ..< bandStart[b + 1]]`.
  private(set) var bandStart: [Int32] = []
  private(set) var items: [Int32] = []
  private var fill: [Int32] = []

  /// Buckets item `i`, which covers rows `rows[i]` (clamped to the target), into bands of
  /// `bandRows` rows over `height` rows.
  func schedule(count: Int, height: Int, bandRows: Int, rows: (Int) -> (lo: Int, hi: Int)) {
    let bandRows = max(1, bandRows)
    let bandCount = max(1, (height + bandRows - 1) / bandRows)
    self.bandRows = bandRows
    self.bandCount = bandCount
    if bandStart.count < bandCount + 1 {
      bandStart = [Int32](repeating: 0, count: bandCount + 1)
      fill = [Int32](repeating: 0, count: bandCount + 1)
    }
    // Local buffers throughout (locals: see the README).
    let total = bandStart.withUnsafeMutableBufferPointer { start in
      for b in 0...bandCount { start[b] = 0 }
      var total = 0
      for i in 0..<count {
        let (lo, hi) = Self.bandRange(rows(i), bandRows: bandRows, bandCount: bandCount)
        guard lo <= hi else { continue }
        for b in lo...hi { start[b + 1] += 1 }
        total += hi - lo + 1
      }
      for b in 0..<bandCount { start[b + 1] += start[b] }
      return total
    }
    if items.count < total || items.count > 4 * total + 4096 {
      items = [Int32](
        repeating: 0, count: items.count < total ? max(total, items.count * 2) : total)
    }
    bandStart.withUnsafeBufferPointer { start in
      fill.withUnsafeMutableBufferPointer { fill in
        items.withUnsafeMutableBufferPointer { items in
          for b in 0..<bandCount { fill[b] = start[b] }
          for i in 0..<count {
            let (lo, hi) = Self.bandRange(rows(i), bandRows: bandRows, bandCount: bandCount)
            guard lo <= hi else { continue }
            for b in lo...hi {
              items[Int(fill[b])] = Int32(i)
              fill[b] += 1
            }
          }
        }
      }
    }
  }

  /// `bandStart` and `items` for the duration of `body` (see their documentation).
  func withBands<R>(_ body: (UnsafeBufferPointer<Int32>, UnsafeBufferPointer<Int32>) -> R) -> R {
    bandStart.withUnsafeBufferPointer { start in
      items.withUnsafeBufferPointer { items in body(start, items) }
    }
  }

  /// Bands touched by rows `lo...hi` (clamped), or an empty range.
  @inline(__always)
  private static func bandRange(_ r: (lo: Int, hi: Int), bandRows: Int, bandCount: Int) -> (
    Int, Int
  ) {
    let lo = max(0, r.lo)
    let hi = min(bandCount * bandRows - 1, r.hi)
    guard lo <= hi else { return (1, 0) }
    return (lo / bandRows, hi / bandRows)
  }
}
