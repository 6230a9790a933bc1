import LoaderCore
import SwiftLoaderCairoReference
import SwiftLoaderSupport

/// One ring as a trace or a field states it: its frame's centre and half side in output
/// pixels, its angle and colour. Rings of any sizes in one frame (loaders placed freely).
package struct StrokedRing: Sendable, Equatable {
  package var centerX: Double
  package var centerY: Double
  /// Half the ring's frame, pixels (25 for the seed at density 1).
  package var frameRadius: Double
  package var angle: Double
  package var color: RGBAColor

  package init(
    centerX: Double, centerY: Double, frameRadius: Double, angle: Double, color: RGBAColor
  ) {
    self.centerX = centerX
    self.centerY = centerY
    self.frameRadius = frameRadius
    self.angle = angle
    self.color = color
  }

  /// The pixels of the ring's frame, one more on the right and bottom for a frame off the
  /// pixel grid.
  package var crop: ImageComparison.Rect {
    ImageComparison.Rect(
      x: Int((centerX - frameRadius).rounded(.down)),
      y: Int((centerY - frameRadius).rounded(.down)),
      width: Int((2 * frameRadius).rounded(.up)) + 1,
      height: Int((2 * frameRadius).rounded(.up)) + 1
    )
  }
}

/// Cairo's picture of freely placed rings, and which of them stand apart.
package enum StrokedRings {
  /// Cairo's frame of `rings` in order over `background`: each the `style`'s ring at the
  /// density that makes its frame `2 * frameRadius` pixels, arcs flattened to
  /// `CairoRingRenderer.fineTolerance` (rings a few pixels wide need it).
  package static func cairo(
    _ rings: [StrokedRing], width: Int, height: Int, style: LoaderStyle = .seed,
    background: RGBAColor
  ) throws -> [UInt32] {
    let cairo = try CairoRingRenderer(
      width: width, height: height, tolerance: CairoRingRenderer.fineTolerance)
    cairo.clear(background)
    for r in rings {
      cairo.strokeRing(
        style: style, density: 2 * r.frameRadius / style.frameSize, centerX: r.centerX,
        centerY: r.centerY, angle: r.angle, color: r.color)
    }
    return cairo.argbPixels()
  }

  /// The indices of the rings whose frame (grown by `margin` pixels) overlaps no other
  /// ring's and lies inside a `width x height` frame: where a crop shows that ring alone.
  package static func apart(
    _ rings: [StrokedRing], width: Int, height: Int, margin: Double = 1
  ) -> [Int] {
    func box(_ r: StrokedRing) -> (Double, Double, Double, Double) {
      let h = r.frameRadius + margin
      return (r.centerX - h, r.centerY - h, r.centerX + h, r.centerY + h)
    }
    let boxes = rings.map(box)
    return rings.indices.filter { i in
      let a = boxes[i]
      guard a.0 >= 0, a.1 >= 0, a.2 <= Double(width), a.3 <= Double(height) else { return false }
      return !boxes.indices.contains { j in
        let b = boxes[j]
        return j != i && a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
      }
    }
  }
}
