import CSwiftLoaderSDL2

/// The few rectangles a painted ring is copied in, so the copy skips most of the ring's
/// clear middle and its corners.
///
/// A renderer's copy costs about `overhead` pixels' worth of work per rectangle plus one
/// blend per pixel, transparent or not, and a ring's ink is a thin annulus. The rows are cut
/// into bands; a band crossing the hole becomes two rectangles (left and right of it), one
/// elsewhere; the cut minimizes
/// ```
/// sum over rectangles of (width * height + overhead)
/// ```
/// by dynamic programming over the rows (bands of at most `maximumBandRows`), so a thin
/// ring takes a handful of bands and a filled disc one rectangle. Its buffers are kept from
/// one cut to the next: cutting allocates nothing once they have grown.
struct GfxAtlasStrips {
  /// Per row of ink: the first and last inked columns, and the widest run of clear pixels
  /// between them (`gapStart..<gapEnd`, empty when there is none).
  struct Row {
    var first: Int
    var last: Int
    var gapStart: Int
    var gapEnd: Int
  }

  static let maximumBandRows = 24

  /// The last cut's rectangles.
  private(set) var rects: [SDL_Rect] = []
  private var rows: [Row] = []
  private var best: [Int] = []
  private var from: [Int] = []

  /// Sets `rects` to rectangles covering every pixel of nonzero alpha in `ink` (a rectangle
  /// of the `pitch`-byte ARGB8888 rows at `pixels`), in the same coordinates, each such
  /// pixel once; none for an empty `ink`.
  mutating func cover(_ pixels: UnsafeRawPointer, pitch: Int, ink: SDL_Rect, overhead: Int) {
    rects.removeAll(keepingCapacity: true)
    rows.removeAll(keepingCapacity: true)
    guard ink.w > 0, ink.h > 0 else { return }
    let x0 = Int(ink.x)
    let y0 = Int(ink.y)
    for j in y0..<(y0 + Int(ink.h)) {
      let line = pixels.advanced(by: j * pitch).assumingMemoryBound(to: UInt32.self)
      var row = Row(first: -1, last: -1, gapStart: 0, gapEnd: 0)
      for i in x0..<(x0 + Int(ink.w)) where line[i] >> 24 != 0 {
        if row.first < 0 {
          row.first = i
        } else if i - row.last - 1 > row.gapEnd - row.gapStart {
          row.gapStart = row.last + 1
          row.gapEnd = i
        }
        row.last = i
      }
      rows.append(row)
    }
    // best[k]: the cheapest cover of rows 0..<k, reached by a band starting at from[k].
    // Bands ending at `end` grow upwards one row at a time, so each is one more `add`.
    let n = rows.count
    best.removeAll(keepingCapacity: true)
    best.append(contentsOf: repeatElement(.max, count: n + 1))
    from.removeAll(keepingCapacity: true)
    from.append(contentsOf: repeatElement(0, count: n + 1))
    best[0] = 0
    for end in 1...n {
      var band = Band()
      for start in stride(from: end - 1, through: max(0, end - Self.maximumBandRows), by: -1) {
        band.add(rows[start])
        let c = best[start] + band.cost(rows: end - start, overhead: overhead)
        if c < best[end] {
          best[end] = c
          from[end] = start
        }
      }
    }
    // Bands from the bottom up, each right then left: reversed at the end into reading order.
    var end = n
    while end > 0 {
      let start = from[end]
      var band = Band()
      for r in rows[start..<end] { band.add(r) }
      band.append(top: y0 + start, rows: end - start, to: &rects)
      end = start
    }
    rects.reverse()
  }

  /// The rows of one band, summed up: two rectangles when every inked row leaves a common
  /// clear column range between a left and a right part, else one around all its ink.
  private struct Band {
    var lo = Int.max
    var hi = Int.min
    var leftEnd = Int.min
    var rightStart = Int.max
    var split = true

    mutating func add(_ r: Row) {
      guard r.first >= 0 else { return }
      lo = min(lo, r.first)
      hi = max(hi, r.last)
      split = split && r.gapEnd > r.gapStart
      leftEnd = max(leftEnd, r.gapStart)
      rightStart = min(rightStart, r.gapEnd)
    }

    private var isSplit: Bool { split && leftEnd < rightStart }

    func cost(rows: Int, overhead: Int) -> Int {
      guard lo <= hi else { return 0 }
      if isSplit { return (leftEnd - lo + hi - rightStart + 1) * rows + 2 * overhead }
      return (hi - lo + 1) * rows + overhead
    }

    /// Appends the band's rectangles, right before left.
    func append(top: Int, rows: Int, to rects: inout [SDL_Rect]) {
      guard lo <= hi else { return }
      let (y, h) = (Int32(top), Int32(rows))
      guard isSplit else {
        rects.append(SDL_Rect(x: Int32(lo), y: y, w: Int32(hi - lo + 1), h: h))
        return
      }
      rects.append(SDL_Rect(x: Int32(rightStart), y: y, w: Int32(hi - rightStart + 1), h: h))
      rects.append(SDL_Rect(x: Int32(lo), y: y, w: Int32(leftEnd - lo), h: h))
    }
  }
}
