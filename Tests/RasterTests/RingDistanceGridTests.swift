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
}
