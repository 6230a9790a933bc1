import LoaderCore
import Testing

@testable import LoaderPixels

/// `PixelBuffer(bytes:...)` checks the memory's length, now and at every draw; each draw into a
/// buffer returns a rectangle that holds every pixel it changed, close around them, so a host
/// uploads only that.
@Suite struct PixelBufferRegionTests {
  @Test func theMemorysLengthIsChecked() throws {
    var bytes = [UInt8](repeating: 0, count: 390 * 120 * 4)
    try bytes.withUnsafeMutableBytes { raw in
      // Packed rows: exactly enough.
      let buffer = try PixelBuffer(bytes: raw, width: 390, height: 120, format: .rgbaStraight)
      #expect(buffer.bytesPerRow == 1560 && buffer.byteCount == raw.count)
      // A stride wider than the row: the last row needs its pixels only.
      let strided = try PixelBuffer(
        bytes: UnsafeMutableRawBufferPointer(rebasing: raw[0..<(200 * 119 + 160)]), width: 40,
        height: 120, bytesPerRow: 200, format: .bgraPremultiplied)
      #expect(strided.height == 120)
      do {
        _ = try PixelBuffer(
          bytes: UnsafeMutableRawBufferPointer(rebasing: raw[0..<(200 * 119 + 159)]), width: 40,
          height: 120, bytesPerRow: 200, format: .bgraPremultiplied)
        Issue.record("a byte short was taken")
      } catch let error as LoaderField.Error {
        #expect(error.reason == .buffer)
        #expect(error.description.contains("the memory holds 23959"), "\(error)")
      }
      // Grown after the check: the draw refuses it, writing nothing.
      var grown = buffer
      grown.height = 121
      let view = LoaderView(isAnimating: true)
      do {
        try view.draw(into: grown, in: LoaderRect(x: 0, y: 0, width: 390, height: 120), at: 0.3)
        Issue.record("a buffer taller than its memory was drawn into")
      } catch let error as LoaderField.Error {
        #expect(error.reason == .buffer)
      }
    }
    #expect(bytes.allSatisfy { $0 == 0 })
  }

  /// In every format, with and without a clip: every changed pixel lies in the returned
  /// rectangle, which is at most a few pixels wider than they are; nothing drawn, nil.
  @Test(arguments: PixelBuffer.Format.allCases)
  func eachDrawReturnsTheRectangleItChanged(format: PixelBuffer.Format) throws {
    let (w, h) = (500, 200)
    let view = LoaderView(isAnimating: true)
    for clip in [nil, PixelBuffer.Rect(x: 60, y: 30, width: 150, height: 100)] {
      var words = [UInt32](repeating: 0x8040_2010, count: w * h)
      let changed = try words.withUnsafeMutableBytes { raw in
        try view.draw(
          into: PixelBuffer(bytes: raw, width: w, height: h, format: format, clip: clip),
          in: LoaderRect(x: 40.3, y: 20.7, width: 290, height: 50), at: 0.35)
      }
      let rect = try #require(changed, "clip \(String(describing: clip))")
      var (x0, y0, x1, y1) = (Int.max, Int.max, Int.min, Int.min)
      for y in 0..<h {
        for x in 0..<w where words[y * w + x] != 0x8040_2010 {
          (x0, y0, x1, y1) = (min(x0, x), min(y0, y), max(x1, x), max(y1, y))
        }
      }
      #expect(x0 >= rect.x && y0 >= rect.y, "clip \(String(describing: clip))")
      #expect(x1 < rect.x + rect.width && y1 < rect.y + rect.height)
      // Close around the ink: a ring's reach is its outer radius plus a chunk and a pixel.
      #expect(x0 - rect.x <= 8 && rect.x + rect.width - 1 - x1 <= 8, "\(rect) vs \(x0)...\(x1)")
      #expect(y0 - rect.y <= 3 && rect.y + rect.height - 1 - y1 <= 3, "\(rect) vs \(y0)...\(y1)")
      if let clip {
        #expect(rect.x >= clip.x && rect.y >= clip.y)
        #expect(rect.x + rect.width <= clip.x + clip.width)
        #expect(rect.y + rect.height <= clip.y + clip.height)
      }
    }
    // Nothing in view: nil, and no pixel changed.
    var words = [UInt32](repeating: 0x8040_2010, count: w * h)
    let none = try words.withUnsafeMutableBytes { raw in
      try view.draw(
        into: PixelBuffer(bytes: raw, width: w, height: h, format: format),
        in: LoaderRect(x: 900, y: 20, width: 290, height: 50), at: 0.35)
    }
    #expect(none == nil)
    #expect(words.allSatisfy { $0 == 0x8040_2010 })
  }
}
