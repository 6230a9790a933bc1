extension LoaderField {
  /// The ring shapes of one frame of freely placed loaders: every loader's rings are drawn with
  /// the shape of its size bucket, so loaders of many sizes share a few caches.
  ///
  /// A loader whose rings have a centreline radius of `R` pixels (the style's radius times
  /// its fit times the renderer's density) is drawn with the style's ring scaled to
  /// ```
  /// bucket  = max(1, round(R * perPixel))          perPixel = 8
  /// radius  = bucket / perPixel                     (line width and dashes scaled alike)
  /// ```
  /// at its exact centre and angle: the ink lies at most `1 / (2 perPixel)` pixel (times
  /// `1 + lineWidth / (2 R)` at the outer edge) from where the exact size puts it, about as far
  /// as the backends' sub-pixel steps already move it, and every size from 8 to 400 points
  /// measured at least 30 dB against Cairo at its exact size (`RasterTests`'
  /// `FreePlacementQualityTests`). Coarser buckets (geometric steps of 2^(1/8), or even 1/2
  /// pixel) move a 50-point ring's ink by a pixel or more: under 30 dB.
  ///
  /// Costs: a table lookup per loader; a shape made once per bucket (and kept while a draw in
  /// the last `shapeGraceDraws` used it); no allocation per frame once the buckets in use are
  /// known.
  struct ShapeBuckets {
    /// Buckets per pixel of centreline radius.
    static let perPixel = 8.0
    /// Buckets below this are found in a table (a radius under 2048 px, the `spans` backend's
    /// limit); larger ones in a dictionary.
    static let tableSize = 1 << 14

    /// The style's ring in points.
    let unit: DashedRing
    /// Per bucket below `tableSize`, its index in this frame's shapes, or -1.
    private var indexOfBucket: [Int32] = []
    /// The same for larger buckets.
    private var largeIndex: [Int: Int32] = [:]
    /// The buckets of this frame, by shape index.
    private(set) var used: [Int] = []
    /// Every bucket's shape, with the draw that last used it.
    private var known: [Int: (shape: DashedRing, lastDraw: Int)] = [:]

    init(unit: DashedRing) {
      self.unit = unit
    }

    /// The bucket of a ring whose centreline radius is `radius` pixels (finite, > 0).
    static func bucket(ofRadius radius: Double) -> Int {
      Int(Swift.min(Swift.max(1, (radius * perPixel).rounded()), 0x1p52))
    }

    /// The centreline radius, pixels, that bucket `b` draws.
    static func radius(ofBucket b: Int) -> Double { Double(b) / perPixel }

    /// Starts a frame: no bucket has an index yet.
    mutating func beginFrame() {
      for b in used where b < Self.tableSize { indexOfBucket[b] = -1 }
      if !largeIndex.isEmpty { largeIndex.removeAll(keepingCapacity: true) }
      used.removeAll(keepingCapacity: true)
    }

    /// The index in `shapes` of the shape for rings of centreline radius `radius` pixels
    /// (finite, > 0), appending it the first time a frame asks for its bucket.
    @inline(__always)
    mutating func index(
      forRadius radius: Double, draw: Int, shapes: inout [DashedRing]
    ) -> Int32 {
      let b = Self.bucket(ofRadius: radius)
      if b < Self.tableSize {
        if indexOfBucket.isEmpty {
          indexOfBucket = [Int32](repeating: -1, count: Self.tableSize)
        }
        let i = indexOfBucket[b]
        if i >= 0 { return i }
      } else if let i = largeIndex[b] {
        return i
      }
      return add(bucket: b, draw: draw, shapes: &shapes)
    }

    private mutating func add(bucket b: Int, draw: Int, shapes: inout [DashedRing]) -> Int32 {
      let shape: DashedRing
      if let k = known[b] {
        shape = k.shape
        known[b]?.lastDraw = draw
      } else {
        shape = unit.scaled(by: Self.radius(ofBucket: b) / unit.radius)
        known[b] = (shape, draw)
      }
      let i = Int32(shapes.count)
      shapes.append(shape)
      used.append(b)
      if b < Self.tableSize {
        indexOfBucket[b] = i
      } else {
        largeIndex[b] = i
      }
      return i
    }

    /// Forgets the shapes no draw since `draw` used.
    mutating func forget(unusedSince draw: Int) {
      guard known.contains(where: { $0.value.lastDraw < draw }) else { return }
      known = known.filter { $0.value.lastDraw >= draw }
    }
  }
}
