import LoaderCore
import LoaderSDL

/// The raster issue's scene: `count` seeded random 50-point rings at scale 1 on a 1920x1080
/// frame, each at a random whole-point position (so its centre sits on a pixel corner, as the
/// layouts place rings), random angle and one of the five light-mode ring colours, on white.
/// Every ring lies wholly inside the frame: culling has nothing to skip.
struct RasterScene {
  static let width = 1920
  static let height = 1080
  static let style = LoaderStyle.seed
  static let scale = 1.0
  let rings: [RingInstance]
  /// Each ring's frame, `(x, y, side)` in pixels, for the PSNR mask.
  let boxes: [(x: Int, y: Int, side: Int)]
  let background = LoaderPalette.light.background

  init(count: Int, seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let side = Int(Self.style.frameSize * Self.scale)
    var rings: [RingInstance] = []
    var boxes: [(x: Int, y: Int, side: Int)] = []
    rings.reserveCapacity(count)
    for _ in 0..<count {
      let x = Int(rng.next() % UInt64(Self.width - side + 1))
      let y = Int(rng.next() % UInt64(Self.height - side + 1))
      let angle = Float(rng.nextUnit() * 360)
      let color = Self.style.color(ofRing: Int(rng.next() % UInt64(Self.style.ringCount)))
      rings.append(
        RingInstance(
          centerX: Float(x) + Float(side) / 2, centerY: Float(y) + Float(side) / 2, angle: angle,
          color: color))
      boxes.append((x, y, side))
    }
    self.rings = rings
    self.boxes = boxes
  }

  /// The ring shape every backend draws, in pixels.
  static var shape: DashedRing { DashedRing(style: style).scaled(by: scale) }
}
