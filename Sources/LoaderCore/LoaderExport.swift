import Foundation

/// The web twin of a loader row: one steady period of its motion as an animated SVG or a
/// Lottie animation, written as text with Foundation alone.
///
/// ```swift
/// let svg = try LoaderExport.svg(
///   style: .seed.with(palette: .dark), background: LoaderPalette.dark.background)
/// let json = try LoaderExport.lottie(style: .seed, width: 390, height: 120)
/// ```
///
/// What the files hold, for a container of `width` x `height` points laid out as the seed's
/// row (as `LoaderView` lays it out), one user unit (SVG) or one Lottie pixel per point:
/// - **Geometry.** Each "on" interval of the dash pattern is its own open arc (SVG `A`
///   commands, or cubic Béziers of at most 45 degrees in Lottie), all of one ring stroked
///   together, so overlapping caps blend once: renderers disagree on where a dash array puts
///   its dashes along a circle, but agree on arcs. A zero-length dash with round caps is a dot
///   (`dotFraction`); with butt caps it has no ink and is left out.
/// - **Motion.** Exactly one steady-state period, `ringCount * stagger` seconds, that loops
///   without a seam: ring `i`'s turn starts at `i * stagger` into the period; a turn longer
///   than the period overlaps the next and the two add, as SPEC's timing curves do.
/// - **Timing in the file.** SVG: SMIL `animateTransform` (or CSS `@keyframes`) with linear
///   timing. Lottie: a shape layer per ring with linear rotation keyframes and hold keyframes
///   for rests (`lottieFrameRate(of:)`).
///
/// Lottie cannot share a path between layers of different colours, so every ring repeats it
/// and the file is several times the SVG's. Non-goals: the start before the steady state,
/// toggling, speed and reduced motion.
public enum LoaderExport {
  /// How an SVG animates its rings. Both play in every current browser, inline, in an `<img>`
  /// or as a document.
  public enum SVGAnimation: String, Sendable, Hashable, CaseIterable {
    /// SMIL `<animateTransform>` elements, the default: the browser draws every frame's path
    /// afresh, so each frame matches Cairo's as closely as a still image does.
    /// `SVGSVGElement.pauseAnimations()` and `setCurrentTime(_:)` control it from a script.
    case smil
    /// CSS `@keyframes` in a `<style>` element. Chromium runs a CSS transform animation on its
    /// compositor: it rasterizes each ring once and turns the bitmap, which blurs a turning
    /// ring (SVGInChromiumTests holds it to a lower bar than SMIL). `Element.getAnimations()`
    /// controls it from a script.
    case css
  }

  /// Why a style or a container cannot be exported: `description` says what was refused and
  /// the limit. Refused: a style that fails `LoaderStyle.validate()`; a container side that is
  /// not finite, positive and at most 100,000 points; `turnDegrees` that is not a whole number
  /// of turns (the last frame would not meet the first; a solid ring is exempt); a Lottie file
  /// of more than 100,000 arc segments (rings times dashes).
  public struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
    package enum Reason: Sendable, Equatable {
      case invalidStyle(LoaderStyle.Error)
      case invalidSize(width: Double, height: Double)
      case turnNotWhole(degrees: Double)
      case tooManySegments(Int)
    }
    /// What was wrong, for the package's tests to match.
    package let reason: Reason

    package static func invalidStyle(_ e: LoaderStyle.Error) -> Self {
      Self(reason: .invalidStyle(e))
    }
    package static func invalidSize(width: Double, height: Double) -> Self {
      Self(reason: .invalidSize(width: width, height: height))
    }
    package static func turnNotWhole(degrees: Double) -> Self {
      Self(reason: .turnNotWhole(degrees: degrees))
    }
    package static func tooManySegments(_ n: Int) -> Self { Self(reason: .tooManySegments(n)) }

