import LoaderCore

/// One ring to draw: its frame's centre in output pixels, its rotation, its colour, and which
/// of the draw call's shapes it has.
package struct RingInstance: Sendable, Hashable {
  /// Centre of the ring's frame, output pixels (continuous: pixel `(i, j)` covers `[i, i + 1)`).
  package var centerX: Float
  package var centerY: Float
  /// Degrees clockwise; any value (rasterizers reduce it mod 360).
  package var angle: Float
  package var color: RGBAColor
  /// Index into the `shapes` of the draw call; a ring whose index is out of range is skipped.
  package var shape: Int32

  package init(
    centerX: Float, centerY: Float, angle: Float, color: RGBAColor, shape: Int32 = 0
  ) {
    self.centerX = centerX
    self.centerY = centerY
    self.angle = angle
    self.color = color
    self.shape = shape
  }
}
