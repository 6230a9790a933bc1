import Foundation
import LoaderCore
import LoaderSDL
import SwiftLoaderCairoReference
import SwiftLoaderCanvas
import SwiftLoaderSupport

/// A frame of rings that a backend, Cairo and the coverage reference each draw, so that the
/// tests and the bench compare backends on the same pixels.
///
/// Two scenes are used: the seed's row (`seedRow`), where the tests look at each ring's crop,
/// and the stress scene (`stress`), seeded random rings on a 1920x1080 frame, which the bench
/// times and scores.
package struct RasterScene {
  package var width: Int
  package var height: Int
  /// Pixels per point.
  package var density: Double
  package var palette: LoaderPalette
  package var rings: [RingInstance]
  package var style: LoaderStyle

  package init(
    width: Int, height: Int, density: Double, palette: LoaderPalette, rings: [RingInstance],
    style: LoaderStyle = .seed
  ) {
    self.width = width
    self.height = height
    self.density = density
    self.palette = palette
    self.rings = rings
    self.style = style
  }

  /// The seed's row in a `390 x 120` point container, ring `i` turned `angles[i]`.
  package static func seedRow(density: Double, palette: LoaderPalette, angles: [Float])
    -> RasterScene
  {
    let frames = RowLayout.frames(width: 390, height: 120)
    let rings = frames.enumerated().map { i, f in
      RingInstance(
        centerX: Float(f.midX * density), centerY: Float(f.midY * density),
        angle: angles[i % angles.count], color: palette.ringColors[i])
    }
    return RasterScene(
      width: Int(390 * density), height: Int(120 * density), density: density, palette: palette,
      rings: rings)
  }

  /// The stress scene's empty frame: 1920x1080 pixels at density 1, the seed's style, on the
  /// light background.
  package static let stressFrame = RasterScene(
    width: 1920, height: 1080, density: 1, palette: .light, rings: [])

  /// `count` seeded random rings on `stressFrame`, each at a random whole-point position (so
  /// its centre sits on a pixel corner, as the layouts place rings), random angle and one of
  /// the style's ring colours. Every ring lies wholly inside the frame: culling has nothing to
  /// skip.
  package static func stress(count: Int, seed: UInt64) -> RasterScene {
    var scene = stressFrame
    var rng = SplitMix64(seed: seed)
    let side = Int(scene.style.frameSize * scene.density)
    scene.rings.reserveCapacity(count)
    for _ in 0..<count {
      let x = Int(rng.next() % UInt64(scene.width - side + 1))
      let y = Int(rng.next() % UInt64(scene.height - side + 1))
      let angle = Float(rng.nextUnit() * 360)
      let color = scene.style.color(ofRing: Int(rng.next() % UInt64(scene.style.ringCount)))
      scene.rings.append(
        RingInstance(
          centerX: Float(x) + Float(side) / 2, centerY: Float(y) + Float(side) / 2, angle: angle,
          color: color))
    }
    return scene
  }

  /// The ring shape every backend draws, in pixels.
  package var shape: DashedRing { DashedRing(style: style).scaled(by: density) }

  /// Pixel rectangle of ring `i`'s frame (the crop its PSNR is measured on).
  package func crop(ofRing i: Int) -> ImageComparison.Rect {
    let side = Int((style.frameSize * density).rounded())
    let r = rings[i]
    return ImageComparison.Rect(
      x: Int((Double(r.centerX) - Double(side) / 2).rounded()),
      y: Int((Double(r.centerY) - Double(side) / 2).rounded()), width: side, height: side)
  }

  /// Every ring's frame, in ring order.
  package var crops: [ImageComparison.Rect] { rings.indices.map(crop(ofRing:)) }

  /// A crop around 3 o'clock of ring `i` (where the last dash meets the first).
  package func seamCrop(ofRing i: Int) -> ImageComparison.Rect {
    let reach = Int((shape.halfWidth + 3).rounded(.up))
    let r = rings[i]
    return ImageComparison.Rect(
      x: Int(Double(r.centerX) + shape.radius) - reach, y: Int(r.centerY) - 4 * reach,
      width: 2 * reach, height: 8 * reach)
  }

  /// The frame `backend` draws on `canvas` (nil: a new software `OffscreenCanvas` of the
  /// scene's size), through the canvas's `LoaderRenderer`, as `0xAARRGGBB` rows.
  package func render(
    with backend: any RingRasterizer, on canvas: OffscreenCanvas? = nil,
    threads: Int = RotationEngine.availableCores
  ) throws -> [UInt32] {
    let canvas = try canvas ?? OffscreenCanvas(width: width, height: height)
    canvas.clear(palette.background)
    try rings.withUnsafeBufferPointer { (buf) throws(SDLError) in
      _ = try canvas.loaderRenderer.draw(buf, shape: shape, with: backend, threads: threads)
    }
    return canvas.argbPixels()
  }

  /// The coverage reference: every pixel blended ring by ring, in double precision, with
  /// `DashedRing.DistanceTable.coverage(x:y:)` at each pixel's centre (`DashedRing`'s rule,
  /// quarter pixels for strokes under 2 px) and source-over of the colour's straight alpha,
  /// `out = src * a * c + dst * (1 - a * c)`.
  package func renderIdeal() -> [UInt32] {
    let table = DashedRing.DistanceTable(shape)
    let bg = palette.background
    var image = [SIMD3<Double>](
      repeating: SIMD3(Double(bg.r), Double(bg.g), Double(bg.b)), count: width * height)
    let reach = shape.radius + shape.halfWidth + 1
    for ring in rings {
      let rotation = Double(ring.angle) * .pi / 180
      let (c, s) = (cos(rotation), sin(rotation))
      let (cx, cy) = (Double(ring.centerX), Double(ring.centerY))
      let color = SIMD3(Double(ring.color.r), Double(ring.color.g), Double(ring.color.b))
      let alpha = Double(ring.color.a) / 255
      let y0 = max(0, Int((cy - reach).rounded(.down)))
      let y1 = min(height - 1, Int((cy + reach).rounded(.up)))
      let x0 = max(0, Int((cx - reach).rounded(.down)))
      let x1 = min(width - 1, Int((cx + reach).rounded(.up)))
      guard y0 <= y1, x0 <= x1 else { continue }
      for y in y0...y1 {
        for x in x0...x1 {
          let (dx, dy) = (Double(x) + 0.5 - cx, Double(y) + 0.5 - cy)
          let w = alpha * table.coverage(x: dx * c + dy * s, y: dy * c - dx * s)
          image[y * width + x] = color * w + image[y * width + x] * (1 - w)
        }
      }
    }
    return image.map { p in
      let q = p.rounded(.toNearestOrEven)
      return 0xFF00_0000 | UInt32(q.x) << 16 | UInt32(q.y) << 8 | UInt32(q.z)
    }
  }

  /// The same scene in another style and with every colour's alpha set to `alpha`.
  package func with(cap: LineCap, alpha: UInt8) -> RasterScene {
    var scene = self
    scene.style.lineCap = cap
    for i in scene.rings.indices { scene.rings[i].color.a = alpha }
    return scene
  }

  /// Strokes every ring onto `cairo` (which the caller has cleared).
  package func stroke(on cairo: CairoRingRenderer) {
    for r in rings {
      cairo.strokeRing(
        style: style, density: density, centerX: Double(r.centerX), centerY: Double(r.centerY),
        angle: Double(r.angle), color: r.color)
    }
  }

  /// Cairo's frame of the scene, as `0xAARRGGBB` rows.
  package func renderCairo() throws -> [UInt32] {
    let cairo = try CairoRingRenderer(width: width, height: height)
    cairo.clear(palette.background)
    stroke(on: cairo)
    return cairo.argbPixels()
  }
}