    /// The reason, in words.
    public var description: String {
      switch reason {
      case .invalidStyle(let e): "invalid loader style: \(e)"
      case .invalidSize(let w, let h):
        "container \(w) x \(h) points: each side must be finite, > 0 and <= "
          + "\(Int(LoaderExport.maximumSide))"
      case .turnNotWhole(let d):
        "turnDegrees \(d) is not a multiple of 360: one period would not loop without a seam"
      case .tooManySegments(let n):
        "the Lottie file would hold \(n) arc segments (rings x dashes); at most "
          + "\(LoaderExport.maximumLottieSegments)"
      }
    }
  }

  /// Largest container side, points: far beyond any screen, small enough that every
  /// coordinate written with three decimals stays exact in a `Double`.
  package static let maximumSide = 100_000.0

  /// Most arc segments in one Lottie file: each is written as a few keyframed points of JSON,
  /// so the cap bounds the file's size (the SVG writes its geometry once and needs no such
  /// cap).
  package static let maximumLottieSegments = 100_000

  /// The arc that draws a zero-length round-capped dash is this fraction of the line width
  /// long: renderers drop an empty arc (SVG's arc rule) or one shorter than their fixed-point
  /// unit (rlottie strokes in 1/64 pixel), and at a twentieth rlottie still draws the dot.
  static let dotFraction = 0.05

  /// An animated SVG document of the row: one steady period, looping forever.
  ///
  /// - Parameters:
  ///   - style: rings, colours (with their alpha), dash, cap, line width and timing.
  ///   - width: the container's width, points (the SVG's `width` and `viewBox`).
  ///   - height: the container's height, points; the row is centred in it.
  ///   - background: a rectangle of this colour behind the rings, or nil for a transparent
  ///     image (a palette's is `LoaderPalette.background`; the default is
  ///     `LoaderPalette.light`'s white).
  ///   - animation: SMIL (the default) or CSS `@keyframes`.
  /// - Returns: the document, UTF-8 text with one element per line.
  /// - Throws: `LoaderExport.Error` for a style that fails `LoaderStyle.validate()`, a
  ///   container side that is not finite, > 0 and at most 100,000 points, or a dashed
  ///   style whose `turnDegrees` is not a multiple of 360 (the loop would not close).
  public static func svg(
    style: LoaderStyle = .seed, width: Double = 390, height: Double = 120,
    background: RGBAColor? = LoaderPalette.light.background, animation: SVGAnimation = .smil
  ) throws(Error) -> String {
    try validate(style: style, width: width, height: height)
    return SVGDocument(
      style: style, width: width, height: height, background: background, animation: animation
    ).text
  }

  /// A Lottie animation (Bodymovin JSON) of the row: one steady period, looping forever.
  ///
  /// The composition is `ceil(width)` x `ceil(height)` pixels (Lottie sizes are whole), the
  /// row laid out in `width` x `height` from its top-left corner, at `lottieFrameRate(of:)`.
  ///
  /// - Parameters:
  ///   - style: rings, colours (with their alpha), dash, cap, line width and timing.
  ///   - width: the container's width, points.
  ///   - height: the container's height, points; the row is centred in it.
  ///   - background: a rectangle layer of this colour behind the rings, or nil for a
  ///     transparent animation (the default is `LoaderPalette.light`'s white).
  /// - Returns: the JSON file's bytes, the same for the same input.
  /// - Throws: `LoaderExport.Error` when `svg(style:width:height:background:animation:)`
  ///   would throw, and for a file of more than 100,000 arc segments (rings times dashes).
  public static func lottie(
    style: LoaderStyle = .seed, width: Double = 390, height: Double = 120,
    background: RGBAColor? = LoaderPalette.light.background
  ) throws(Error) -> Data {
    try validate(style: style, width: width, height: height)
    let arcs = DashArcs(style: style, maximumSweep: LottieDocument.maximumSweep)
    let segments = arcs.segmentCount * style.ringCount
    guard segments <= maximumLottieSegments else { throw .tooManySegments(segments) }
    return LottieDocument(
      style: style, arcs: arcs, width: width, height: height, background: background
    ).data
  }

  /// The Lottie frame rate for `style`: the whole number of frames nearest to 60 fps over one
  /// period, divided by the period. 60 for the seed (75 frames in 1.25 s).
  package static func lottieFrameRate(of style: LoaderStyle) -> Double {
    Double(lottieFrameCount(of: style)) / style.period
  }

  /// Frames in one Lottie period (`op`): `max(1, round(60 * period))`.
  package static func lottieFrameCount(of style: LoaderStyle) -> Int {
    // `period` is at most 1024 * 86400 s (`LoaderStyle`'s limits), 5.3e9 frames: an `Int`.
    Int(max(1, (60 * style.period).rounded()))
  }

  static func validate(style: LoaderStyle, width: Double, height: Double) throws(Error) {
    do {
      try style.validate()
    } catch {
      throw .invalidStyle(error)
    }
    for side in [width, height] {
      guard side.isFinite, side > 0, side <= maximumSide else {
        throw .invalidSize(width: width, height: height)
      }
    }
    guard style.dash.isSolid || style.turnDegrees.remainder(dividingBy: 360) == 0 else {
      throw .turnNotWhole(degrees: style.turnDegrees)
    }
  }

  /// `x` rounded to `decimals` places, without trailing zeros, a `-0` or an exponent:
  /// `23`, `-4.5`, `0.001`. Values are at most `1e12` here, well inside plain notation.
  static func number(_ x: Double, decimals: Int = 3) -> String {
    let unit = [1.0, 10, 100, 1000, 10_000, 100_000, 1_000_000][min(max(decimals, 0), 6)]
    let r = (x * unit).rounded() / unit
    if r == 0 { return "0" }
    if r == r.rounded(), abs(r) < 1e15 { return String(Int64(r)) }
    var s = String(format: "%.\(decimals)f", r)
    while s.hasSuffix("0") { s.removeLast() }
    if s.hasSuffix(".") { s.removeLast() }
    return s
  }
}
