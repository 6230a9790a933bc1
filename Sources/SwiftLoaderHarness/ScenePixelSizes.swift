import LoaderCore

/// The pixel sizes a scene derives from its container, its density and its style, checked
/// once against what every backend can draw, before any work.
///
/// ```
/// frame      = round(width * density) x round(height * density)      1...16384 px a side
/// fit        = 1 for a row, GridLayout(count, width, height).fit for a grid   (<= 1)
/// ringRadius = frameSize / 2 * fit * density                         1e-6...256 px
/// cell       = (width / columns) x (height / rows) * density         finite, > 0
/// ```
/// Every value is computed in `Double` and compared before any conversion to an integer, so
/// no input (huge, tiny, non-finite) can trap; a check that fails names the value and its
/// limits.
///
/// Why these limits:
/// - 16384 px a side is the offscreen canvas's limit (and a common GPU texture limit).
/// - 256 px of ring radius is the demo's own bound (larger than any loader a screen shows),
///   inside every backend's: `RingMaskShape.maximumRadius`, `GfxAtlas.maximumReach`,
///   `GPURingRasterizer.maximumRadius`.
/// - 1e-6 px: a ring that small covers nothing, and below it the backends' arc steps and
///   cap counts would be computed from denormal numbers.
package struct ScenePixelSizes: Sendable, Equatable {
  package static let maximumSide = 16_384
  package static let maximumRingRadius = 256.0
  package static let minimumRingRadius = 1e-6

  /// The frame, pixels.
  package let width: Int
  package let height: Int
  /// Half a ring's frame, pixels (where its ink ends).
  package let ringRadius: Double
  /// One loader's cell, pixels (the whole frame for a row).
  package let cellWidth: Double
  package let cellHeight: Double

  package enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
    case style(LoaderStyle.Error)
    case frame(width: Double, height: Double)
    case ringRadius(Double, frameSize: Double, fit: Double, density: Double)
    case cell(width: Double, height: Double)
    case density(Double)

    package var description: String {
      switch self {
      case .style(let e): "invalid loader style: \(e)"
      case .frame(let w, let h):
        "the frame would be \(w) x \(h) px; each side must be 1...\(ScenePixelSizes.maximumSide) px"
      case .ringRadius(let r, let f, let fit, let d):
        "a ring's radius would be \(r) px (frame \(f) pt / 2 x fit \(fit) x density \(d)); it must be"
          + " \(ScenePixelSizes.minimumRingRadius)...\(Int(ScenePixelSizes.maximumRingRadius)) px"
      case .cell(let w, let h): "a grid cell would be \(w) x \(h) px; it must be finite and > 0"
      case .density(let d): "density must be finite and > 0, got \(d)"
      }
    }
  }

  /// A length of `points` drawn at `density` pixels per point, in whole pixels: the one rounding
  /// every frame, window and recording of the demo is sized by (`round(points * density)`).
  /// A `Double`, so that a size can be checked before it becomes an `Int`.
  package static func pixels(_ points: Double, density: Double) -> Double {
    (points * density).rounded()
  }

  /// The sizes of a `width x height` point container drawn at `density` pixels per point:
  /// one row of `style` (`gridCount == nil`) or a `GridLayout` of `gridCount` loaders.
  package init(
    width: Double, height: Double, density: Double, style: LoaderStyle, gridCount: Int? = nil
  ) throws(Error) {
    do { try style.validate() } catch { throw .style(error) }
    guard density.isFinite, density > 0 else { throw .density(density) }
    let w = Self.pixels(width, density: density)
    let h = Self.pixels(height, density: density)
    let side = 1...Double(Self.maximumSide)
    guard w.isFinite, h.isFinite, side.contains(w), side.contains(h) else {
      throw .frame(width: width * density, height: height * density)
    }
    var fit = 1.0
    var cell = (width: width, height: height)
    if let gridCount {
      let grid: GridLayout
      do {
        grid = try GridLayout(count: gridCount, width: width, height: height, style: style)
      } catch {
        throw .cell(width: width, height: height)
      }
      fit = grid.fit
      cell = (width / Double(grid.columns), height / Double(grid.rows))
    }
    let radius = style.frameSize / 2 * fit * density
    guard radius.isFinite, radius >= Self.minimumRingRadius, radius <= Self.maximumRingRadius
    else {
      throw .ringRadius(radius, frameSize: style.frameSize, fit: fit, density: density)
    }
    let cellPixels = (cell.width * density, cell.height * density)
    guard cellPixels.0.isFinite, cellPixels.1.isFinite, cellPixels.0 > 0, cellPixels.1 > 0 else {
      throw .cell(width: cellPixels.0, height: cellPixels.1)
    }
    self.width = Int(w)
    self.height = Int(h)
    ringRadius = radius
    (cellWidth, cellHeight) = cellPixels
  }
}
