import Foundation
import LoaderCore

/// Where a mask build writes: chunks past `count`, and one row's coverage. Each thread
/// building masks has its own (`CoverageSpanKernel.build`); the chunks then go to the arena.
final class MaskScratch {
  var chunks = PageMemory.allocate(MaskCache.Chunk.self, capacity: 1 << 10)
  var capacity = 1 << 10
  var count = 0
  /// A row's coverage, 8 bytes past the widest row: the grid writes whole fours and the
  /// chunk scan reads eights.
  var row: [UInt8] = []

  deinit { PageMemory.deallocate(chunks, capacity: capacity) }

  /// Room for `extra` more chunks (growing by half).
  func reserve(_ extra: Int) {
    guard count + extra > capacity else { return }
    let bigger = max(count + extra, capacity + capacity / 2)
    let moved = PageMemory.allocate(MaskCache.Chunk.self, capacity: bigger)
    moved.update(from: chunks, count: count)
    PageMemory.deallocate(chunks, capacity: capacity)
    (chunks, capacity) = (moved, bigger)
  }
}

extension RingMaskShape {
  /// Builds the mask of `key` (a `RingPoseKeys` key) at `pitch` into `scratch`: every pixel
  /// of the ring's annulus (plus a pixel of fringe) whose coverage is not 0, row by row, in as
  /// few four-pixel chunks as cover them, reading the distance from `grid` (the shape's
  /// `RingDistanceGrid`, which it must be given when it takes one) or the exact rule.
  /// - Returns: where its chunks start in `scratch`, and how many there are.
  func buildMask(
    _ key: Int, pitch: Int, grid: RingDistanceGrid?, into scratch: MaskScratch
  ) -> (start: Int, count: Int) {
    let s = keys.subpixelSteps
    let (phase, sx, sy) = keys.decode(key)
    let rotation = 2 * Double.pi * Double(phase) / Double(keys.phases)
    let fx = Double(sx) / Double(s)
    let fy = Double(sy) / Double(s)
    let outer = shape.radius + shape.halfWidth + 1
    let (cr, sr) = (cos(rotation), sin(rotation))
    let rowReach = self.rowReach
    let table = self.table
    // Rings under 8 pixels across are held to no reference picture: the one-pixel box
    // builds their masks four times as fast as `coverage(x:y:)`'s quarters would.
    let quarters = outer - 1 >= Self.smallRingRadius
    let grid = self.grid.flatMap { g in grid?.reader(scale: g.scale) }
    let h = shape.halfWidth
    // `coverage(x:y:)` takes quarters for strokes under 2 pixels wide only.
    let gridQuarters = quarters && h < DashedRing.DistanceTable.supersampledBelowHalfWidth
    // Only pixels whose centres lie within `margin` of the annulus can be covered: a centre
    // `d >= 1/2` from the stroke gets none, nor do the quarters of one `d >= 1/2 + sqrt(2)/4`
    // away (each takes `clamp(1/2 - 2 d_q)`, `d_q >= d - sqrt(2)/4`); a sixteenth of a pixel
    // more covers the grid's interpolation (`RingDistanceGrid`: under a hundredth).
    let margin = gridQuarters ? 0.625 : 0.5625
    let (ink, hole) = (shape.radius + h + margin, shape.radius - h - margin)
    // Chunks go past the scratch's last, with room made before each row for as many as the
    // row can have (`width / 4 + 1`: a thick ring's rows above its hole are inked across).
    if scratch.row.count < 2 * reach + 10 {
      scratch.row = [UInt8](repeating: 0, count: 2 * reach + 10)
    }
    var row: [UInt8] = []
    swap(&row, &scratch.row)
    defer { swap(&row, &scratch.row) }
    let first = scratch.count
    var count = 0
    row.withUnsafeMutableBufferPointer { row in
      for j in -rowReach...rowReach {
        let y = Double(j) + 0.5 - fy
        guard abs(y) < ink else { continue }
        // The pixels whose centres lie within `ink` of the ring's centre, ...
        let half = (ink * ink - y * y).squareRoot()
        let lo = Self.ceiling(fx - 0.5 - half)
        let hi = Self.floor(fx - 0.5 + half)
        guard lo <= hi else { continue }
        // ... but not inside the clear disc within `hole`.
        var holeLo = hi + 1
        var holeHi = hi
        if hole > 0, abs(y) < hole {
          let h = (hole * hole - y * y).squareRoot()
          holeLo = Self.ceiling(fx - 0.5 - h)
          holeHi = Self.floor(fx - 0.5 + h)
        }
        // Coverage of the row, then the chunks covering it.
        let width = hi - lo + 1
        if let grid {
          // Both sides of the hole in one run of steps, four pixels a step (the last may run
          // past `hi`: the row has room), from the pixel after the hole also when no pixel
          // centre lies in it (`holeLo == holeHi + 1`: a row crossing the disc near its top
          // or bottom).
          let left = max(0, min(hi, holeLo - 1) - lo + 1)
          let right = hi - max(holeHi, lo - 1)
          grid.coverageRow(
            into: row.baseAddress!, count: left + right, x0: Double(lo) + 0.5 - fx, y: y,
            cos: cr, sin: sr, halfWidth: h, quarters: gridQuarters,
            gapAt: right > 0 ? left : .max, gap: holeHi + 1 - lo - left)
          // The hole's first pixels, which a chunk starting left of it reads (the scan
          // below skips the rest, whatever the row holds there).
          if holeLo <= holeHi {
            for i in holeLo...min(holeHi, holeLo + MaskCache.chunk - 2) { row[i - lo] = 0 }
          }
        } else {
          for i in lo...hi {
            if i >= holeLo && i <= holeHi {
              row[i - lo] = 0
              continue
            }
            let x = Double(i) + 0.5 - fx
            // Turn the pixel back by the rotation instead of turning the ring.
            let (u, v) = (x * cr + y * sr, -x * sr + y * cr)
            let c = quarters ? table.coverage(x: u, y: v) : table.boxCoverage(x: u, y: v)
            row[i - lo] = UInt8((c * 255).rounded())
          }
        }
        // Fewest chunks covering every inked pixel of the row: each chunk starts at the first
        // inked pixel not yet covered (greedy is optimal for covering points with intervals).
        // Chunks never overlap, and zeros inside one cost nothing extra.
        // Eight clear pixels are skipped at once (the row has room past `width` for the
        // read; what lies there only ends the loop sooner). The hole's pixels are clear:
        // the scan takes the row left of it, then from its end (or the last chunk's, where
        // that is further), so only the hole's first three pixels need to read as clear (a
        // chunk starting left of the hole reaches three past it), whatever lies after them.
        scratch.count = first + count
        scratch.reserve(width / MaskCache.chunk + 1)
        let out = scratch.chunks + first + count
        let base = UnsafeRawPointer(row.baseAddress!)
        let rowOffset = j * pitch + lo * 4
        var n = 0
        var i = 0
        var end = holeLo - lo
        while true {
          while i < end {
            guard row[i] != 0 else {
              i += base.loadUnaligned(fromByteOffset: i, as: UInt64.self) == 0 ? 8 : 1
              continue
            }
            // The four bytes as one word (pixel 0 lowest), those past the row's end cleared
            // by a shift (a loop over the lanes went through memory: an eighth of the build).
            var w = base.loadUnaligned(fromByteOffset: i, as: UInt32.self)
            if i + MaskCache.chunk > width {
              w &= UInt32.max >> (8 * (i + MaskCache.chunk - width))
            }
            out[n] = MaskCache.Chunk(
              offset: Int32(truncatingIfNeeded: rowOffset + i * 4),
              coverage: unsafeBitCast(UInt32(littleEndian: w), to: SIMD4<UInt8>.self))
            n += 1
            i += MaskCache.chunk
          }
          guard end < width else { break }
          i = max(i, holeHi + 1 - lo)
          end = width
        }
        count += n
      }
    }
    scratch.count = first + count
    MaskCache.masksBuilt.wrappingAdd(1, ordering: .relaxed)
    return (first, count)
  }

  /// `Int(v.rounded(.up))` for `v` well inside `Int`'s range, without a call to `ceil`.
  @inline(__always)
  static func ceiling(_ v: Double) -> Int {
    let t = Int(v)
    return Double(t) < v ? t + 1 : t
  }

  /// `Int(v.rounded(.down))` for `v` well inside `Int`'s range, without a call to `floor`.
  @inline(__always)
  static func floor(_ v: Double) -> Int {
    let t = Int(v)
    return Double(t) > v ? t - 1 : t
  }
}
