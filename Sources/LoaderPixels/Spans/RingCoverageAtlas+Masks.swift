import Foundation
import LoaderCore

extension RingCoverageAtlas {
  /// Builds the mask of `key`: every pixel of the ring's annulus (plus a pixel of fringe)
  /// whose coverage is not 0, row by row, in as few four-pixel chunks as cover them.
  func buildMask(_ key: Int) -> (start: Int, count: Int) {
    let s = subpixelSteps
    let offset = key >> Self.phaseBits
    let (sx, sy) = (offset % s, offset / s)
    let phase = key & Self.phaseMask
    let rotation = 2 * Double.pi * Double(phase) / Double(phases)
    let fx = Double(sx) / Double(s)
    let fy = Double(sy) / Double(s)
    let outer = shape.radius + shape.halfWidth + 1
    let (cr, sr) = (cos(rotation), sin(rotation))
    let rowReach = self.rowReach
    let table = self.table
    // Rings under 8 pixels across are held to no reference picture: the one-pixel box
    // builds their masks four times as fast as `coverage(x:y:)`'s quarters would.
    let quarters = outer - 1 >= Self.smallRingRadius
    let grid = distanceGridForNextMask()
    let h = shape.halfWidth
    // `coverage(x:y:)` takes quarters for strokes under 2 pixels wide only.
    let gridQuarters = quarters && h < DashedRing.DistanceTable.supersampledBelowHalfWidth
    // Only pixels whose centres lie within `margin` of the annulus can be covered: a centre
    // `d >= 1/2` from the stroke gets none, nor do the quarters of one `d >= 1/2 + sqrt(2)/4`
    // away (each takes `clamp(1/2 - 2 d_q)`, `d_q >= d - sqrt(2)/4`); a sixteenth of a pixel
    // more covers the grid's interpolation (`RingDistanceGrid`: under a hundredth).
    let margin = gridQuarters ? 0.625 : 0.5625
    let (ink, hole) = (shape.radius + h + margin, shape.radius - h - margin)
    // The row is built in a local buffer kept between masks (locals: see the README), the
    // chunks straight into the store, past its last chunk, with room made before each row for
    // as many as the row can have (`width / 4 + 1`: a thick ring's rows above its hole are
    // inked across), so the buffers grow with what masks take, not with their bound.
    var row: [UInt8] = []
    swap(&row, &rowScratch)
    defer { swap(&row, &rowScratch) }
    let first = chunkCount
    var blendOut = blends + first
    let pitch = self.pitch
    var count = 0
    var pixelsSampled = 0
    row.withUnsafeMutableBufferPointer { row in
      for j in -rowReach...rowReach {
        let y = Double(j) + 0.5 - fy
        guard abs(y) < ink else { continue }
        // The pixels whose centres lie within `ink` of the ring's centre, ...
        let half = (ink * ink - y * y).squareRoot()
        let lo = Int((fx - 0.5 - half).rounded(.up))
        let hi = Int((fx - 0.5 + half).rounded(.down))
        guard lo <= hi else { continue }
        // ... but not inside the clear disc within `hole`.
        var holeLo = hi + 1
        var holeHi = hi
        if hole > 0, abs(y) < hole {
          let h = (hole * hole - y * y).squareRoot()
          holeLo = Int((fx - 0.5 - h).rounded(.up))
          holeHi = Int((fx - 0.5 + h).rounded(.down))
        }
        // Coverage of the row, then the chunks covering it.
        let width = hi - lo + 1
        pixelsSampled += width - max(0, holeHi - holeLo + 1)
        if let grid {
          // Both sides of the hole, four pixels a step (a step may run into the hole or past
          // `hi`: the row has room, and the hole is cleared after).
          let left = min(hi, holeLo - 1) - lo + 1
          if left > 0 {
            grid.coverageRow(
              into: row.baseAddress!, count: left, x0: Double(lo) + 0.5 - fx, y: y, cos: cr,
              sin: sr, halfWidth: h, quarters: gridQuarters)
          }
          // Right of the hole: from the pixel after it, also when no pixel centre lies in
          // it (`holeLo == holeHi + 1`: a row crossing the disc near its top or bottom).
          if holeHi < hi {
            grid.coverageRow(
              into: row.baseAddress! + (holeHi + 1 - lo), count: hi - holeHi,
              x0: Double(holeHi + 1) + 0.5 - fx, y: y, cos: cr, sin: sr, halfWidth: h,
              quarters: gridQuarters)
          }
          if holeLo <= holeHi { for i in holeLo...holeHi { row[i - lo] = 0 } }
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
        // read; what lies there only ends the loop sooner).
        let rowMost = width / Self.chunk + 1
        if first + count + rowMost > chunkCapacity {
          chunkCount = first + count
          reserveChunks(rowMost)
          chunkCount = first
          blendOut = blends + first
        }
        let base = UnsafeRawPointer(row.baseAddress!)
        var i = 0
        while i < width {
          if base.loadUnaligned(fromByteOffset: i, as: UInt64.self) == 0 {
            i += 8
            continue
          }
          guard row[i] != 0 else {
            i += 1
            continue
          }
          // The four bytes as one word (pixel 0 lowest), those past the row's end cleared
          // by a shift (a loop over the lanes went through memory: an eighth of the build).
          var w = base.loadUnaligned(fromByteOffset: i, as: UInt32.self)
          if i + Self.chunk > width { w &= UInt32.max >> (8 * (i + Self.chunk - width)) }
          blendOut[count] = Blend(
            offset: Int32(j * pitch + (lo + i) * 4),
            coverage: unsafeBitCast(UInt32(littleEndian: w), to: SIMD4<UInt8>.self))
          count += 1
          i += Self.chunk
        }
      }
    }
    if grid == nil { exactSamples += pixelsSampled * (quarters ? 2 : 1) }
    chunkCount = first + count
    setMask(key, start: first, count: count)
    return (first, count)
  }
}
