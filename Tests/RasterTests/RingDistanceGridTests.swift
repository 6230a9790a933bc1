import Foundation
import LoaderCore
import Testing

@testable import LoaderPixels

/// `RingDistanceGrid`: masks whose distances are read from the grid against masks built by
/// the exact rule (`DistanceTable.coverage(x:y:)` / `boxCoverage(x:y:)`), pixel by pixel, for
/// the seed and the seed changed one way at a time, from 7 to 130 pixels across, at rotations
/// around the turn and several sub-pixel offsets; and the atlas making a grid only once exact
/// masks have paid for it.
@Suite struct RingDistanceGridTests {
  /// Every pixel of `key`'s mask, keyed by `(dy, dx)`.
  static func pixels(_ atlas: RingCoverageAtlas, _ key: Int) -> [SIMD2<Int>: Int] {
    var out: [SIMD2<Int>: Int] = [:]
    let (start, count) = atlas.mask(key)
    for k in start..<(start + count) {
      let (dy, dx) = atlas.storage.position(k)
      let c = atlas.blends[k].coverage
      for b in 0..<4 where c[b] != 0 {
        out[SIMD2(dy, dx + b)] = Int(c[b])
      }
    }
    return out
  }

  /// Largest difference (of 255) and PSNR over every pixel either mask covers, and how many
  /// pixels that is.
  static func compare(_ shape: DashedRing) -> (largest: Int, psnr: Double, pixels: Int) {
    let exact = RingCoverageAtlas(shape: shape, budgetBytes: 1 << 30, distanceGrid: .never)
    let grid = RingCoverageAtlas(shape: shape, budgetBytes: 1 << 30, distanceGrid: .always)
    exact.use(pitch: 1 << 14)
    grid.use(pitch: 1 << 14)
    let s = exact.subpixelSteps
    var (largest, total, pixels) = (0, 0, 0)
    for phase in stride(from: 0, to: exact.phases, by: exact.phases / 11 + 1) {
      for (sx, sy) in [(0, 0), (3, 5), (7, 2), (1, 6)] {
        let key = exact.key(phase: phase, sx: sx % s, sy: sy % s)
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
    #expect(grid.grid != nil, "the grid was made")
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
  @Test(arguments: [7.0, 12.0, 24.0, 50.0, 130.0])
  func gridMasksMatchTheExactRule(diameter: Double) throws {
    for (name, style) in try Self.styles() {
      let unit = DashedRing(style: style)
      let shape = unit.scaled(by: diameter / (2 * (unit.radius + unit.halfWidth)))
      guard RingDistanceGrid.exactNodes(of: shape) != nil else {
        #expect(shape.halfWidth < RingDistanceGrid.minimumHalfWidth, "\(name) at \(diameter) px")
        continue
      }
      let (largest, psnr, pixels) = Self.compare(shape)
      #expect(pixels > 0)
      #expect(largest <= 32, "\(name) at \(diameter) px: largest difference \(largest)")
      #expect(psnr >= 40, "\(name) at \(diameter) px: \(psnr) dB")
    }
  }

  /// `whenItPays`: no grid while the exact masks have cost less than it, one from then on;
  /// `shed()` drops it with the masks.
  @Test func theGridComesOnceExactMasksHavePaidForIt() throws {
    let shape = DashedRing(style: .seed)
    let atlas = RingCoverageAtlas(shape: shape)
    atlas.use(pitch: 4096)
    let cost = try #require(atlas.gridCost)
    var built = 0
    var exactBefore = 0
    while atlas.grid == nil, built < atlas.phases {
      exactBefore = atlas.exactSamples
      _ = atlas.mask(atlas.key(phase: built, sx: 0, sy: 0))
      built += 1
    }
    #expect(atlas.grid != nil, "a grid after \(built) masks")
    #expect(exactBefore >= cost, "made once the exact masks cost \(exactBefore) of \(cost)")
    #expect(built > 2, "not before the exact masks paid for it: \(built)")
    let withGrid = atlas.bytes
    atlas.shed()
    #expect(atlas.grid == nil)
    #expect(atlas.bytes < withGrid)
  }

  /// Past `maximumNodes` no grid is made: the exact rule builds every mask.
  @Test func ringsTooLargeForAGridTakeTheExactRule() {
    let shape = DashedRing(style: .seed).scaled(by: 20)
    #expect(RingDistanceGrid.exactNodes(of: shape) == nil)
    let atlas = RingCoverageAtlas(shape: shape, distanceGrid: .always)
    atlas.use(pitch: 1 << 14)
    _ = atlas.mask(atlas.key(phase: 3, sx: 0, sy: 0))
    #expect(atlas.grid == nil)
  }
}
