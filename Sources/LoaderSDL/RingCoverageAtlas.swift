import Foundation
import LoaderCore

/// The antialiased coverage of one ring shape (pixel units) at every rotation phase and
/// sub-pixel offset, stored as runs of 8-bit coverage and built the first time a phase is
/// drawn. Only rotation and position change between rings of one shape, so a frame of many
/// rings is a frame of copies of a few masks.
///
/// A mask is keyed by `(phase, sx, sy)`:
/// ```
/// phase = round(angle / 2 pi * phases) mod phases,  phases = ceil(2 pi (r + w/2 + 1) / 0.1)
/// q     = round(center * S),  pixel = floor(q / S),  s = q - pixel * S      (S = 8)
/// ```
/// so the rotation moves the outermost ink by at most 0.05 px from the exact angle and the
/// centre by at most `1 / (2 S)` px from the exact position. A seed ring at scale 1 has 1571
/// phases and a mask of about 90 runs and 830 bytes of coverage; masks past `budgetBytes`
/// are dropped between frames and rebuilt on demand.
///
/// Coverage of a pixel is `clamp(0.5 - d, 0, 1)` with `d` the signed distance from the pixel's
/// centre to the stroke (`DashedRing.signedDistance`, in pixels): exact for an edge along a
/// pixel axis, within a few percent of the box-filtered area elsewhere.
final class RingCoverageAtlas {
  /// A run of `count` pixels starting `dx, dy` from the ring's anchor pixel, whose weights
  /// start at `weight` in `weights`.
  struct Span {
    var dy: Int16
    var dx: Int16
    var count: UInt16
    var weight: UInt32
  }

  let shape: DashedRing
  let phases: Int
  let subpixelSteps: Int
  /// No span reaches further than this many pixels from the anchor pixel, in any direction:
  /// a ring is culled or clipped by its anchor alone.
  let reach: Int
  /// Stored masks stop growing past this many bytes: the next frame starts afresh.
  let budgetBytes: Int

  private(set) var spans: UnsafeMutablePointer<Span>
  private var spanCapacity: Int
  private(set) var spanCount = 0
  /// Per pixel, its coverage (0...255): a byte, so a frame of many distinct masks streams
  /// little memory.
  private(set) var weights: UnsafeMutablePointer<UInt8>
  private var weightCapacity: Int
  private var weightCount = 0
  /// Per key: first span, or -1 when the mask is not built yet.
  private let maskStart: UnsafeMutablePointer<Int32>
  private let maskLength: UnsafeMutablePointer<UInt16>
  private let keyCount: Int

  /// Zero pixels between two runs of one row up to which they are stored as one run.
  static let mergeGap = 6
  /// Every run is a whole number of this many pixels (one vector of the blender).
  static let chunk = 4
  private var rowScratch: [UInt8]

  private let dashStarts: [Double]
  private let dashEnds: [Double]
  /// Cap centres of each dash's start and end, unrotated.
  private let startCaps: [(x: Double, y: Double)]
  private let endCaps: [(x: Double, y: Double)]

  init(shape: DashedRing, subpixelSteps: Int = 8, budgetBytes: Int = 64 << 20) {
    self.shape = shape
    let outer = shape.radius + shape.halfWidth + 1
    phases = max(64, Int((2 * Double.pi * outer / 0.1).rounded(.up)))
    self.subpixelSteps = subpixelSteps
    reach = Int(outer.rounded(.up)) + 2 + Self.chunk
    rowScratch = [UInt8](repeating: 0, count: 2 * reach + 2)
    self.budgetBytes = budgetBytes
    keyCount = phases * subpixelSteps * subpixelSteps
    maskStart = .allocate(capacity: keyCount)
    maskStart.initialize(repeating: -1, count: keyCount)
    maskLength = .allocate(capacity: keyCount)
    maskLength.initialize(repeating: 0, count: keyCount)
    spanCapacity = 4096
    spans = .allocate(capacity: spanCapacity)
    weightCapacity = 65536
    weights = .allocate(capacity: weightCapacity)
    let sorted = shape.dashes.sorted { $0.start < $1.start }
    dashStarts = sorted.map(\.start)
    dashEnds = sorted.map(\.end)
    let r = shape.radius
    startCaps = sorted.map { (r * cos($0.start), r * sin($0.start)) }
    endCaps = sorted.map { (r * cos($0.end), r * sin($0.end)) }
  }

  deinit {
    maskStart.deallocate()
    maskLength.deallocate()
    spans.deallocate()
    weights.deallocate()
  }

  /// Bytes held by built masks.
  var storedBytes: Int { spanCount * MemoryLayout<Span>.stride + weightCount }

  /// Forgets every mask when the store is over budget; call between frames only (span
  /// indices handed out earlier become stale).
  func trimIfOverBudget() {
    guard storedBytes > budgetBytes else { return }
    maskStart.update(repeating: -1, count: keyCount)
    spanCount = 0
    weightCount = 0
  }

  /// The phase index of `degrees` (any finite value).
  @inline(__always)
  func phase(ofDegrees degrees: Float) -> Int {
    let turns = Double(degrees) / 360
    let p = Int(((turns - turns.rounded(.down)) * Double(phases)).rounded()) % phases
    return p < 0 ? p + phases : p
  }

  /// Spans of the mask for `key` (see `key(phase:sx:sy:)`), building it first if needed.
  @inline(__always)
  func mask(_ key: Int) -> (start: Int, count: Int) {
    let s = maskStart[key]
    if s >= 0 { return (Int(s), Int(maskLength[key])) }
    return build(key)
  }

