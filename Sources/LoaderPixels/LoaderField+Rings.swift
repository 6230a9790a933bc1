extension LoaderField {
  /// Fills `frameRings` with what `draw` shows at `time` when `container`
  /// (logical units) maps to pixels by `scaleX` and `scaleY` (pixels per logical unit) from
  /// the viewport's corner. `region`: the pixels the draw can change (viewport-relative); in
  /// `.free` layout a loader whose frame misses it gets no rings at all. nil culls nothing.
  package func prepareRings(
    in container: LoaderRect, scaleX: Double, scaleY: Double, region: PixelRegion? = nil,
    at time: Double
  ) throws(Error) {
    try Self.validate(container)
    let tau = try advance(to: time)
    do {
      try engine.presentationAngles(at: tau, into: &angles)
    } catch {
      throw .engine(error)
    }
    frameRings.begin(rings: count * style.ringCount)
    lastContainer = container
    let (x0, y0) = (Double(container.x), Double(container.y))
    let a =
      layout == .free
      ? nil : try arrangement(width: Double(container.width), height: Double(container.height))
    slots.withUnsafeBufferPointer { slots in
      ringColorTable.withUnsafeBufferPointer { colors in
        angles.withUnsafeBufferPointer { angles in
          let table = Table(slots: slots, colors: colors, angles: angles)
          if let a {
            frameRings.arrange(
              a, loaders: loaders, table: table, x0: x0, y0: y0, scaleX: scaleX, scaleY: scaleY)
          } else {
            frameRings.place(
              order: order, table: table, style: style, x0: x0, y0: y0, scaleX: scaleX,
              scaleY: scaleY, region: region)
          }
        }
      }
    }
    switch motion {
    case .full: break
    case .pulse, .slow: try applyReducedMotion(at: tau, ringsPerLoader: style.ringCount)
    case .still: for k in frameRings.instances.indices { frameRings.instances[k].angle = 0 }
    }
  }

  /// `.pulse`: every ring at angle 0, its alpha scaled by the pulse of its turn. `.slow`: its
  /// angle `factor` times the exact unwrapped one (reduced mod 360 in `Double`, so a long run
  /// keeps its precision). Both start from the exact angle, so they hold for any
  /// `turnDegrees`.
  private func applyReducedMotion(at tau: Double, ringsPerLoader n: Int) throws(Error) {
    for k in frameRings.instances.indices {
      let exact: Double
      do {
        let slot = Int(frameRings.drawn[k / n])
        exact = try engine.angle(loader: slots[slot].id, ring: k % n, at: tau)
      } catch {
        throw .engine(error)
      }
      switch motion {
      case .slow(let factor):
        frameRings.instances[k].angle = Float((exact * factor).truncatingRemainder(dividingBy: 360))
      default:
        let turns = exact / style.turnDegrees
        let opacity = Self.reducedMotionOpacity(turnProgress: turns - turns.rounded(.down))
        frameRings.instances[k].color.a = UInt8(
          (Double(frameRings.instances[k].color.a) * opacity).rounded())
        frameRings.instances[k].angle = 0
      }
    }
  }
}
