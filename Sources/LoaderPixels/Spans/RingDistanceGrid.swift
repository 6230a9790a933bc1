import LoaderCore

/// A ring shape's signed distance sampled once on a square grid about its centre, so that a
/// mask at any rotation and sub-pixel offset reads each pixel's distance by bilinear
/// interpolation (four loads, a few products) instead of an arctangent, square roots and a
/// dash search per sample (`DashedRing.DistanceTable.signedDistance(x:y:)`, about 40 ns).
///
/// ```
/// node (i, j) at (-E + i s, -E + j s),   E = outer + 1 + s,   0 <= i, j < n
/// s = min(1/4, h / 4)                      h: the half width (pixels), at least 1/4
/// ```
/// Nodes within `2 + 2 s` px of the ring's annulus hold the exact distance; those farther
/// hold the distance to the annulus (`|rho - R| - h`, a lower bound over 2 px, where no sample
/// of a mask gets coverage). The distance has slope at most 1 and bends by `1/h` at most
/// along a cap, so interpolating it strays there by about `s^2 / (8 h)` px (0.004 px for the
/// seed's ring at density 1); where two caps meet in a notch, or a flat end meets the sides,
/// it bends sharply, and a pixel there can differ by up to a tenth of full coverage.
/// `RingDistanceGridTests` holds the masks to the exact rule's: at least 40 dB over the
/// pixels either covers, for the seed and the seed changed one way at a time, 7-130 px.
///
/// A grid past `maximumNodes`, or for a hairline (`minimumHalfWidth`), is not made (`init`
/// returns nil): those rings take the exact rule.
final class RingDistanceGrid {
  /// Node spacing, pixels.
  let step: Double
  /// The grid's half extent `E`: node 0 lies at `-E`.
  let extent: Double
  /// Nodes a side.
  let side: Int
  /// `side * side` distances, row by row (`j` the row, `v` its coordinate).
  let nodes: UnsafeMutablePointer<Float>

  /// Strokes thinner than twice this take no grid (`init` returns nil).
  static let minimumHalfWidth = 0.25

  /// Most nodes a grid takes (2 MiB of distances: a ring about 180 px across).
  static let maximumNodes = 1 << 19

  /// Exact evaluations a grid of `shape` costs, for `RingCoverageAtlas` to weigh against
  /// building masks the exact way; nil when it would not be made.
  static func exactNodes(of shape: DashedRing) -> Int? {
    guard let (step, _, side) = layout(of: shape) else { return nil }
    let band = 2 + 2 * step
    let area =
      Double.pi
      * ((shape.radius + shape.halfWidth + band).squared
        - Swift.max(0, shape.radius - shape.halfWidth - band).squared)
    return Swift.min(side * side, Int(area / (step * step)) + 1)
  }

  private static func layout(of shape: DashedRing) -> (step: Double, extent: Double, side: Int)? {
    // Hairlines (under half a pixel wide) would need nodes closer than 1/16 px.
    guard shape.halfWidth >= minimumHalfWidth else { return nil }
    let step = Swift.min(0.25, shape.halfWidth / 4)
    let extent = shape.radius + shape.halfWidth + 1 + step
    let side = Int((2 * extent / step).rounded(.up)) + 2
    guard side * side <= maximumNodes else { return nil }
    return (step, extent, side)
  }

  /// The grid of `table`'s shape, or nil past `maximumNodes`.
  init?(_ shape: DashedRing, table: DashedRing.DistanceTable) {
    guard let (step, extent, side) = Self.layout(of: shape) else { return nil }
    self.step = step
    self.extent = extent
    self.side = side
    let band = 2 + 2 * step
    let (r, h) = (shape.radius, shape.halfWidth)
    let nodes = PageMemory.allocate(Float.self, capacity: side * side)
    for j in 0..<side {
      let y = -extent + Double(j) * step
      for i in 0..<side {
        let x = -extent + Double(i) * step
        let body = abs((x * x + y * y).squareRoot() - r) - h
        nodes[j * side + i] = Float(body > band ? body : table.signedDistance(x: x, y: y))
      }
    }
    self.nodes = nodes
  }

  deinit { PageMemory.deallocate(nodes, capacity: side * side) }

  /// Bytes the distances take, as allocated.
  var bytes: Int { side * side * MemoryLayout<Float>.stride }

  /// The distances for a mask build to read without a runtime check per access; valid while
  /// the grid lives.
  var reader: Reader {
    Reader(nodes: UnsafePointer(nodes), side: side, extent: extent, inverseStep: 1 / step)
  }

