import Foundation

/// Peak signal-to-noise ratio between two images, the measure every rasterizer is held to
/// against the Cairo reference.
///
/// Over the `R`, `G`, `B` channels of every pixel in the compared rectangle:
/// ```
/// MSE  = sum (a_c - b_c)^2 / (3 * pixels)
/// PSNR = 10 * log10(255^2 / MSE)   dB   (infinity when the images are equal)
/// ```
/// For scale: an aliased ring scores about 26 dB against an antialiased one, a half-pixel
/// offset about 25; 30 dB is an error of about 8 levels RMS.
package enum ImageComparison {
  /// A rectangle of pixels, clipped to the image by the functions that take it.
  package struct Rect: Sendable, Hashable {
    package var x: Int
    package var y: Int
    package var width: Int
    package var height: Int
    package init(x: Int, y: Int, width: Int, height: Int) {
      self.x = x
      self.y = y
      self.width = width
      self.height = height
    }
  }

  /// PSNR in dB of `a` against `b`, both row-major `0xAARRGGBB` images `width` pixels wide,
  /// over `rect` (the whole image when nil). Alpha is ignored.
  package static func psnr(_ a: [UInt32], _ b: [UInt32], width: Int, rect: Rect? = nil) -> Double {
    precondition(a.count == b.count && width > 0 && a.count % width == 0)
    let (sum, n) = squaredError(a, b, width: width, rect: rect)
    return psnr(squaredError: sum, pixels: n)
  }

  /// PSNR in dB of `a` against `b` over the pixels where `mask` is true; all three share one
  /// row-major layout. Alpha is ignored.
  package static func psnr(_ a: [UInt32], _ b: [UInt32], mask: [Bool]) -> Double {
    precondition(a.count == b.count && mask.count == a.count)
    var sum = 0
    var n = 0
    for i in mask.indices where mask[i] {
      sum += squaredError(a[i], b[i])
      n += 1
    }
    return psnr(squaredError: sum, pixels: n)
  }

  /// The summed squared error over R, G, B of `pixels` pixels, as PSNR.
  private static func psnr(squaredError sum: Int, pixels n: Int) -> Double {
    guard n > 0, sum > 0 else { return .infinity }
    let mse = Double(sum) / Double(3 * n)
    return 10 * log10(255 * 255 / mse)
  }

  /// Squared difference of two `0xAARRGGBB` pixels over R, G and B.
  @inline(__always)
  private static func squaredError(_ p: UInt32, _ q: UInt32) -> Int {
    let dr = Int((p >> 16) & 0xFF) - Int((q >> 16) & 0xFF)
    let dg = Int((p >> 8) & 0xFF) - Int((q >> 8) & 0xFF)
    let db = Int(p & 0xFF) - Int(q & 0xFF)
    return dr * dr + dg * dg + db * db
  }

  private static func squaredError(_ a: [UInt32], _ b: [UInt32], width: Int, rect: Rect?)
    -> (sum: Int, pixels: Int)
  {
    var sum = 0
    var n = 0
    forEachPair(a, b, width: width, rect: rect) { p, q in
      sum += squaredError(p, q)
      n += 1
    }
    return (sum, n)
  }

  private static func forEachPair(
    _ a: [UInt32], _ b: [UInt32], width: Int, rect: Rect?, _ body: (UInt32, UInt32) -> Void
  ) {
    let height = a.count / width
    let r = rect ?? Rect(x: 0, y: 0, width: width, height: height)
    let x0 = max(0, r.x)
    let y0 = max(0, r.y)
    let x1 = min(width, r.x + r.width)
    let y1 = min(height, r.y + r.height)
    guard x0 < x1, y0 < y1 else { return }
    for y in y0..<y1 {
      for x in x0..<x1 { body(a[y * width + x], b[y * width + x]) }
    }
  }
}
