import Foundation
import LoaderSDL
import SwiftLoaderSupport

/// PSNR between two frames over the pixels that some ring can touch: the union of the rings'
/// square frames. Background far from every ring is equal in any two renders and would only
/// inflate the score, so it is left out; where frames overlap, the pixel counts once.
///
/// The score is `ImageComparison.psnr(_:_:mask:)`; equal images give infinite PSNR, reported
/// as 99 dB (JSON has no infinity).
struct MaskedPSNR {
  let width: Int
  let height: Int
  /// Row-major, `true` where a pixel is compared.
  private let mask: [Bool]

  static let ceiling = 99.0

  /// `boxes` are rectangles in pixels; they are clipped to the frame.
  init(width: Int, height: Int, boxes: [ImageComparison.Rect]) {
    self.width = width
    self.height = height
    var mask = [Bool](repeating: false, count: width * height)
    for b in boxes {
      let x0 = max(0, b.x)
      let x1 = min(width, b.x + b.width)
      let y0 = max(0, b.y)
      let y1 = min(height, b.y + b.height)
      guard x0 < x1, y0 < y1 else { continue }
      for y in y0..<y1 {
        for x in x0..<x1 { mask[y * width + x] = true }
      }
    }
    self.mask = mask
  }

  /// `a` and `b` are `0xAARRGGBB` rows of `width` pixels (alpha ignored), `height` rows.
  func psnr(_ a: [UInt32], _ b: [UInt32]) -> Double {
    precondition(a.count == width * height && b.count == width * height)
    return min(Self.ceiling, ImageComparison.psnr(a, b, mask: mask))
  }
}
