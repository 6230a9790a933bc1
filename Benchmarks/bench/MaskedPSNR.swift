import Foundation

/// PSNR between two frames over the pixels that some ring can touch: the union of the rings'
/// square frames. Background far from every ring is equal in any two renders and would only
/// inflate the score, so it is left out; where frames overlap, the pixel counts once.
///
/// Over the `R`, `G`, `B` channels of the `n` pixels in the mask:
/// ```
/// MSE  = sum (a_c - b_c)^2 / (3 n)
/// PSNR = 10 log10(255^2 / MSE)  dB
/// ```
/// Equal images give infinite PSNR; it is reported as 99 dB (JSON has no infinity).
struct MaskedPSNR {
  let width: Int
  let height: Int
  /// Row-major, `true` where a pixel is compared.
  private var mask: [Bool]
  private(set) var pixelCount = 0

  static let ceiling = 99.0

  /// `boxes` are `(x, y, side)` squares in pixels; they are clipped to the frame.
  init(width: Int, height: Int, boxes: [(x: Int, y: Int, side: Int)]) {
    self.width = width
    self.height = height
    mask = [Bool](repeating: false, count: width * height)
    for b in boxes {
      let x0 = max(0, b.x)
      let x1 = min(width, b.x + b.side)
      let y0 = max(0, b.y)
      let y1 = min(height, b.y + b.side)
      guard x0 < x1, y0 < y1 else { continue }
      for y in y0..<y1 {
        for x in x0..<x1 where !mask[y * width + x] {
          mask[y * width + x] = true
          pixelCount += 1
        }
      }
    }
  }

  /// `a` and `b` are `0xAARRGGBB` rows of `width` pixels (alpha ignored), `height` rows.
  func psnr(_ a: [UInt32], _ b: [UInt32]) -> Double {
    precondition(a.count == width * height && b.count == width * height)
    var sum = 0
    for i in 0..<mask.count where mask[i] {
      let p = a[i]
      let q = b[i]
      let dr = Int((p >> 16) & 0xFF) - Int((q >> 16) & 0xFF)
      let dg = Int((p >> 8) & 0xFF) - Int((q >> 8) & 0xFF)
      let db = Int(p & 0xFF) - Int(q & 0xFF)
      sum += dr * dr + dg * dg + db * db
    }
    guard pixelCount > 0, sum > 0 else { return Self.ceiling }
    let mse = Double(sum) / Double(3 * pixelCount)
    return min(Self.ceiling, 10 * log10(255 * 255 / mse))
  }
}
