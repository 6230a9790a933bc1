import Foundation
import LoaderCore
import Testing

@testable import LoaderPixels

/// `RingDistanceGrid`: masks whose distances are read from the grid against masks built by
/// the exact rule (`DistanceTable.coverage(x:y:)` / `boxCoverage(x:y:)`), pixel by pixel, for
/// the seed and the seed changed one way at a time, from 7 to 130 pixels across, at rotations
/// around the turn and several sub-pixel offsets; and the shape alone deciding which rule
/// builds its masks.
@Suite struct RingDistanceGridTests {
  /// Every pixel of `key`'s mask, keyed by `(dy, dx)`.
  static func pixels(_ shape: RingMaskShape, _ key: Int) -> [SIMD2<Int>: Int] {
    var out: [SIMD2<Int>: Int] = [:]
    let grid = shape.grid.map { RingDistanceGrid(unit: $0.unit) }
    let scratch = MaskScratch()
    let (start, count) = shape.buildMask(key, pitch: 1 << 14, grid: grid, into: scratch)
    for k in start..<(start + count) {
      let (dy, dx) = MaskCache.position(scratch.chunks[k].offset, pitch: 1 << 14)
      let c = scratch.chunks[k].coverage
      for b in 0..<4 where c[b] != 0 {
        out[SIMD2(dy, dx + b)] = Int(c[b])
      }
    }
    return out
  }

  /// Largest difference (of 255) and PSNR over every pixel either mask covers, and how many
  /// pixels that is.
  static func compare(_ shape: DashedRing) -> (largest: Int, psnr: Double, pixels: Int) {
    let exact = RingMaskShape(shape: shape, exact: true)
    let grid = RingMaskShape(shape: shape)
    let s = exact.keys.subpixelSteps
    var (largest, total, pixels) = (0, 0, 0)
    for phase in stride(from: 0, to: exact.keys.phases, by: exact.keys.phases / 11 + 1) {
      for (sx, sy) in [(0, 0), (3, 5), (7, 2), (1, 6)] {
        let key = exact.keys.key(phase: phase, sx: sx % s, sy: sy % s)
        let a = Self.pixels(exact, key)
        let b = Self.pixels(grid, key)
        for p in Set(a.keys).union(b.keys) {
          let d = abs((a[p] ?? 0) - (b[p] ?? 0))
          largest = max(largest, d)
          total += d * d
          pixels += 1
        }
      }
    }
    #expect(grid.grid != nil, "the shape takes a grid")
    let meanSquare = Double(total) / Double(max(1, pixels))
    return (largest, 10 * log10(255 * 255 / max(meanSquare, 1e-9)), pixels)
  }

  static func styles() throws -> [(String, LoaderStyle)] {
    var styles: [(String, LoaderStyle)] = [("seed", .seed)]
    var butt = LoaderStyle.seed
    butt.lineCap = .butt
    styles.append(("butt caps", butt))
    var dots = LoaderStyle.seed
    dots.dash = try DashPattern([0, 6])
    styles.append(("dots", dots))
    var solid = LoaderStyle.seed
    solid.dash = .solid
    styles.append(("solid", solid))
    for width in [1.0, 10.0] {
      var s = LoaderStyle.seed
      s.lineWidth = width
      styles.append(("line width \(width)", s))
    }
    return styles
  }

  /// At least 40 dB over the pixels either mask covers (the spans backend is held to Cairo
  /// at 38-40 dB over whole frames), no pixel off by more than 32 of 255 (one where two caps
  /// meet in a notch, whose distance bends sharply between nodes); hairlines take no grid.
  @Test(arguments: [7.0, 12.0, 24.0, 33.0, 50.0, 90.0, 130.0])
  func gridMasksMatchTheExactRule(diameter: Double) throws {
    for (name, style) in try Self.styles() {
      let unit = DashedRing(style: style)
      let shape = unit.scaled(by: diameter / (2 * (unit.radius + unit.halfWidth)))
      guard RingDistanceGrid.unit(of: shape) != nil else {
        #expect(shape.halfWidth < RingDistanceGrid.minimumHalfWidth, "\(name) at \(diameter) px")
        continue
      }
      let (largest, psnr, pixels) = Self.compare(shape)
      #expect(pixels > 0)
      #expect(largest <= 32, "\(name) at \(diameter) px: largest difference \(largest)")
      #expect(psnr >= 40, "\(name) at \(diameter) px: \(psnr) dB")
    }
  }

