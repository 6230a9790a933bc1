extension LoaderField {
  /// One frame's rings from the loader table: each visible loader's rings at their centres in
  /// pixels, their angles and colours, and the shapes they are drawn with. A value of its own
  /// (no renderer, no clock): `LoaderField.prepareRings` hands it the table and the presented
  /// angles, and the renderer reads `instances`, `shapes` and `ids`.
  ///
  /// Where rings go is `Arrangement`'s (`.row`, `.fittedRow`, `.grid`: every loader in its
  /// cell, one shape) or `RowLayout.Fitted`'s in each loader's own frame (`.free`: loaders in
  /// stacking order, each of its size bucket's shape, `ShapeBuckets`). Allocates nothing once
  /// its buffers have grown to the scene.
  package struct FrameBuilder {
    /// The rings, in drawing order.
    package var instances: [RingInstance] = []
    /// The shapes `instances` index.
    private(set) var shapes: [DashedRing] = []
    /// Each shape's handle in the store of the renderer last drawn on (a hint the renderer
    /// checks and updates: a stale one is looked up again).
    var ids: [ShapeID] = []
    /// The slot of each loader given rings, in order (`ringCount` rings each).
    private(set) var drawn: [Int32] = []
    /// The style's ring in points.
    let unit: DashedRing
    private var buckets: ShapeBuckets
    /// The shape of the arranged layouts, the scale it was made at (the fit times the
    /// density), and its handle.
    private var arranged: (shape: DashedRing, scale: Double, id: ShapeID)?

    init(unit: DashedRing) {
      self.unit = unit
      buckets = ShapeBuckets(unit: unit)
    }

    /// Empties the buffers for a frame of about `rings` rings, giving memory back when the
    /// scene shrank a lot (a grid cut from a million loaders to a few).
    mutating func begin(rings: Int) {
      if instances.capacity > 4 * max(rings, 1 << 12) {
        instances = []
        instances.reserveCapacity(rings)
        drawn = []
      } else {
        instances.removeAll(keepingCapacity: true)
        drawn.removeAll(keepingCapacity: true)
      }
      shapes.removeAll(keepingCapacity: true)
      ids.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with the frame's rings, their shapes and the shapes' handles (which the
    /// store `body` draws with checks and updates), then keeps the handles for the next frame:
    /// the one hand-off of a frame to whatever draws it (a renderer, a caller's buffer).
    package mutating func withFrame<R, E: Swift.Error>(
      layout: Layout,
      _ body: (
        UnsafeBufferPointer<RingInstance>, UnsafeBufferPointer<DashedRing>,
        UnsafeMutableBufferPointer<ShapeID>
      ) throws(E) -> R
    ) throws(E) -> R {
      defer { keepIDs(layout: layout) }
      return try shapes.withUnsafeBufferPointer { (shapes) throws(E) in
        try ids.withUnsafeMutableBufferPointer { (ids) throws(E) in
          try instances.withUnsafeBufferPointer { (rings) throws(E) in
            try body(rings, shapes, ids)
          }
        }
      }
    }

    /// Keeps the handles the store gave this frame's shapes for the next frame.
    private mutating func keepIDs(layout: Layout) {
      if layout == .free {
        buckets.keep(ids: ids)
      } else if let id = ids.first {
        arranged?.id = id
      }
    }

    /// `.row`, `.fittedRow` and `.grid`: every shown loader in its cell of `a`, all of one
    /// shape, the container's corner at `(x0, y0)` points, `scaleX`/`scaleY` pixels a point.
    mutating func arrange(
      _ a: Arrangement, loaders: [LoaderID], table: Table, x0: Double, y0: Double,
      scaleX: Double, scaleY: Double
    ) {
      let total = a.fit * min(scaleX, scaleY)
      if arranged?.scale != total {
        arranged = (unit.scaled(by: total), total, .none)
      }
      guard let arranged else { return }
      shapes.append(arranged.shape)
      ids.append(arranged.id)
      let offsets = a.ringOffsets
      let n = offsets.count
      for i in 0..<min(loaders.count, a.count) {
        let id = loaders[i]
        let slot = table.slots[id.slot]
        if slot.isHidden || slot.opacity == 0 { continue }
        let origin = a.origin(ofLoader: i)
        let first = Int(slot.firstRing)
        let base = id.slot * n
        for r in 0..<n {
          instances.append(
            RingInstance(
              centerX: Float((x0 + origin.x + offsets[r].x) * scaleX),
              centerY: Float((y0 + origin.y + offsets[r].y) * scaleY),
              angle: table.angles[first + r],
              color: LoaderField.color(table.colors[base + r], opacity: slot.opacity)))
        }
        drawn.append(Int32(id.slot))
      }
    }

    /// `.free`: every shown loader in stacking order, its row fitted to its own frame (offset
    /// by the container's corner `(x0, y0)`), its rings of its size bucket's shape. `region`:
    /// the pixels the draw can change; a loader whose frame misses it gets no rings.
    mutating func place(
      order: [Int32], table: Table, style: LoaderStyle, x0: Double, y0: Double,
      scaleX: Double, scaleY: Double, region: PixelRegion?
    ) {
      let density = min(scaleX, scaleY)
      let unitRadius = unit.radius
      guard unitRadius > 0, unitRadius.isFinite, density > 0 else { return }
      buckets.beginFrame()
      let n = style.ringCount
      // The visible pixels, one pixel wider each way for the antialiased fringe.
      let cull = region.map {
        (
          left: Double($0.x) - 1, top: Double($0.y) - 1, right: Double($0.x + $0.width) + 1,
          bottom: Double($0.y + $0.height) + 1
        )
      }
      for entry in order {
        guard entry >= 0 else { continue }
        let s = Int(entry)
        let slot = table.slots[s]
        let f = slot.frame
        guard !slot.isHidden, slot.opacity > 0, f.width > 0, f.height > 0 else { continue }
        let x = x0 + Double(f.x)
        let y = y0 + Double(f.y)
        let w = Double(f.width)
        let h = Double(f.height)
        if let cull {
          guard x * scaleX < cull.right, (x + w) * scaleX > cull.left,
            y * scaleY < cull.bottom, (y + h) * scaleY > cull.top
          else { continue }
        }
        let row = RowLayout.Fitted(width: w, height: h, style: style)
        let radius = unitRadius * row.fit * density
        guard radius.isFinite, radius > 0 else { continue }
        let shape = buckets.index(forRadius: radius, shapes: &shapes, ids: &ids)
        let cy = Float((y + row.centerY) * scaleY)
        let first = Int(slot.firstRing)
        for r in 0..<n {
          instances.append(
            RingInstance(
              centerX: Float((x + row.centerX(ofRing: r)) * scaleX), centerY: cy,
              angle: table.angles[first + r],
              color: LoaderField.color(table.colors[s * n + r], opacity: slot.opacity),
              shape: shape))
        }
        drawn.append(entry)
      }
    }
  }

  /// The loader table as a frame reads it: per slot its record, per ring its colour
  /// (`slot * ringCount + ring`) and presented angle (from the slot's `firstRing`).
  struct Table {
    let slots: UnsafeBufferPointer<Slot>
    let colors: UnsafeBufferPointer<RGBAColor>
    let angles: UnsafeBufferPointer<Float>
  }

  /// `color` with its alpha multiplied by `opacity`.
  @inline(__always)
  static func color(_ color: RGBAColor, opacity: Float) -> RGBAColor {
    guard opacity < 1 else { return color }
    var c = color
    c.a = UInt8((Float(color.a) * opacity).rounded())
    return c
  }
}
