extension LoaderField {
  /// The rings the last `draw` (or `prepareRings`) handed to the rasterizer.
  package var preparedRings: [RingInstance] { instances }

  /// What `draw` would hand the rasterizer at `time`, without a renderer.
  package func rings(in frame: SDL_FRect, scale: Double, at time: Double) throws(Error)
    -> [RingInstance]
  {
    try prepareRings(in: frame, scale: scale, at: time)
    return instances
  }
}

extension LoaderField {
  /// The threads of the `spans` rasterizer drawing now (nil before a draw, or another backend).
  package var spanRasterizerThreads: Int? { (rasterizer as? CoverageSpanRasterizer)?.threads }
}
