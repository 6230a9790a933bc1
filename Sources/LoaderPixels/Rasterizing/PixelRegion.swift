/// Where rings may put ink, in the pixels of the renderer's current target.
///
/// Ring centres handed to a rasterizer are relative to the viewport's top-left pixel, which is
/// what SDL's own calls take at render scale 1; `visible` is the part of the target a draw
/// call can change there (the viewport, cut by the clip rect), relative to the same corner.
package struct PixelRegion: Sendable, Equatable {
  /// The viewport's top-left corner in the target's pixels.
  package var originX: Int
  package var originY: Int
  /// The viewport cut by the clip rect, viewport-relative pixels; empty when nothing shows.
  package var x: Int
  package var y: Int
  package var width: Int
  package var height: Int

  package init(originX: Int, originY: Int, x: Int, y: Int, width: Int, height: Int) {
    self.originX = originX
    self.originY = originY
    self.x = x
    self.y = y
    self.width = max(0, width)
    self.height = max(0, height)
  }

  package var isEmpty: Bool { width <= 0 || height <= 0 }
}
