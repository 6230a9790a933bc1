extension LoaderField {
  /// The rings the last `draw` (or `rings(in:density:at:)`) handed to the rasterizer.
  package var preparedRings: [RingInstance] { frameRings.instances }

  /// Rings the last draw handed the rasterizer (hidden, transparent and culled loaders have
  /// none), and the shapes they had: what the draw cost, for a HUD.
  package var drawnRingCount: Int { frameRings.instances.count }
  package var drawnShapeCount: Int { frameRings.shapes.count }

  /// The shapes of `preparedRings`, by their `shape` index.
  package var preparedShapes: [DashedRing] { frameRings.shapes }

  /// What `draw` would hand the rasterizer at `time` on a renderer at render scale `density`
  /// with no viewport, without a renderer.
  package func rings(in frame: LoaderRect, density: Double = 1, at time: Double) throws(Error)
    -> [RingInstance]
  {
    try prepareRings(in: frame, scaleX: density, scaleY: density, at: time)
    return frameRings.instances
  }
}
