import Foundation
import LoaderCore
import SwiftLoaderCanvas
import Testing

@testable import LoaderSDL

/// `GfxRingPainter` against the exact shape: every pixel's colour must be the ring colour
/// blended over the background by the ideal coverage, `DashedRing.DistanceTable.coverage(x:y:)`
/// at the pixel's centre (`clamp(min(1/2 - d, 2 h), 0, 1)` of its signed distance `d`, quarter
/// pixels for strokes under 2 px).
@Suite struct GfxRingPainterTests {
  struct Comparison {
    var maxError = 0
    var squaredError = 0.0
    var samples = 0
    var psnr: Double { 10 * log10(255 * 255 / max(squaredError / Double(samples), 1e-12)) }
  }

  /// Draws one ring and compares the whole canvas with the ideal image.
  static func compare(
    shape: DashedRing, centerX: Double, centerY: Double, angle: Double,
    color: RGBAColor = RGBAColor(hex: 0xFF3B30), background: RGBAColor = RGBAColor(hex: 0xFFFFFF)
  ) throws -> Comparison {
    let reach = shape.radius + shape.halfWidth + 2
    let canvas = try OffscreenCanvas(
      width: Int((centerX + reach).rounded(.up)), height: Int((centerY + reach).rounded(.up)))
    canvas.clear(background)
    let ring = RingInstance(
      centerX: Float(centerX), centerY: Float(centerY), angle: Float(angle), color: color)
    try GfxRingPainter().draw([ring], shape: shape, on: canvas.renderer)
    let pixels = canvas.argbPixels()
    var c = Comparison()
    // The coverage this backend draws (`DistanceTable.coverage(x:y:)`: quarters for strokes
    // under 2 px wide), at the pixel's centre turned back by the angle.
    let table = DashedRing.DistanceTable(shape)
    let (co, si) = (cos(angle * .pi / 180), sin(angle * .pi / 180))
    for y in 0..<canvas.height {
      for x in 0..<canvas.width {
        let (px, py) = (Double(x) + 0.5 - centerX, Double(y) + 0.5 - centerY)
        let cov = table.coverage(x: px * co + py * si, y: py * co - px * si) * Double(color.a) / 255
        let got = pixels[y * canvas.width + x]
        let channels: [(UInt8, UInt8, UInt32)] = [
          (color.r, background.r, 16), (color.g, background.g, 8), (color.b, background.b, 0),
        ]
        for (fg, bg, shift) in channels {
          let want = Double(bg) * (1 - cov) + Double(fg) * cov
          let e = Double((got >> shift) & 0xFF) - want
          c.maxError = max(c.maxError, Int(abs(e).rounded()))
          c.squaredError += e * e
          c.samples += 1
        }
      }
    }
    return c
  }

  static let angles: [Double] = [0, 17.3, 60, 210, -45, 725]

  @Test(arguments: [1.0, 2.0, 3.0])
  func seedRingMatchesIdealCoverage(scale: Double) throws {
    let shape = DashedRing(style: .seed).scaled(by: scale)
    for angle in Self.angles {
      for (cx, cy) in [(53.0, 60.0), (53.3, 60.7)] {
        let c = try Self.compare(
          shape: shape, centerX: cx * scale, centerY: cy * scale, angle: angle)
        // 8-bit coverage and SDL's integer blending: a couple of levels at most.
        #expect(c.maxError <= 3, "scale \(scale) angle \(angle) centre \(cx),\(cy)")
        #expect(c.psnr >= 50, "scale \(scale) angle \(angle): \(c.psnr) dB")
      }
    }
  }

  /// The seed changed one way at a time: butt caps, a solid ring, dots, line widths 1 and 10.
  static func otherStyles() throws -> [LoaderStyle] {
    var styles: [LoaderStyle] = []
    var butt = LoaderStyle.seed
    butt.lineCap = .butt
    styles.append(butt)
    var solid = LoaderStyle.seed
    solid.dash = .solid
    styles.append(solid)
    var dots = LoaderStyle.seed
    dots.dash = try DashPattern([0, 6])
    styles.append(dots)
    for width in [1.0, 10.0] {
      var s = LoaderStyle.seed
      s.lineWidth = width
      styles.append(s)
    }
    return styles
  }

  /// Against the one-pixel rule: strokes under 2 px are covered by quarter-pixel boxes instead
  /// (`DashedRing.DistanceTable.coverage(x:y:)`), which `FreePlacementQualityTests` holds to
  /// Cairo, so they are left out here.
  @Test func otherStylesAndBackgrounds() throws {
    let wide = try Self.otherStyles().filter {
      $0.lineWidth / 2 >= DashedRing.DistanceTable.supersampledBelowHalfWidth
    }
    for style in wide {
      for angle in [0.0, 100.5] {
        let c = try Self.compare(
          shape: DashedRing(style: style), centerX: 30.25, centerY: 29.5, angle: angle,
          color: RGBAColor(hex: 0x0A84FF), background: RGBAColor(hex: 0x000000))
        #expect(c.maxError <= 3, "\(style.dash) \(style.lineCap) width \(style.lineWidth)")
      }
    }
  }

  /// Half-transparent colours: the coverage times the alpha, source-over, round and butt.
  @Test(arguments: [LineCap.round, .butt])
  func translucentColoursBlendByCoverageTimesAlpha(cap: LineCap) throws {
    var style = LoaderStyle.seed
    style.lineCap = cap
    for alpha: UInt8 in [128, 37] {
      for angle in [0.0, 100.5] {
        var color = RGBAColor(hex: 0x34C759)
        color.a = alpha
        let c = try Self.compare(
          shape: DashedRing(style: style), centerX: 30.25, centerY: 29.5, angle: angle,
          color: color, background: RGBAColor(hex: 0xFFFFFF))
        #expect(c.maxError <= 3, "\(cap) alpha \(alpha) angle \(angle): \(c.maxError)")
      }
    }
  }

  @Test func ringsOffTheCanvasOrNotFiniteDrawNothing() throws {
    let canvas = try OffscreenCanvas(width: 40, height: 40)
    canvas.clear(RGBAColor(hex: 0xFFFFFF))
    let shape = DashedRing(style: .seed)
    let red = RGBAColor(hex: 0xFF0000)
    let rings = [
      RingInstance(centerX: -100, centerY: 20, angle: 0, color: red),
      RingInstance(centerX: 20, centerY: 1e9, angle: 0, color: red),
      RingInstance(centerX: .nan, centerY: 20, angle: 0, color: red),
      RingInstance(centerX: 20, centerY: 20, angle: .infinity, color: red),
      RingInstance(centerX: -.infinity, centerY: 20, angle: 0, color: red),
    ]
    try GfxRingPainter().draw(rings, shape: shape, on: canvas.renderer)
    #expect(canvas.argbPixels().allSatisfy { $0 & 0xFF_FFFF == 0xFF_FFFF })
  }

  @Test func partlyOffTheCanvasIsClipped() throws {
    // Centre at the canvas corner: the quarter inside must match the ideal image.
    let c = try Self.compare(shape: DashedRing(style: .seed), centerX: 0, centerY: 0, angle: 30)
    #expect(c.maxError <= 3)
  }
}
