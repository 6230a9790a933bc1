import Foundation
import Testing

@testable import SwiftLoaderSupport

/// The PSNR every quality bar is measured with, on images whose error is known.
@Suite struct ImageComparisonTests {
  static let width = 8
  static let height = 4
  static let gray = [UInt32](repeating: 0xFF80_8080, count: width * height)

  @Test func equalImagesAreInfinitelyClose() {
    #expect(ImageComparison.psnr(Self.gray, Self.gray, width: Self.width) == .infinity)
  }

  /// One channel of one pixel off by `d`: `MSE = d^2 / (3 * pixels)` over the compared area.
  @Test(arguments: [1, 8, 100, 127])
  func oneChannelOffMatchesTheFormula(d: Int) {
    for (shift, index) in [(16, 0), (8, 13), (0, 31)] as [(UInt32, Int)] {
      var b = Self.gray
      let channel = Int((b[index] >> shift) & 0xFF)
      let changed = UInt32(channel + d)
      b[index] = (b[index] & ~(0xFF << shift)) | (changed << shift)
      let pixels = Double(Self.width * Self.height)
      let expected = 10 * log10(255 * 255 * 3 * pixels / Double(d * d))
      let db = ImageComparison.psnr(Self.gray, b, width: Self.width)
      #expect(abs(db - expected) < 1e-9, "channel at bit \(shift), d \(d): \(db), want \(expected)")
    }
  }

  @Test func alphaIsIgnored() {
    let transparent = Self.gray.map { $0 & 0x00FF_FFFF }
    #expect(ImageComparison.psnr(Self.gray, transparent, width: Self.width) == .infinity)
  }

  /// Only pixels where the mask is true count: one masked-in error over `n` masked-in pixels.
  @Test func maskSelectsPixels() {
    var b = Self.gray
    b[5] = 0xFF90_8080  // red off by 16 at pixel 5
    b[20] = 0xFF00_0000  // far off, but masked out
    var mask = [Bool](repeating: false, count: Self.gray.count)
    for i in [3, 5, 9] { mask[i] = true }
    let expected = 10 * log10(255 * 255 * 3 * 3 / 256.0)
    #expect(abs(ImageComparison.psnr(Self.gray, b, mask: mask) - expected) < 1e-9)
    mask[5] = false
    #expect(ImageComparison.psnr(Self.gray, b, mask: mask) == .infinity)
    let none = [Bool](repeating: false, count: Self.gray.count)
    #expect(ImageComparison.psnr(Self.gray, b, mask: none) == .infinity)
  }

  /// Only pixels inside `rect`, clipped to the image, count.
  @Test func rectSelectsAndIsClipped() {
    var b = Self.gray
    b[1 * Self.width + 6] = 0xFF00_0000  // pixel (6, 1)
    typealias Rect = ImageComparison.Rect
    // A rect that misses the changed pixel, one that is empty, one wholly outside.
    for rect in [
      Rect(x: 0, y: 0, width: 6, height: 4), Rect(x: 6, y: 1, width: 0, height: 3),
      Rect(x: 20, y: 0, width: 5, height: 5),
    ] {
      #expect(ImageComparison.psnr(Self.gray, b, width: Self.width, rect: rect) == .infinity)
    }
    // The pixel alone, and a rect hanging off the bottom-right corner that holds it with 3
    // other pixels: the same error over 1 and over 4 pixels.
    let alone = ImageComparison.psnr(
      Self.gray, b, width: Self.width, rect: Rect(x: 6, y: 1, width: 1, height: 1))
    let four = ImageComparison.psnr(
      Self.gray, b, width: Self.width, rect: Rect(x: 6, y: 0, width: 10, height: 2))
    let error = 3.0 * 128 * 128
    #expect(abs(alone - 10 * log10(255 * 255 * 3 / error)) < 1e-9)
    #expect(abs(four - 10 * log10(255 * 255 * 12 / error)) < 1e-9)
  }
}
