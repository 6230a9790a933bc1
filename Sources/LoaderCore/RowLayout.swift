/// A rectangle in points (or pixels), y down.
package struct LayoutRect: Sendable, Hashable {
  package var x: Double
  package var y: Double
  package var width: Double
  package var height: Double
  package init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }
  package var midX: Double { x + width / 2 }
  package var midY: Double { y + height / 2 }
  package func scaled(by s: Double) -> LayoutRect {
    LayoutRect(x: x * s, y: y * s, width: width * s, height: height * s)
  }
}

/// The seed's row: `HStack { ForEach(0..<n) { Spacer(); ring } }`.
///
/// Ten children, spacer then ring, `n` times; the gap next to a `Spacer` is 0 and a `Spacer`
/// is at least `minimumSpacing` (8) wide, so each spacer is
/// ```
/// spacer = max(minimumSpacing, (W - n * frame) / n)
/// x_i    = (i + 1) * spacer + frame * i
/// ```
/// The row is centred vertically. When even minimum spacers do not fit, the HStack is wider
/// than its container and SwiftUI centres it, so it overflows both edges equally.
/// For `W = 390`: spacers of 28 and frames at 28, 106, 184, 262, 340.
package enum RowLayout {
  /// The row's ideal size, SwiftUI's `sizeThatFits` for it: every ring's frame and a minimum
  /// spacer before each, `n * (frame + minimumSpacing)` by `frame` (290 x 50 for the seed).
  package static func naturalSize(style: LoaderStyle = .seed) -> (width: Double, height: Double) {
    let n = Double(style.ringCount)
    return (n * (style.frameSize + style.minimumSpacing), style.frameSize)
  }

  /// Ring `i`'s frame, left edge, in a row `width` wide: the one place the HStack's formula
  /// is written (allocation-free, for the per-loader loops of a frame).
  package struct Spacing: Sendable {
    /// Each spacer's width, points.
    package let spacer: Double
    /// Where the content starts: 0, or half the overflow to the left when even minimum
    /// spacers do not fit.
    package let lead: Double
    package let frameSize: Double

    @inline(__always)
    package init(width: Double, style: borrowing LoaderStyle) {
      let n = Double(style.ringCount)
      frameSize = style.frameSize
      spacer = Swift.max(style.minimumSpacing, (width - n * frameSize) / n)
      let content = n * (spacer + frameSize)
      lead = content > width ? (width - content) / 2 : 0
    }

    /// Ring `i`'s frame's left edge.
    @inline(__always)
    package func x(ofRing i: Int) -> Double {
      lead + Double(i + 1) * spacer + frameSize * Double(i)
    }

    /// Ring `i`'s centre.
    @inline(__always)
    package func centerX(ofRing i: Int) -> Double { x(ofRing: i) + frameSize / 2 }
  }

  /// The row in a frame of `width` x `height` points, shrunk to fit (`.fittedRow`, and each
  /// loader of `.free` layout): laid out in `width / fit` x `height / fit` points, then scaled
  /// by `fit = min(1, width / naturalWidth, height / naturalHeight)` about the frame's corner.
  package struct Fitted: Sendable {
    package let fit: Double
    let spacing: Spacing
    /// The ring centres' height from the frame's top (half way down).
    package let centerY: Double

    @inline(__always)
    package init(width: Double, height: Double, style: borrowing LoaderStyle) {
      let n = Double(style.ringCount)
      fit = Swift.min(
        1, width / (n * (style.frameSize + style.minimumSpacing)), height / style.frameSize)
      spacing = Spacing(width: width / fit, style: style)
      centerY = height / 2
    }

    /// Ring `i`'s centre from the frame's left edge, points.
    @inline(__always)
    package func centerX(ofRing i: Int) -> Double { fit * spacing.centerX(ofRing: i) }

    /// Half a ring's frame, points.
    package var ringRadius: Double { spacing.frameSize / 2 * fit }
  }

  package static func frames(width: Double, height: Double, style: LoaderStyle = .seed)
    -> [LayoutRect]
  {
    let row = Spacing(width: width, style: style)
    let y = (height - style.frameSize) / 2
    return (0..<style.ringCount).map { i in
      LayoutRect(x: row.x(ofRing: i), y: y, width: row.frameSize, height: row.frameSize)
    }
  }
}
