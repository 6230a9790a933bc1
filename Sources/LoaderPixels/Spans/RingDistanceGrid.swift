import Builtin
import LoaderCore

/// A ring's signed distance sampled once on a square grid about its centre, shared by every
/// ring of its proportions within an octave of sizes, so that a mask at any size of that
/// octave, rotation and sub-pixel offset reads each pixel's distance by bilinear interpolation
/// (four loads, a few products) instead of an arctangent, square roots and a dash search per
/// sample (`DashedRing.DistanceTable.signedDistance(x:y:)`).
///
/// A shape of radius `r` px reads the grid of its `unit`: the same ring scaled to the
/// octave's radius `R = 2^ceil(log2 r)`, so `k = r / R` is in `(1/2, 1]` and the shape's
/// distance at `p` is `k d_unit(p / k)`. In the unit's pixels:
/// ```
/// node (i, j) at (-E + i s, -E + j s),   E = R + h + 2 + s,   0 <= i, j < n
/// s = min(1/4, h / 4)                      h: the unit's half width, at least 1/4
/// ```
/// so a node is at most `s` (and `h / 4`) of the shape's own pixels from the next. Nodes
/// within `2 (2 + 2 s)` unit px of the annulus hold the exact distance (at least `2 + 2 s` of
/// the shape's); those farther hold the distance to the annulus (`|rho - R| - h`, a lower
/// bound, where no sample of a mask gets coverage). The distance has slope at most 1 and bends
/// by `1/h` at most along a cap, so interpolating it strays there by about `s^2 / (8 h)` px;
/// where two caps meet in a notch, or a flat end meets the sides, it bends sharply, and a
/// pixel there can differ by up to a tenth of full coverage. `RingDistanceGridTests` holds the
/// masks to the exact rule's: at least 40 dB over the pixels either covers, for the seed and
/// the seed changed one way at a time, 7-130 px.
///
/// Shapes past `maximumNodes` and hairlines (`minimumHalfWidth`) take none (`unit(of:)` is
/// nil): those rings take the exact rule. Whether a shape takes a grid is the shape's alone.
final class RingDistanceGrid {
  /// Node spacing, unit pixels.
  let step: Double
  /// The grid's half extent `E`: node 0 lies at `-E`.
  let extent: Double
  /// Nodes a side.
  let side: Int
  /// `side * side` distances, row by row (`j` the row, `v` its coordinate).
  let nodes: UnsafeMutablePointer<Float>

  /// Strokes thinner than twice this take no grid.
  static let minimumHalfWidth = 0.25

  /// Most nodes a grid takes (8 MiB of distances: the seed's proportions at 128 px radius).
  static let maximumNodes = 1 << 21

  /// The unit ring whose grid `shape` reads, and `k`, the shape's pixels per unit pixel; nil
  /// when the shape takes the exact rule. The unit's half width is rounded to 2^-24 of its
  /// radius, so rings of one style at every size of an octave share it.
  static func unit(of shape: DashedRing) -> (unit: DashedRing, scale: Double)? {
    guard shape.halfWidth >= minimumHalfWidth, shape.isDrawable else { return nil }
    var octave = 1.0
    while octave < shape.radius { octave *= 2 }
    while octave / 2 >= shape.radius { octave /= 2 }
    let ratio = (shape.halfWidth / shape.radius * 0x1p24).rounded() / 0x1p24
    let unit = DashedRing(
      radius: octave, halfWidth: ratio * octave, cap: shape.cap, dashes: shape.dashes)
    guard layout(of: unit).side * layout(of: unit).side <= maximumNodes else { return nil }
    return (unit, shape.radius / octave)
  }

  private static func layout(of unit: DashedRing) -> (step: Double, extent: Double, side: Int) {
    let step = Swift.min(0.25, unit.halfWidth / 4)
    let extent = unit.radius + unit.halfWidth + 2 + step
    return (step, extent, Int((2 * extent / step).rounded(.up)) + 2)
  }

