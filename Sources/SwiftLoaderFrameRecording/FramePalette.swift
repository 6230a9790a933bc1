/// At most `capacity` colours for the pixels one GIF frame stores, and each colour's index.
///
/// When the pixels hold `capacity` distinct colours or fewer the palette is exactly those
/// colours and every pixel keeps its value. Otherwise they are reduced by median cut
/// (Heckbert): start from one box around every distinct colour; until there are `capacity`
/// boxes, split the box with the largest squared error
/// ```
/// E(box) = sum over its colours c of count(c) * |c - mean(box)|^2
/// ```
/// (among boxes of two colours or more) across its widest channel at the pixel-weighted
/// median. Each box's colour is the pixel-weighted mean of its colours, and each colour maps
/// to its box. Splitting by error rather than by pixel count spends entries on the antialiased
/// fringe, where the colours spread, instead of on large flat areas.
///
/// No dithering: a frame that fits is never touched, one that does not gets each colour moved
/// to a near one, the same in every frame, rather than noise that changes from frame to frame.
/// Ties are broken by colour value, so the same pixels always give the same palette.
struct FramePalette {
  /// `0x00RRGGBB`, at most `capacity`.
  private(set) var colors: [UInt32] = []
  /// Colour `0x00RRGGBB` to palette index.
  private var index: [UInt32: UInt8] = [:]
  /// Whether every colour is in the palette unchanged.
  private(set) var isExact = true

  /// The palette of `histogram` (colour `0x00RRGGBB` to pixel count), `capacity` in 1...256.
  init(histogram: [UInt32: Int], capacity: Int) {
    precondition((1...256).contains(capacity))
    if histogram.count <= capacity {
      colors = histogram.keys.sorted()
      for (i, c) in colors.enumerated() { index[c] = UInt8(i) }
      return
    }
    isExact = false
    var boxes = [Box(histogram.map { ($0.key, $0.value) }.sorted { $0.0 < $1.0 })]
    while boxes.count < capacity {
      var best = -1
      for (i, b) in boxes.enumerated() where b.entries.count > 1 {
        if best < 0 || b.error > boxes[best].error { best = i }
      }
      guard best >= 0 else { break }
      let (low, high) = boxes[best].split()
      boxes[best] = low
      boxes.append(high)
    }
    for (i, b) in boxes.enumerated() {
      colors.append(b.mean)
      for e in b.entries { index[e.color] = UInt8(i) }
    }
  }

  /// The palette index of `color` (`0x00RRGGBB`, a colour of the histogram).
  func index(of color: UInt32) -> UInt8 { index[color] ?? 0 }

  /// Colours of one box, with their pixel counts, mean and squared error.
  private struct Box {
    var entries: [(color: UInt32, count: Int)]
    private(set) var mean: UInt32 = 0
    private(set) var error = 0.0

    init(_ entries: [(color: UInt32, count: Int)]) {
      self.entries = entries
      var sums = SIMD3<Double>()
      var n = 0.0
      for e in entries {
        sums += Self.rgb(e.color) * Double(e.count)
        n += Double(e.count)
      }
      let m = sums / max(n, 1)
      for e in entries {
        let d = Self.rgb(e.color) - m
        error += Double(e.count) * (d * d).sum()
      }
      let r = m.rounded(.toNearestOrAwayFromZero)
      mean = UInt32(r.x) << 16 | UInt32(r.y) << 8 | UInt32(r.z)
    }

    static func rgb(_ c: UInt32) -> SIMD3<Double> {
      SIMD3(Double(c >> 16 & 0xFF), Double(c >> 8 & 0xFF), Double(c & 0xFF))
    }

    static func channel(_ c: UInt32, _ shift: UInt32) -> UInt32 { (c >> shift) & 0xFF }

    /// Splits across the widest of R, G, B at the pixel-weighted median; both halves non-empty.
    func split() -> (Box, Box) {
      var widest: UInt32 = 16
      var widestRange: UInt32 = 0
      for shift: UInt32 in [16, 8, 0] {
        let values = entries.map { Self.channel($0.color, shift) }
        let range = (values.max() ?? 0) - (values.min() ?? 0)
        if range > widestRange {
          widestRange = range
          widest = shift
        }
      }
      let sorted = entries.sorted {
        let a = Self.channel($0.color, widest)
        let b = Self.channel($1.color, widest)
        return a != b ? a < b : $0.color < $1.color
      }
      let half = sorted.reduce(0) { $0 + $1.count } / 2
      var running = 0
      var cut = 1
      for (i, e) in sorted.enumerated() {
        running += e.count
        if running >= half {
          cut = i + 1
          break
        }
      }
      cut = min(max(cut, 1), sorted.count - 1)
      return (Box(Array(sorted[..<cut])), Box(Array(sorted[cut...])))
    }
  }
}
