import LoaderCore
import LoaderPixels
import SwiftLoaderTestSupport

/// The seed row as SPEC works it out, written here rather than computed by the library, for
/// references the library's layout and motion cannot bend: in a 390 x 120 point container the
/// frames start at x = 28, 106, 184, 262, 340 (50-point squares, the row centred vertically),
/// and one loader on from `T = 0` shows the angles SPEC gives at 0.1, 0.35 and 1.3 s.
enum SpecSeedRow {
  /// SPEC's "The row": where ring `i`'s frame starts, points.
  static let frameX: [Double] = [28, 106, 184, 262, 340]
  /// SPEC's "Worked values": each ring's angle, degrees, at these times.
  static let angles: [Double: [Double]] = [
    0.1: [60, 0, 0, 0, 0],
    0.35: [210, 60, 0, 0, 0],
    1.3: [390, 360, 360, 330, 180],
  ]

  /// The row at `time` (one of `angles`' times) at `density`, in the style's light colours,
  /// on a `width x height` pixel scene (the container's size times the density, rounded up).
  static func scene(at time: Double, density: Double) -> RasterScene {
    let turned = angles[time] ?? []
    precondition(turned.count == 5, "SPEC works out no angles at \(time) s")
    let rings = (0..<5).map { i in
      RingInstance(
        centerX: Float((frameX[i] + 25) * density), centerY: Float(60 * density),
        angle: Float(turned[i]), color: LoaderStyle.seed.color(ofRing: i))
    }
    return RasterScene(
      width: Int((390 * density).rounded(.up)), height: Int((120 * density).rounded(.up)),
      density: density, palette: .light, rings: rings)
  }
}