  @inline(__always)
  func key(phase: Int, sx: Int, sy: Int) -> Int {
    (phase * subpixelSteps + sy) * subpixelSteps + sx
  }

  private func build(_ key: Int) -> (start: Int, count: Int) {
    let s = subpixelSteps
    let sx = key % s
    let sy = (key / s) % s
    let phase = key / (s * s)
    let rotation = 2 * Double.pi * Double(phase) / Double(phases)
    let fx = Double(sx) / Double(s)
    let fy = Double(sy) / Double(s)
    let first = spanCount
    let outer = shape.radius + shape.halfWidth + 1
    let inner = shape.radius - shape.halfWidth - 1
    let (cr, sr) = (cos(rotation), sin(rotation))
    for j in -reach...reach {
      let y = Double(j) + 0.5 - fy
      guard abs(y) < outer else { continue }
      let half = (outer * outer - y * y).squareRoot()
      let lo = Int((fx - 0.5 - half).rounded(.down))
      let hi = Int((fx - 0.5 + half).rounded(.up))
      // Pixels whose centres lie inside the inner clear disc have no coverage.
      var holeLo = hi + 1
      var holeHi = hi
      if inner > 0, abs(y) < inner {
        let h = (inner * inner - y * y).squareRoot()
        holeLo = Int((fx - 0.5 - h).rounded(.up))
        holeHi = Int((fx - 0.5 + h).rounded(.down))
      }
      // Coverage of the row, then runs of it: runs closer than `mergeGap` become one (the
      // zeros between cost less than a span), and each is padded with zeros to a whole
      // number of `chunk`-pixel groups so the blender works in whole vectors.
      let width = hi - lo + 1
      for i in lo...hi {
        if i >= holeLo && i <= holeHi {
          rowScratch[i - lo] = 0
          continue
        }
        let x = Double(i) + 0.5 - fx
        // Turn the pixel back by the rotation instead of turning the ring.
        let d = distance(x: x * cr + y * sr, y: -x * sr + y * cr)
        let c = min(1, max(0, 0.5 - d))
        rowScratch[i - lo] = UInt8((c * 255).rounded())
      }
      var i = 0
      while i < width {
        guard rowScratch[i] != 0 else {
          i += 1
          continue
        }
        var end = i + 1  // one past the last nonzero pixel of the merged run
        var k = end
        while k < width && k - end <= Self.mergeGap {
          if rowScratch[k] != 0 { end = k + 1 }
          k += 1
        }
        let padded = (end - i + Self.chunk - 1) / Self.chunk * Self.chunk
        for t in 0..<padded { appendWeight(coverage: i + t < width ? rowScratch[i + t] : 0) }
        appendSpan(dy: j, dx: lo + i, count: padded)
        i = end
      }
    }
    maskStart[key] = Int32(first)
    maskLength[key] = UInt16(spanCount - first)
    return (first, spanCount - first)
  }

  /// Signed distance from `(x, y)` (unrotated ring frame) to the stroke. The nearest ink of a
  /// point in a gap is one of the gap's two cap centres, since distance to a point of the
  /// centreline grows with the angle between them.
  private func distance(x: Double, y: Double) -> Double {
    let n = dashStarts.count
    guard n > 0 else { return .infinity }
    let rho = (x * x + y * y).squareRoot()
    var theta = atan2(y, x)
    if theta < 0 { theta += 2 * Double.pi }
    // Last dash starting at or before theta.
    var lo = 0
    var hi = n
    while lo < hi {
      let mid = (lo + hi) / 2
      if dashStarts[mid] <= theta { lo = mid + 1 } else { hi = mid }
    }
    let idx = lo - 1
    if idx >= 0, theta <= dashEnds[idx] { return abs(rho - shape.radius) - shape.halfWidth }
    let prev = idx >= 0 ? idx : n - 1
    let next = idx + 1 < n ? idx + 1 : 0
    switch shape.cap {
    case .round:
      let e = endCaps[prev]
      let s = startCaps[next]
      let d = min(hypot(x - e.x, y - e.y), hypot(x - s.x, y - s.y))
      return d - shape.halfWidth
    case .butt:
      return min(buttDistance(x: x, y: y, angle: dashEnds[prev]),
                 buttDistance(x: x, y: y, angle: dashStarts[next]))
    }
  }

  /// Distance from `(x, y)` to the flat end of a dash at `angle`: the radial segment of
  /// half-length `halfWidth` about the centreline.
  private func buttDistance(x: Double, y: Double, angle: Double) -> Double {
    let (c, s) = (cos(angle), sin(angle))
    let radial = x * c + y * s
    let tangential = -x * s + y * c
    return hypot(max(0, abs(radial - shape.radius) - shape.halfWidth), tangential)
  }

  private func appendWeight(coverage: UInt8) {
    if weightCount == weightCapacity {
      let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: weightCapacity * 2)
      bigger.update(from: weights, count: weightCount)
      weights.deallocate()
      weights = bigger
      weightCapacity *= 2
    }
    weights[weightCount] = coverage
    weightCount += 1
  }

  private func appendSpan(dy: Int, dx: Int, count: Int) {
    if spanCount == spanCapacity {
      let bigger = UnsafeMutablePointer<Span>.allocate(capacity: spanCapacity * 2)
      bigger.update(from: spans, count: spanCount)
      spans.deallocate()
      spans = bigger
      spanCapacity *= 2
    }
    spans[spanCount] = Span(
      dy: Int16(dy), dx: Int16(dx), count: UInt16(count), weight: UInt32(weightCount - count))
    spanCount += 1
  }
}