  /// The grid of `unit` (`unit(of:)`'s).
  init(unit: DashedRing) {
    (step, extent, side) = Self.layout(of: unit)
    let table = DashedRing.DistanceTable(unit)
    let band = 2 * (2 + 2 * step)
    let (r, h) = (unit.radius, unit.halfWidth)
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

  /// The distances for a mask build of a shape `scale` of its pixels a unit pixel to read
  /// without a runtime check per access; valid while the grid lives.
  func reader(scale: Double) -> Reader {
    Reader(
      nodes: UnsafePointer(nodes), side: side, extent: extent, inverseStep: 1 / step, scale: scale)
  }

  /// A grid's distances, read by a mask build.
  struct Reader {
    let nodes: UnsafePointer<Float>
    let side: Int
    let extent: Double
    let inverseStep: Double
    /// The shape's pixels per unit pixel, `k`.
    let scale: Double

    /// Coverage (0...255) of `count` pixels of a row, rounded up to whole fours, written
    /// from `row`: pixel `k` is centred at `(x0 + k, y)` on screen (`x0 + k + gap` from
    /// `gapAt` on, below), turned back by the rotation `(cos, sin)` into the ring's frame, and
    /// covered by `DashedRing.coverage(atDistance:halfWidth:)` of the interpolated distance, or
    /// with `quarters` by its mean over the four quarters about that point, each at twice the
    /// distance and half width (`DistanceTable.quarterCoverage(x:y:)`'s rule).
    ///
    /// Four pixels a step in `SIMD4<Float>`, with none of the standard library's generic
    /// vector conversions or `pointwiseMin` (each a call a lane): a node's row and column are
    /// `floor(v)` of `v + 2^23 - 2^23` (`v` in grid units, kept within `[1/2, side - 2]`, so
    /// that sum rounds to the integer `floor(v)` or, at a tie, `floor(v) - 1` with the
    /// fraction 1, the same interpolation), its index `row * side + column` in floats (exact:
    /// under 2^23) read from the low bits of the same sum, and so is the coverage byte. Each
    /// lane's two nodes of a row are one 8-byte load. The clamps are `vectorMinimum` and
    /// `vectorMaximum`, one instruction each where the target has them.
    ///
    /// With a `gap`, pixels `gapAt` on are `gap` pixels further right, on screen and in `row`
    /// (`row[k + gap]`): both sides of a ring's hole in one run of steps, the step across the
    /// gap written a byte at a time, so nothing is written in the gap.
    @inline(__always)
    func coverageRow(
      into row: UnsafeMutablePointer<UInt8>, count: Int, x0: Double, y: Double,
      cos: Double, sin: Double, halfWidth: Double, quarters: Bool, gapAt: Int = .max,
      gap: Int = 0
    ) {
      typealias V = SIMD4<Float>
      // Grid units per shape pixel, and the shape's pixels per unit pixel.
      let (scale, toShape) = (Float(inverseStep / self.scale), V(repeating: Float(self.scale)))
      let (c, s) = (Float(cos) * scale, Float(sin) * scale)
      // The pixel in the ring's frame, in grid units:
      // gx = ((x cos + y sin) / k + E) / step,  gy = ((-x sin + y cos) / k + E) / step.
      let e = Float(extent * inverseStep)
      let gx0 = V(repeating: Float(y) * s + e)
      let gy0 = V(repeating: Float(y) * c + e)
      let half = V(repeating: 0.5)
      let last = V(repeating: Float(side - 2))
      let magic = V(repeating: 0x1p23)
      let width = V(repeating: Float(side))
      let (zero, one) = (V(), V(repeating: 1))
      let cap = V(repeating: Float(2 * (quarters ? 2 : 1) * halfWidth))
      let q = V(repeating: 0.25 * scale)
      let nodes = UnsafeRawPointer(self.nodes)
      let below = side * MemoryLayout<Float>.stride
      @inline(__always) func distance(_ gx: V, _ gy: V) -> V {
        let fx = vectorMinimum(vectorMaximum(gx, half), last)
        let fy = vectorMinimum(vectorMaximum(gy, half), last)
        let ix = ((fx - half) + magic) - magic
        let iy = ((fy - half) + magic) - magic
        let tx = fx - ix
        let ty = fy - iy
        let index = unsafeBitCast(iy * width + ix + magic, to: SIMD4<UInt32>.self) & 0x7F_FFFF
        @inline(__always) func pair(_ l: Int, _ offset: Int) -> SIMD2<Float> {
          nodes.loadUnaligned(
            fromByteOffset: Int(index[l]) &* MemoryLayout<Float>.stride &+ offset,
            as: SIMD2<Float>.self)
        }
        let (t0, t1, t2, t3) = (pair(0, 0), pair(1, 0), pair(2, 0), pair(3, 0))
        let (b0, b1, b2, b3) = (pair(0, below), pair(1, below), pair(2, below), pair(3, below))
        let a = V(t0.x, t1.x, t2.x, t3.x)
        let b = V(t0.y, t1.y, t2.y, t3.y)
        let cc = V(b0.x, b1.x, b2.x, b3.x)
        let d = V(b0.y, b1.y, b2.y, b3.y)
        let top = a + (b - a) * tx
        let bottom = cc + (d - cc) * tx
        return (top + (bottom - top) * ty) * toShape
      }
      @inline(__always) func cover(_ d: V) -> V {
        vectorMinimum(vectorMaximum(vectorMinimum(half - d, cap), zero), one)
      }
      // The step's first pixel (every value here and below exact in `Float`: multiples of
      // 1/16 well under 2^20, so the steps past the gap read the same as their own run's).
      var first = V(repeating: Float(x0)) + V(0, 1, 2, 3)
      // The step holding the gap, and its lanes past the gap (all ones), which move `gap` on.
      let gapStep = gapAt == .max ? Int.max : gapAt & ~3
      let pastGap = SIMD4<Int32>(0, 1, 2, 3) .>= SIMD4<Int32>(repeating: Int32(gapAt & 3))
      let skip = V(repeating: Float(gap))
      let skipLanes = unsafeBitCast(
        unsafeBitCast(skip, to: SIMD4<Int32>.self) & pastGap._storage, to: V.self)
      var k = 0
      while k < count {
        let x = k == gapStep ? first + skipLanes : first
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
        let bytes = SIMD4<UInt8>(truncatingIfNeeded: bits)
        if k < gapStep {
          UnsafeMutableRawPointer(row + k).storeBytes(of: bytes, as: SIMD4<UInt8>.self)
        } else if k > gapStep {
          UnsafeMutableRawPointer(row + k + gap).storeBytes(of: bytes, as: SIMD4<UInt8>.self)
        } else {
          for l in 0..<4 { row[k + l < gapAt ? k + l : k + l + gap] = bytes[l] }
          first += skip
        }
        first += 4
        k += 4
      }
    }
  }
}

/// `b < a ? b : a`, lane by lane (`a` where either is NaN): `minps b, a` on x86-64, where the
/// generic `replacing(with:where:)` inlined into a loop of them compiled to a branch a lane.
@inline(__always)
func vectorMinimum(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
  #if arch(x86_64)
    var r = a
    r._storage._value = Builtin.int_x86_sse_min_ps(b._storage._value, a._storage._value)
    return r
  #else
    return a.replacing(with: b, where: b .< a)
  #endif
}

/// `a < b ? b : a`, lane by lane (`a` where either is NaN): `maxps b, a` on x86-64.
@inline(__always)
func vectorMaximum(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
  #if arch(x86_64)
    var r = a
    r._storage._value = Builtin.int_x86_sse_max_ps(b._storage._value, a._storage._value)
    return r
  #else
    return a.replacing(with: b, where: a .< b)
  #endif
}
