extension LoaderField {
  /// The ring shapes of one frame of freely placed loaders: every loader's rings are drawn with
  /// the shape of its size bucket, so loaders of many sizes share a few caches.
  ///
  /// A loader whose rings have a centreline radius of `R` pixels (the style's radius times
  /// its fit times the renderer's density) is drawn with the style's ring scaled to the radius
  /// of its bucket, at its exact centre and angle. Buckets are in sixteenths of a pixel:
  /// ```
  /// step   = 1/16 px  for R < 16 px,   1/8 px above,   1/4 px for a ring under 8 px across
  /// bucket = step * round(R / step),   radius = bucket (line width and dashes scaled alike)
  /// ```
  /// so the ink lies at most half a step (times `1 + lineWidth / (2 R)` at the outer edge)
  /// from where the exact size puts it. The error a radius error costs grows as it squared
  /// over `R`, hence finer steps for smaller rings: these are the coarsest steps that hold
  /// every size from 8 to 400 points to the 30 dB bar against Cairo at its exact size
  /// (`FreePlacementQualityTests`). Rings under 8 pixels across are held to no picture and
  /// take the coarse step, so a frame of many small moving rings keeps fewer masks.
  ///
  /// Costs: a table lookup per loader; a shape made once per bucket a frame uses, with its
  /// handle in the renderer's store kept from the last frame that used the bucket, so the
  /// store finds its caches without hashing it.
  struct ShapeBuckets {
    /// Buckets per pixel of centreline radius.
    static let perPixel = 16.0
    /// Buckets below this are found in a table (a radius under 2048 px, the `spans` backend's
    /// limit); larger ones in a dictionary.
    static let tableSize = 1 << 15

    /// The style's ring in points.
    let unit: DashedRing
    /// Outer radius over centreline radius of the style's ring.
    let outerPerRadius: Double
    /// Per bucket below `tableSize`, its index in this frame's shapes, or -1.
    private var indexOfBucket: [Int32] = []
    /// The same for larger buckets.
    private var largeIndex: [Int: Int32] = [:]
    /// The buckets of this frame, by shape index.
    private(set) var used: [Int] = []
    /// Per bucket below `tableSize`, its shape's handle as last known (lazily made).
    private var idOfBucket: [ShapeID] = []
    /// The same for larger buckets.
    private var largeID: [Int: ShapeID] = [:]

    init(unit: DashedRing) {
      self.unit = unit
      outerPerRadius = unit.radius > 0 ? (unit.radius + unit.halfWidth) / unit.radius : 1
    }

    /// The bucket of a ring whose centreline radius is `radius` pixels (finite, > 0), `small`
    /// when its outer edge is under `RingMaskShape.smallRingRadius` (under 8 pixels
    /// across): the nearest multiple of the step for that size, in sixteenths of a pixel.
    static func bucket(ofRadius radius: Double, small: Bool = false) -> Int {
      let step = small ? 4.0 : radius < 16 ? 1 : 2
      let b = Swift.min(Swift.max(1, (radius * perPixel / step).rounded()), 0x1p48)
      return Int(b * step)
    }

    /// The centreline radius, pixels, that bucket `b` draws.
    static func radius(ofBucket b: Int) -> Double { Double(b) / perPixel }

    /// Starts a frame: no bucket has an index yet.
    mutating func beginFrame() {
      for b in used where b < Self.tableSize { indexOfBucket[b] = -1 }
      if !largeIndex.isEmpty { largeIndex.removeAll(keepingCapacity: true) }
      used.removeAll(keepingCapacity: true)
    }

    /// The index in `shapes` (and `ids`) of the shape for rings of centreline radius `radius`
    /// pixels (finite, > 0), appending it the first time a frame asks for its bucket.
    @inline(__always)
    mutating func index(
      forRadius radius: Double, shapes: inout [DashedRing], ids: inout [ShapeID]
    ) -> Int32 {
      let small = radius * outerPerRadius < RingMaskShape.smallRingRadius
      let b = Self.bucket(ofRadius: radius, small: small)
      if b < Self.tableSize {
        if indexOfBucket.isEmpty {
          indexOfBucket = [Int32](repeating: -1, count: Self.tableSize)
          idOfBucket = [ShapeID](repeating: .none, count: Self.tableSize)
        }
        let i = indexOfBucket[b]
        if i >= 0 { return i }
      } else if let i = largeIndex[b] {
        return i
      }
      let i = Int32(shapes.count)
      shapes.append(unit.scaled(by: Self.radius(ofBucket: b) / unit.radius))
      used.append(b)
      if b < Self.tableSize {
        indexOfBucket[b] = i
        ids.append(idOfBucket[b])
      } else {
        largeIndex[b] = i
        ids.append(largeID[b] ?? .none)
      }
      return i
    }

    /// Keeps the handles the store gave this frame's shapes (`ids`, by shape index).
    mutating func keep(ids: [ShapeID]) {
      // Hints only: a scene of ever new huge sizes starts their table afresh.
      if largeID.count > 1024 { largeID.removeAll() }
      for (i, b) in used.enumerated() where i < ids.count {
        if b < Self.tableSize {
          idOfBucket[b] = ids[i]
        } else {
          largeID[b] = ids[i]
        }
      }
    }
  }
}