  /// A grid's distances, read by a mask build.
  struct Reader {
    let nodes: UnsafePointer<Float>
    let side: Int
    let extent: Double
    let inverseStep: Double

    /// Coverage (0...255) of `count` pixels of a row, rounded up to whole fours, written
    /// from `row`: pixel `k` is centred at `(x0 + k, y)` on screen, turned back by the
    /// rotation `(cos, sin)` into the ring's frame, and covered by
    /// `DashedRing.coverage(atDistance:halfWidth:)` of the interpolated distance, or with
    /// `quarters` by its mean over the four quarters about that point, each at twice the
    /// distance and half width (`DistanceTable.quarterCoverage(x:y:)`'s rule).
    ///
    /// Four pixels a step in `SIMD4<Float>`, with none of the standard library's generic
    /// vector conversions or `pointwiseMin` (each a call a lane): a node's index is the low
    /// bits of `v + 2^23` (`v` in grid units, kept within `[1/2, side - 2]`, so that sum
    /// rounds to the integer `floor(v)` or, at a tie, `floor(v) - 1` with the fraction 1, the
    /// same interpolation), and so is the coverage byte.
    func coverageRow(
      into row: UnsafeMutablePointer<UInt8>, count: Int, x0: Double, y: Double,
      cos: Double, sin: Double, halfWidth: Double, quarters: Bool
    ) {
      typealias V = SIMD4<Float>
      @inline(__always) func maximum(_ a: V, _ b: V) -> V { a.replacing(with: b, where: a .< b) }
      @inline(__always) func minimum(_ a: V, _ b: V) -> V { a.replacing(with: b, where: b .< a) }
      let scale = Float(inverseStep)
      let (c, s) = (Float(cos) * scale, Float(sin) * scale)
      // The pixel in the ring's frame, in grid units:
      // gx = (x cos + y sin + E) / step,  gy = (-x sin + y cos + E) / step.
      let e = Float(extent) * scale
      let gx0 = V(repeating: Float(y) * s + e)
      let gy0 = V(repeating: Float(y) * c + e)
      let half = V(repeating: 0.5)
      let last = V(repeating: Float(side - 2))
      let magic = V(repeating: 0x1p23)
      let (zero, one) = (V(), V(repeating: 1))
      let cap = V(repeating: Float(2 * (quarters ? 2 : 1) * halfWidth))
      let q = V(repeating: 0.25 * scale)
      let nodes = self.nodes
      let side = self.side
      @inline(__always) func distance(_ gx: V, _ gy: V) -> V {
        let fx = minimum(maximum(gx, half), last)
        let fy = minimum(maximum(gy, half), last)
        let mx = (fx - half) + magic
        let my = (fy - half) + magic
        let ix = unsafeBitCast(mx, to: SIMD4<UInt32>.self) & 0x7F_FFFF
        let iy = unsafeBitCast(my, to: SIMD4<UInt32>.self) & 0x7F_FFFF
        let tx = fx - (mx - magic)
        let ty = fy - (my - magic)
        let index = iy &* UInt32(side) &+ ix
        var (a, b, c, d) = (V(), V(), V(), V())
        for l in 0..<4 {
          let p = nodes + Int(index[l])
          a[l] = p[0]
          b[l] = p[1]
          c[l] = p[side]
          d[l] = p[side + 1]
        }
        let top = a + (b - a) * tx
        let bottom = c + (d - c) * tx
        return top + (bottom - top) * ty
      }
      @inline(__always) func cover(_ d: V) -> V {
        minimum(maximum(minimum(half - d, cap), zero), one)
      }
      var x = V(repeating: Float(x0)) + V(0, 1, 2, 3)
      var k = 0
      while k < count {
        let gx = x * c + gx0
        let gy = gy0 - x * s
        var coverage: V
        if quarters {
          coverage =
            cover(2 * distance(gx - q, gy - q)) + cover(2 * distance(gx + q, gy - q))
            + cover(2 * distance(gx - q, gy + q)) + cover(2 * distance(gx + q, gy + q))
          coverage *= 0.25
        } else {
          coverage = cover(distance(gx, gy))
        }
        let bits = unsafeBitCast(coverage * 255 + magic, to: SIMD4<UInt32>.self)
        UnsafeMutableRawPointer(row + k).storeBytes(
          of: SIMD4<UInt8>(truncatingIfNeeded: bits), as: SIMD4<UInt8>.self)
        x += 4
        k += 4
      }
    }
  }
}

extension Double {
  fileprivate var squared: Double { self * self }
}