  /// Which rule builds a shape's masks is the shape's alone: a grid from the first mask
  /// whenever the shape takes one, whatever was built before (SPEC, "The same scene, the same
  /// pixels"); the exact rule for the test's reference only.
  @Test func theShapeAloneDecidesTheRule() throws {
    let seed = DashedRing(style: .seed)
    let shape = RingMaskShape(shape: seed)
    let unit = try #require(shape.grid)
    #expect(unit.unit.radius == 32 && unit.scale == seed.radius / 32, "its octave: 16 < 23 <= 32")
    // Every size of the octave at the seed's proportions reads the same grid.
    for k in [0.71, 0.8, 1.2, 1.39] {
      let other = try #require(RingDistanceGrid.unit(of: seed.scaled(by: k)))
      #expect(other.unit == unit.unit, "x\(k)")
    }
    #expect(RingDistanceGrid.unit(of: seed.scaled(by: 0.6))?.unit.radius == 16)
    #expect(RingMaskShape(shape: seed, exact: true).grid == nil)
  }

  /// Past `maximumNodes` no grid is made: the exact rule builds every mask.
  @Test func ringsTooLargeForAGridTakeTheExactRule() {
    let shape = DashedRing(style: .seed).scaled(by: 20)
    #expect(RingDistanceGrid.unit(of: shape) == nil)
    let mask = RingMaskShape(shape: shape)
    #expect(mask.grid == nil)
    #expect(!Self.pixels(mask, mask.keys.key(phase: 3, sx: 0, sy: 0)).isEmpty)
  }

  /// `Reader.coverageRow`'s arithmetic one pixel at a time in scalar `Float`s, operation by
  /// operation as its lanes take it (`a < b ? b : a` clamps, the node's index in integers,
  /// four scalar loads): the vector sampler must give these bytes exactly.
  static func referenceRow(
    _ r: RingDistanceGrid.Reader, count: Int, x0: Double, y: Double, cos: Double,
    sin: Double, halfWidth: Double, quarters: Bool
  ) -> [UInt8] {
    let scale = Float(r.inverseStep / r.scale)
    let toShape = Float(r.scale)
    let (c, s) = (Float(cos) * scale, Float(sin) * scale)
    let e = Float(r.extent * r.inverseStep)
    let (gx0, gy0) = (Float(y) * s + e, Float(y) * c + e)
    let last = Float(r.side - 2)
    let magic: Float = 0x1p23
    let cap = Float(2 * (quarters ? 2 : 1) * halfWidth)
    let q = 0.25 * scale
    func maximum(_ a: Float, _ b: Float) -> Float { a < b ? b : a }
    func minimum(_ a: Float, _ b: Float) -> Float { b < a ? b : a }
    func distance(_ gx: Float, _ gy: Float) -> Float {
      let fx = minimum(maximum(gx, 0.5), last)
      let fy = minimum(maximum(gy, 0.5), last)
      let mx = (fx - 0.5) + magic
      let my = (fy - 0.5) + magic
      let ix = Int(mx.bitPattern & 0x7F_FFFF)
      let iy = Int(my.bitPattern & 0x7F_FFFF)
      let (tx, ty) = (fx - (mx - magic), fy - (my - magic))
      let p = r.nodes + (iy * r.side + ix)
      let top = p[0] + (p[1] - p[0]) * tx
      let bottom = p[r.side] + (p[r.side + 1] - p[r.side]) * tx
      return (top + (bottom - top) * ty) * toShape
    }
    func cover(_ d: Float) -> Float { minimum(maximum(minimum(0.5 - d, cap), 0), 1) }
    var out = [UInt8](repeating: 0, count: (count + 3) / 4 * 4)
    for lane in 0..<4 {
      var x = Float(x0) + Float(lane)
      var k = lane
      while k < out.count {
        let (gx, gy) = (x * c + gx0, gy0 - x * s)
        var coverage: Float
        if quarters {
          coverage =
            cover(2 * distance(gx - q, gy - q)) + cover(2 * distance(gx + q, gy - q))
            + cover(2 * distance(gx - q, gy + q)) + cover(2 * distance(gx + q, gy + q))
          coverage *= 0.25
        } else {
          coverage = cover(distance(gx, gy))
        }
        out[k] = UInt8(truncatingIfNeeded: (coverage * 255 + magic).bitPattern)
        x += 4
        k += 4
      }
    }
    return out
  }

