import Foundation
import LoaderCore
import SwiftLoaderSupport
import SwiftLoaderTestSupport
import Testing

@testable import LoaderSDL

/// `draw(into:in:at:)`: the loader into a caller's pixels, no renderer: the same picture as
/// every other path (30 dB a ring against Cairo) in every format and density, each format's
/// alpha by its own definition, the same bits at any thread count, and a clear error for a
/// buffer it cannot use.
@Suite struct PixelBufferTests {
  static let white = RGBAColor(hex: 0xFFFFFF)

  /// A buffer of `width x height` pixels of `fill` (`0xAARRGGBB`) in `format`, as words.
  static func pixels(_ width: Int, _ height: Int, fill: UInt32, _ format: PixelBuffer.Format)
    -> [UInt32]
  {
    [UInt32](repeating: format == .bgraPremultiplied ? fill : swapRB(fill), count: width * height)
  }

  /// `0xAARRGGBB` and `0xAABBGGRR` (R, G, B, A bytes) into each other.
  static func swapRB(_ w: UInt32) -> UInt32 {
    w & 0xFF00_FF00 | (w >> 16) & 0xFF | (w & 0xFF) << 16
  }

  static func draw(
    _ view: LoaderView, into words: inout [UInt32], width: Int, height: Int,
    _ format: PixelBuffer.Format, density: Double, clip: PixelBuffer.Rect? = nil,
    frame: SDL_FRect, at time: Double
  ) throws {
    _ = try words.withUnsafeMutableBytes { raw in
      try view.draw(
        into: PixelBuffer(
          base: raw.baseAddress, width: width, height: height, bytesPerRow: width * 4,
          format: format, density: density, clip: clip),
        in: frame, at: time)
    }
  }

  @Test(arguments: [1.0, 2.0, 1.5])
  func theSeedRowMatchesCairoInEveryFormat(density: Double) throws {
    let palette = LoaderPalette.light
    let (w, h) = (Int((390 * density).rounded(.up)), Int((120 * density).rounded(.up)))
    let frame = SDL_FRect(x: 0, y: 0, w: 390, h: 120)
    for format in PixelBuffer.Format.allCases {
      let view = LoaderView(isAnimating: true)
      var words = Self.pixels(w, h, fill: 0xFFFF_FFFF, format)
      try Self.draw(
        view, into: &words, width: w, height: h, format, density: density,
        frame: frame, at: 0.55)
      let argb = format == .bgraPremultiplied ? words : words.map(Self.swapRB)
      // Where the rings went and how far they turned, in the style's own colours.
      var rings = view.field.preparedRings
      for k in rings.indices { rings[k].color = LoaderStyle.seed.color(ofRing: k) }
      let scene = RasterScene(width: w, height: h, density: density, palette: palette, rings: rings)
      let reference = try scene.renderCairo()
      #expect(rings.count == 5)
      for i in rings.indices {
        let db = ImageComparison.psnr(argb, reference, width: w, rect: scene.crop(ofRing: i))
        #expect(db >= 30, "\(format) at density \(density), ring \(i): \(db) dB")
      }
    }
  }

  /// The same row against a Cairo reference placed and turned by SPEC's worked numbers
  /// (`SpecSeedRow`), not by the field's own ring places: so a layout or motion error that the
  /// field and its reference would share still fails here.
  @Test(arguments: [1.0, 2.0, 1.5])
  func theSeedRowMatchesSPECsWorkedNumbersInEveryFormat(density: Double) throws {
    for (time, _) in SpecSeedRow.angles.sorted(by: { $0.key < $1.key }) {
      let scene = SpecSeedRow.scene(at: time, density: density)
      let reference = try scene.renderCairo()
      for format in PixelBuffer.Format.allCases {
        let view = LoaderView(isAnimating: true)
        var words = Self.pixels(scene.width, scene.height, fill: 0xFFFF_FFFF, format)
        try Self.draw(
          view, into: &words, width: scene.width, height: scene.height, format,
          density: density, frame: SDL_FRect(x: 0, y: 0, w: 390, h: 120), at: time)
        let argb = format == .bgraPremultiplied ? words : words.map(Self.swapRB)
        for i in scene.rings.indices {
          let db = ImageComparison.psnr(
            argb, reference, width: scene.width, rect: scene.crop(ofRing: i))
          #expect(db >= 30, "\(format) at density \(density), \(time) s, ring \(i): \(db) dB")
        }
      }
    }
  }

