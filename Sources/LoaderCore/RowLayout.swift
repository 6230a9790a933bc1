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

  package static func frames(width: Double, height: Double, style: LoaderStyle = .seed)
    -> [LayoutRect]
  {
    let n = Double(style.ringCount)
    let f = style.frameSize
    let spacer = Swift.max(style.minimumSpacing, (width - n * f) / n)
    let content = n * (spacer + f)
    let offset = content > width ? (width - content) / 2 : 0
    let y = (height - f) / 2
    return (0..<style.ringCount).map { i in
      LayoutRect(x: offset + Double(i + 1) * spacer + f * Double(i), y: y, width: f, height: f)
    }
  }
}
