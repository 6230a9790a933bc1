extension LoaderField {
  /// Fills `instances` and `frameShapes` with what `draw` shows at `time` when `frame` (logical
  /// units) maps to pixels by `scaleX` and `scaleY` (pixels per logical unit) from the
  /// viewport's corner. `region`: the pixels the draw can change (viewport-relative); in
  /// `.free` layout a loader whose frame misses it gets no rings at all. nil culls nothing.
  func prepareRings(
    in frame: SDL_FRect, scaleX: Double, scaleY: Double, region: PixelRegion? = nil,
    at time: Double
  ) throws(Error) {
    try Self.validate(frame)
    let tau = try advance(to: time)
    do {
      try engine.presentationAngles(at: tau, into: &angles)
    } catch {
      throw .engine(error)
    }
    let needed = count * style.ringCount
    if instances.capacity > 4 * max(needed, 1 << 12) {
      // The scene shrank a lot (a grid halved from a million down to a few): give the
      // memory back instead of keeping the largest frame's buffer for good.
      instances = []
      instances.reserveCapacity(needed)
      drawn = []
    } else {
      instances.removeAll(keepingCapacity: true)
      drawn.removeAll(keepingCapacity: true)
    }
    frameShapes.removeAll(keepingCapacity: true)
    frameShapeIDs.removeAll(keepingCapacity: true)
    lastContainer = frame
    do {
      // Filled through locals and buffer pointers (locals: see the README).
      var out = FrameRings()
      swap(&out.instances, &instances)
      swap(&out.shapes, &frameShapes)
      swap(&out.ids, &frameShapeIDs)
      swap(&out.drawn, &drawn)
      defer {
        swap(&out.instances, &instances)
        swap(&out.shapes, &frameShapes)
        swap(&out.ids, &frameShapeIDs)
        swap(&out.drawn, &drawn)
      }
      if layout == .free {
        prepareFree(origin: frame, scaleX: scaleX, scaleY: scaleY, region: region, into: &out)
      } else {
        try prepareArranged(in: frame, scaleX: scaleX, scaleY: scaleY, into: &out)
      }
    }
    switch motion {
    case .full: break
    case .pulse, .slow: try applyReducedMotion(at: tau, ringsPerLoader: style.ringCount)
    case .still: for k in instances.indices { instances[k].angle = 0 }
    }
  }

  /// `.row`, `.fittedRow` and `.grid`: every loader in its cell of the arrangement, all of
  /// one shape.
  /// What `prepareRings` fills: `instances`, `frameShapes` and `drawn`, borrowed as locals.
  struct FrameRings {
    var instances: [RingInstance] = []
    var shapes: [DashedRing] = []
    /// Each shape's handle in the renderer's store, as last known (`ShapeID.none` if not).
    var ids: [ShapeID] = []
    var drawn: [Int32] = []
  }

  /// Keeps the handles the renderer's store gave this draw's shapes for the next draw.
  func keepShapeIDs() {
    if layout == .free {
      shapeBuckets.keep(ids: frameShapeIDs)
    } else if let id = frameShapeIDs.first {
      shapeID = id
    }
  }

  private func prepareArranged(
    in frame: SDL_FRect, scaleX: Double, scaleY: Double, into frameRings: inout FrameRings
  ) throws(Error) {
    let a = try arrangement(width: Double(frame.w), height: Double(frame.h))
    let density = min(scaleX, scaleY)
    let total = a.fit * density
    if shape == nil || shapeScale != total {
      shape = unitShape.scaled(by: total)
      shapeScale = total
      shapeID = .none
    }
    guard let shape else { return }
    frameRings.shapes.append(shape)
    frameRings.ids.append(shapeID)
    let x0 = Double(frame.x)
    let y0 = Double(frame.y)
    let offsets = a.ringOffsets
    let n = offsets.count
    let loaders = self.loaders
    slots.withUnsafeBufferPointer { slots in
      ringColorTable.withUnsafeBufferPointer { colors in
        angles.withUnsafeBufferPointer { angles in
          for i in 0..<min(loaders.count, a.count) {
            let id = loaders[i]
            let slot = slots[id.slot]
            if slot.isHidden || slot.opacity == 0 { continue }
            let origin = a.origin(ofLoader: i)
            let first = Int(slot.firstRing)
            let base = id.slot * n
            for r in 0..<n {
              frameRings.instances.append(
                RingInstance(
                  centerX: Float((x0 + origin.x + offsets[r].x) * scaleX),
                  centerY: Float((y0 + origin.y + offsets[r].y) * scaleY),
                  angle: angles[first + r],
                  color: Self.color(colors[base + r], opacity: slot.opacity)))
            }
            frameRings.drawn.append(Int32(id.slot))
          }
        }
      }
    }
  }

  /// `.free`: every visible loader in stacking order, its row fitted to its own frame (offset
  /// by the container's corner), its rings of its size bucket's shape (`ShapeBuckets`).
  private func prepareFree(
    origin frame: SDL_FRect, scaleX: Double, scaleY: Double, region: PixelRegion?,
    into frameRings: inout FrameRings
  ) {
    let density = min(scaleX, scaleY)
    let unitRadius = unitShape.radius
    guard unitRadius > 0, unitRadius.isFinite, density > 0 else { return }
    var buckets = ShapeBuckets(unit: unitShape)
    swap(&buckets, &shapeBuckets)
    defer { swap(&buckets, &shapeBuckets) }
    buckets.beginFrame()

    let n = style.ringCount
    let style = style
    let natural = RowLayout.naturalSize(style: style)
    let x0 = Double(frame.x)
    let y0 = Double(frame.y)
    // The visible pixels, one pixel wider each way for the antialiased fringe.
    let cull = region.map {
      (
        left: Double($0.x) - 1, top: Double($0.y) - 1, right: Double($0.x + $0.width) + 1,
        bottom: Double($0.y + $0.height) + 1
      )
    }
    slots.withUnsafeBufferPointer { slots in
      ringColorTable.withUnsafeBufferPointer { colors in
        angles.withUnsafeBufferPointer { angles in
          for entry in order {
            guard entry >= 0 else { continue }
            let s = Int(entry)
            let slot = slots[s]
            let f = slot.frame
            guard !slot.isHidden, slot.opacity > 0, f.w > 0, f.h > 0 else { continue }
            let x = x0 + Double(f.x)
            let y = y0 + Double(f.y)
            let w = Double(f.w)
            let h = Double(f.h)
            if let cull {
              guard x * scaleX < cull.right, (x + w) * scaleX > cull.left,
                y * scaleY < cull.bottom, (y + h) * scaleY > cull.top
              else { continue }
            }
            let row = FittedRow(width: w, height: h, natural: natural, style: style)
            let radius = unitRadius * row.fit * density
            guard radius.isFinite, radius > 0 else { continue }
            let shape = buckets.index(
              forRadius: radius, shapes: &frameRings.shapes, ids: &frameRings.ids)
            let cy = Float((y + h / 2) * scaleY)
            let first = Int(slot.firstRing)
            for r in 0..<n {
              frameRings.instances.append(
                RingInstance(
                  centerX: Float((x + row.centerX(ofRing: r)) * scaleX), centerY: cy,
                  angle: angles[first + r],
                  color: Self.color(colors[s * n + r], opacity: slot.opacity), shape: shape))
            }
            frameRings.drawn.append(entry)
          }
        }
      }
    }
  }

  /// SPEC's row in a loader's own frame (`.free` layout), as `.fittedRow` lays it out in a
  /// container: the HStack in `w / fit` x `h / fit` points, scaled by
  /// `fit = min(1, w / naturalWidth, h / naturalHeight)` about the frame's corner.
  struct FittedRow {
    let fit: Double
    private let spacer: Double
    private let lead: Double
    private let frameSize: Double

    @inline(__always)
    init(
      width w: Double, height h: Double, natural: (width: Double, height: Double),
      style: LoaderStyle
    ) {
      let n = Double(style.ringCount)
      fit = min(1, w / natural.width, h / natural.height)
      frameSize = style.frameSize
      let width = w / fit
      spacer = max(style.minimumSpacing, (width - n * frameSize) / n)
      let content = n * (spacer + frameSize)
      lead = content > width ? (width - content) / 2 : 0
    }

    /// Ring `r`'s centre from the frame's left edge, points (the centres sit half way down).
    @inline(__always)
    func centerX(ofRing r: Int) -> Double {
      fit * (lead + Double(r + 1) * spacer + frameSize * (Double(r) + 0.5))
    }

    /// Half a ring's frame, points.
    var ringRadius: Double { frameSize / 2 * fit }
  }

  /// `color` with its alpha multiplied by `opacity`.
  @inline(__always)
  static func color(_ color: RGBAColor, opacity: Float) -> RGBAColor {
    guard opacity < 1 else { return color }
    var c = color
    c.a = UInt8((Float(color.a) * opacity).rounded())
    return c
  }

  /// `.pulse`: every ring at angle 0, its alpha scaled by the pulse of its turn. `.slow`: its
  /// angle `factor` times the exact unwrapped one (reduced mod 360 in `Double`, so a long run
  /// keeps its precision). Both start from the exact angle, so they hold for any
  /// `turnDegrees`.
  private func applyReducedMotion(at tau: Double, ringsPerLoader n: Int) throws(Error) {
    for k in instances.indices {
      let exact: Double
      do {
        exact = try engine.angle(loader: slots[Int(drawn[k / n])].id, ring: k % n, at: tau)
      } catch {
        throw .engine(error)
      }
      switch motion {
      case .slow(let factor):
        instances[k].angle = Float((exact * factor).truncatingRemainder(dividingBy: 360))
      default:
        let turns = exact / style.turnDegrees
        let opacity = Self.reducedMotionOpacity(turnProgress: turns - turns.rounded(.down))
        instances[k].color.a = UInt8((Double(instances[k].color.a) * opacity).rounded())
        instances[k].angle = 0
      }
    }
  }
}