  /// The vector sampler gives `referenceRow`'s bytes, for rows across and past every grid
  /// of the styles at sizes from 7 to 130 px, thin strokes (quarters) and wide, at random
  /// rotations and offsets, including rows that run off the grid (its clamps); and with a gap
  /// anywhere in the row (a ring's hole skipped), each side's own bytes.
  @Test func theSamplerGivesTheScalarRulesBytes() throws {
    var g = SplitMix64(seed: 49)
    func uniform() -> Double { Double(g.next() >> 11) * 0x1p-53 }
    for (name, style) in try Self.styles() {
      for diameter in [7.0, 12.0, 24.0, 33.0, 50.0, 90.0, 130.0] {
        let unit = DashedRing(style: style)
        let shape = unit.scaled(by: diameter / (2 * (unit.radius + unit.halfWidth)))
        guard let (gridUnit, k) = RingDistanceGrid.unit(of: shape) else { continue }
        let grid = RingDistanceGrid(unit: gridUnit)
        let reader = grid.reader(scale: k)
        let reach = shape.radius + shape.halfWidth + 4
        var row = [UInt8](repeating: 0, count: 4 * Int(reach) + 16)
        for _ in 0..<60 {
          let angle = 2 * Double.pi * uniform()
          let y = (2 * uniform() - 1) * reach
          let x0 = -reach - 2 + 2 * uniform()
          let count = 1 + Int(uniform() * 2 * (reach + 2))
          for quarters in [false, true] {
            let h = shape.halfWidth
            row.withUnsafeMutableBufferPointer {
              reader.coverageRow(
                into: $0.baseAddress!, count: count, x0: x0, y: y, cos: cos(angle),
                sin: sin(angle), halfWidth: h, quarters: quarters)
            }
            let expected = Self.referenceRow(
              reader, count: count, x0: x0, y: y, cos: cos(angle), sin: sin(angle),
              halfWidth: h, quarters: quarters)
            #expect(
              Array(row[0..<expected.count]) == expected,
              "\(name) at \(diameter) px, angle \(angle), y \(y), quarters \(quarters)")
            // The same row with a gap (both sides of a hole in one run): each side the
            // bytes of its own run, nothing written in the gap. Its first pixel's centre at
            // a sixteenth of a pixel, as a mask's (`x0 + k` then exact in `Float`).
            let start = (x0 * 16).rounded() / 16
            let gapAt = Int(uniform() * Double(count + 1))
            let gap = 1 + Int(uniform() * 9)
            let sentinel: UInt8 = 0xA5
            var gapped = [UInt8](repeating: sentinel, count: row.count + gap)
            gapped.withUnsafeMutableBufferPointer {
              reader.coverageRow(
                into: $0.baseAddress!, count: count, x0: start, y: y, cos: cos(angle),
                sin: sin(angle), halfWidth: h, quarters: quarters, gapAt: gapAt, gap: gap)
            }
            let left = Self.referenceRow(
              reader, count: gapAt, x0: start, y: y, cos: cos(angle), sin: sin(angle),
              halfWidth: h, quarters: quarters)
            let right = Self.referenceRow(
              reader, count: count - gapAt, x0: start + Double(gapAt + gap), y: y,
              cos: cos(angle), sin: sin(angle), halfWidth: h, quarters: quarters)
            let context = "gap \(gap) at \(gapAt) of \(count): \(name) at \(diameter) px"
            #expect(Array(gapped[0..<gapAt]) == Array(left[0..<gapAt]), "left, \(context)")
            #expect(
              Array(gapped[(gapAt + gap)..<(count + gap)]) == Array(right[0..<(count - gapAt)]),
              "right, \(context)")
            #expect(
              gapped[gapAt..<(gapAt + gap)].allSatisfy { $0 == sentinel }, "gap, \(context)")
          }
        }
      }
    }
  }

  /// A grid mask by the builder's rule, plainly: both sides of the hole by `referenceRow`
  /// (each from its own first pixel), the whole hole cleared, and the greedy scan over every
  /// byte of the row: its chunks.
  static func referenceMask(
    _ mask: RingMaskShape, _ key: Int, pitch: Int, grid: RingDistanceGrid
  ) -> [MaskCache.Chunk] {
    let keys = mask.keys
    let shape = mask.shape
    let (phase, sx, sy) = keys.decode(key)
    let rotation = 2 * Double.pi * Double(phase) / Double(keys.phases)
    let steps = Double(keys.subpixelSteps)
    let (fx, fy) = (Double(sx) / steps, Double(sy) / steps)
    let (cr, sr) = (cos(rotation), sin(rotation))
    let reader = grid.reader(scale: mask.grid!.scale)
    let h = shape.halfWidth
    let quarters = shape.radius + h >= RingMaskShape.smallRingRadius && h < 1
    let margin = quarters ? 0.625 : 0.5625
    let (ink, hole) = (shape.radius + h + margin, shape.radius - h - margin)
    var out: [MaskCache.Chunk] = []
    for j in -mask.rowReach...mask.rowReach {
      let y = Double(j) + 0.5 - fy
      guard abs(y) < ink else { continue }
      let half = (ink * ink - y * y).squareRoot()
      let lo = Int((fx - 0.5 - half).rounded(.up))
      let hi = Int((fx - 0.5 + half).rounded(.down))
      guard lo <= hi else { continue }
      var (holeLo, holeHi) = (hi + 1, hi)
      if hole > 0, abs(y) < hole {
        let e = (hole * hole - y * y).squareRoot()
        holeLo = Int((fx - 0.5 - e).rounded(.up))
        holeHi = Int((fx - 0.5 + e).rounded(.down))
      }
      let width = hi - lo + 1
      var row = [UInt8](repeating: 0, count: width + 8)
      let left = min(hi, holeLo - 1) - lo + 1
      if left > 0 {
        let r = Self.referenceRow(
          reader, count: left, x0: Double(lo) + 0.5 - fx, y: y, cos: cr, sin: sr,
          halfWidth: h, quarters: quarters)
        for i in 0..<left { row[i] = r[i] }
      }
      if holeHi < hi {
        let r = Self.referenceRow(
          reader, count: hi - holeHi, x0: Double(holeHi + 1) + 0.5 - fx, y: y, cos: cr,
          sin: sr, halfWidth: h, quarters: quarters)
        for i in 0..<(hi - holeHi) { row[holeHi + 1 - lo + i] = r[i] }
      }
      var i = 0
      while i < width {
        guard row[i] != 0 else {
          i += 1
          continue
        }
        let c = SIMD4<UInt8>(row[i], row[i + 1], row[i + 2], row[i + 3])
        let kept = SIMD4<UInt8>((0..<4).map { i + $0 < width ? c[$0] : 0 })
        out.append(MaskCache.Chunk(offset: Int32(j * pitch + (lo + i) * 4), coverage: kept))
        i += 4
      }
    }
    return out
  }

  /// `buildMask` gives `referenceMask`'s chunks, byte for byte, for the styles from 7 to 90
  /// px across (the box and quarters, holes of every width) at phases around the turn and
  /// several sub-pixel offsets.
  @Test func masksAreTheReferenceBuildersChunks() throws {
    var chunks = 0
    for (name, style) in try Self.styles() {
      for diameter in [7.0, 9.0, 17.0, 33.0, 90.0] {
        let unit = DashedRing(style: style)
        let shape = RingMaskShape(
          shape: unit.scaled(by: diameter / (2 * (unit.radius + unit.halfWidth))))
        guard let g = shape.grid else { continue }
        let grid = RingDistanceGrid(unit: g.unit)
        let s = shape.keys.subpixelSteps
        for phase in stride(from: 0, to: shape.keys.phases, by: shape.keys.phases / 5 + 1) {
          for (sx, sy) in [(0, 0), (3, 5), (7, 2)] {
            let key = shape.keys.key(phase: phase, sx: sx % s, sy: sy % s)
            let scratch = MaskScratch()
            let (start, count) = shape.buildMask(key, pitch: 1 << 14, grid: grid, into: scratch)
            let built = (start..<(start + count)).map { scratch.chunks[$0] }
            let expected = Self.referenceMask(shape, key, pitch: 1 << 14, grid: grid)
            chunks += expected.count
            #expect(
              built.map(\.offset) == expected.map(\.offset)
                && built.map(\.coverage) == expected.map(\.coverage),
              "\(name) at \(diameter) px, phase \(phase), offset (\(sx), \(sy))")
          }
        }
      }
    }
    #expect(chunks > 10_000, "the masks compared have pixels")
  }
}
