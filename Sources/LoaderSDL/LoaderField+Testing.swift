extension LoaderField {
  /// The rings the last `draw` (or `rings(in:density:at:)`) handed to the rasterizer.
  package var preparedRings: [RingInstance] { instances }

  /// What `draw` would hand the rasterizer at `time` on a renderer at render scale `density`
  /// with no viewport, without a renderer.
  package func rings(in frame: SDL_FRect, density: Double = 1, at time: Double) throws(Error)
    -> [RingInstance]
  {
    try prepareRings(in: frame, scaleX: density, scaleY: density, at: time)
    return instances
  }
}
