import Foundation
import LoaderCore
import SwiftLoaderCairoReference
import SwiftLoaderSupport
import Testing

/// One exported animation to check: a style in a container, on its theme's background.
struct VectorCase: CustomTestStringConvertible, Sendable {
  var name: String
  var style: LoaderStyle
  var width: Int
  var height: Int
  var palette: LoaderPalette

  var testDescription: String { name }

  /// The seed at the phone's width; the seed in a wider, taller container (`--size 600x150`,
  /// spacers of 70); a dark style whose turn (2 s) is longer than its period (4 x 0.4 s), so
  /// turns overlap and wrap, with butt caps, a zero-length dash (no ink) and a phase; and
  /// translucent dots (zero-length round dashes) whose turn lasts exactly one period.
  static let all: [VectorCase] = [
    VectorCase(name: "seed 390x120", style: .seed, width: 390, height: 120, palette: .light),
    VectorCase(name: "seed 600x150", style: .seed, width: 600, height: 150, palette: .light),
    VectorCase(
      name: "overlap butt 390x120", style: overlapping, width: 390, height: 120, palette: .dark),
    VectorCase(
      name: "translucent dots 300x80", style: translucentDots, width: 300, height: 80,
      palette: .light26),
  ]

  static var overlapping: LoaderStyle {
    var s = LoaderStyle.seed.with(palette: .dark)
    s.ringCount = 4
    s.stagger = 0.4
    s.turnDuration = 2
    s.lineCap = .butt
    s.lineWidth = 5
    s.frameSize = 60
    s.dash = try! DashPattern([9, 3, 0, 4], phase: 2)
    return s
  }

  static var translucentDots: LoaderStyle {
    var s = LoaderStyle.seed
    s.ringCount = 3
    s.stagger = 0.3
    s.turnDuration = 0.9
    s.dash = try! DashPattern([0, 5])
    s.colors = LoaderPalette.light26.ringColors.map { c in
      var c = c
      c.a = 0x99
      return c
    }
    return s
  }

  var period: Double { style.period }

  /// Six times spread over one period, each on a whole Lottie frame (rlottie renders whole
  /// frames only), so both renderers are checked at exactly the same times.
  var times: [(frame: Int, seconds: Double)] {
    let frames = LoaderExport.lottieFrameCount(of: style)
    let rate = LoaderExport.lottieFrameRate(of: style)
    return (0..<6).map { k in
      let f = Int((Double(k * frames) / 6).rounded())
      return (f, Double(f) / rate)
    }
  }

  /// Ring `i`'s angle `t` seconds into the exported period, by SPEC's model: a loader on from 0,
  /// read at a whole number of periods after every turn in flight has started (the steady state).
  func angle(ofRing i: Int, at t: Double) -> Double {
    let settle = (style.turnDuration / period).rounded(.up) + 2
    return LoaderTimeline(style: style, animatingFrom: 0).angle(ofRing: i, at: settle * period + t)
  }

  /// Cairo's frame at `t`: the background, then every ring stroked at its SPEC angle.
  func cairoFrame(at t: Double) throws -> [UInt32] {
    let cairo = try CairoRingRenderer(width: width, height: height)
    cairo.clear(palette.background)
    for (i, f) in RowLayout.frames(width: Double(width), height: Double(height), style: style)
      .enumerated()
    {
      cairo.strokeRing(
        style: style, density: 1, centerX: f.midX, centerY: f.midY, angle: angle(ofRing: i, at: t),
        color: style.color(ofRing: i))
    }
    return cairo.argbPixels()
  }

  /// PSNR of each ring's frame (its `frameSize` square) in `image` against Cairo's at `t`.
  func ringPSNRs(_ image: [UInt32], at t: Double) throws -> [Double] {
    let reference = try cairoFrame(at: t)
    return RowLayout.frames(width: Double(width), height: Double(height), style: style).map { f in
      ImageComparison.psnr(
        image, reference, width: width,
        rect: ImageComparison.Rect(
          x: Int(f.x.rounded()), y: Int(f.y.rounded()), width: Int(f.width.rounded()),
          height: Int(f.height.rounded())))
    }
  }

  /// `VECTOR_EXPORT_PNG_DIR`, when set: where the renders are saved for a person to look at.
  static var pngDirectory: String? {
    ProcessInfo.processInfo.environment["VECTOR_EXPORT_PNG_DIR"].flatMap { $0.isEmpty ? nil : $0 }
  }

  var fileStem: String { name.replacingOccurrences(of: " ", with: "-") }
}

/// The bar every renderer meets against Cairo, per ring and time (SPEC: 30 dB is an error of
/// about 8 levels RMS).
let minimumRingPSNR = 30.0

/// `"36.1"` for the report lines.
func decibels(_ x: Double) -> String { x.isFinite ? String(format: "%.1f", x) : "inf" }