  /// Over transparent pixels, a half-transparent red: premultiplied formats hold the colour
  /// times its alpha, the straight one the colour itself, both with alpha 128 where the stroke
  /// covers the pixel fully.
  @Test func premultipliedAndStraightEachKeepTheirOwnDefinition() throws {
    for format in PixelBuffer.Format.allCases {
      let view = LoaderView(isAnimating: false)
      try view.field.setColors([RGBAColor(r: 255, g: 0, b: 0)], of: view.field.loaders[0])
      try view.field.setOpacity(128.0 / 255, of: view.field.loaders[0])
      var words = Self.pixels(290, 50, fill: 0, format)
      try Self.draw(
        view, into: &words, width: 290, height: 50, format, density: 2,
        clip: nil, frame: SDL_FRect(x: 0, y: 0, w: 145, h: 25), at: 0)
      let argb = format == .bgraPremultiplied ? words : words.map(Self.swapRB)
      // Full coverage at alpha 128/255: 127 or 128 after 8-bit rounding.
      let top = argb.map { Int($0 >> 24) }.max() ?? 0
      #expect(abs(top - 128) <= 1, "\(format): alpha \(top) where the stroke covers a pixel")
      let full = argb.filter { Int($0 >> 24) == top }
      let red = format == .rgbaStraight ? 255 : top
      for p in full.prefix(50) {
        #expect(abs(Int((p >> 16) & 0xFF) - red) <= 1, "\(format): red \((p >> 16) & 0xFF)")
        #expect(p & 0xFFFF == 0, "\(format): green and blue stay 0")
      }
      #expect(argb.allSatisfy { $0 >> 24 <= 128 }, "\(format): alpha never above the colour's")
    }
  }

  /// Many loaders blended on 1 to 4 threads: the same bytes; and a clip changes only its
  /// pixels, to what the whole draw put there.
  @Test func threadsAndClip() throws {
    let (w, h) = (960, 540)
    func render(threads: Int, clip: PixelBuffer.Rect? = nil) throws -> [UInt32] {
      let field = try LoaderField(layout: .grid, threads: threads)
      try field.addLoaders(300, isAnimating: true, at: 0)
      var words = Self.pixels(w, h, fill: 0xFF20_2020, .bgraPremultiplied)
      _ = try words.withUnsafeMutableBytes { raw in
        try field.draw(
          into: PixelBuffer(
            base: raw.baseAddress, width: w, height: h, bytesPerRow: w * 4,
            format: .bgraPremultiplied, density: 1.5, clip: clip),
          in: SDL_FRect(x: 0, y: 0, w: 640, h: 360), at: 0.7)
      }
      return words
    }
    let one = try render(threads: 1)
    #expect(one.contains { $0 != 0xFF20_2020 })
    for n in 2...4 { #expect(try render(threads: n) == one, "\(n) threads") }
    let clip = PixelBuffer.Rect(x: 100, y: 50, width: 300, height: 200)
    let clipped = try render(threads: 2, clip: clip)
    for y in 0..<h {
      for x in 0..<w {
        let inside = x >= 100 && x < 400 && y >= 50 && y < 250
        let want = inside ? one[y * w + x] : 0xFF20_2020
        if clipped[y * w + x] != want {
          Issue.record("pixel (\(x), \(y)) \(inside ? "inside" : "outside") the clip")
          return
        }
      }
    }
  }

  /// Every bad buffer is refused with one line naming what is wrong, and nothing is written.
  @Test func badBuffersAreRefused() throws {
    let view = LoaderView(isAnimating: true)
    let frame = SDL_FRect(x: 0, y: 0, w: 290, h: 50)
    var words = [UInt32](repeating: 7, count: 300 * 60 + 1)
    words.withUnsafeMutableBytes { raw in
      let base = raw.baseAddress!
      let cases: [(PixelBuffer, String)] =
        [
          (
            PixelBuffer(
              base: nil, width: 300, height: 60, bytesPerRow: 1200, format: .rgbaStraight),
            "null"
          ),
          (
            PixelBuffer(
              base: base + 1, width: 300, height: 60, bytesPerRow: 1200,
              format: .rgbaStraight), "aligned"
          ),
          (
            PixelBuffer(
              base: base, width: 300, height: 60, bytesPerRow: 1196,
              format: .rgbaStraight), "shorter than 300 pixels"
          ),
          (
            PixelBuffer(
              base: base, width: 300, height: 60, bytesPerRow: 1202,
              format: .rgbaStraight), "multiple of 4"
          ),
          (
            PixelBuffer(
              base: base, width: 0, height: 60, bytesPerRow: 1200,
              format: .rgbaStraight), "size must be > 0"
          ),
          (
            PixelBuffer(
              base: base, width: 300, height: Int.max / 1000, bytesPerRow: 1200,
              format: .rgbaStraight), "overflow"
          ),
          (
            PixelBuffer(
              base: base, width: Int.max / 2, height: 1, bytesPerRow: Int.max,
              format: .rgbaStraight), "shorter than"
          ),
        ]
        + [0, -1, .nan, .infinity].map { d in
          (
            PixelBuffer(
              base: base, width: 300, height: 60, bytesPerRow: 1200,
              format: .bgraPremultiplied, density: d), "density"
          )
        }
      for (buffer, words) in cases {
        do throws(LoaderField.Error) {
          try view.draw(into: buffer, in: frame, at: 0.5)
          Issue.record("drew into a bad buffer (\(words))")
        } catch {
          #expect(error.description.contains(words), "\(error)")
          #expect(!error.description.contains("\n"))
        }
      }
    }
    #expect(words.allSatisfy { $0 == 7 }, "a refused draw wrote nothing")
  }
}
