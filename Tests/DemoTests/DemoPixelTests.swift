import Foundation
import LoaderCore
import SwiftLoaderTestSupport
import Testing

/// Frames rendered by the built demo (dummy video driver), read back from its PNGs.
@Suite struct DemoPixelTests {
  /// Renders `--at times` and loads the frames.
  func frames(_ arguments: [String]) throws -> [PNGImage] {
    let dir = try ScratchDirectory("pixels")
    defer { dir.remove() }
    let r = try DemoProcess.run(arguments + ["--out", dir.path])
    #expect(r.status == 0, "stderr: \(r.stderr)")
    return try dir.contents().filter { $0.hasSuffix(".png") }.map {
      try PNGImage(path: dir.file($0))
    }
  }

  static func distance(_ a: RGBAColor, _ b: RGBAColor) -> Int {
    max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
  }

  /// The pixel under the centreline (radius 23 points) in the middle of the seed's 6-long
  /// dash (arc length 6...12, so 9 / 23 radians from 3 o'clock), turned by `angle` degrees.
  static func dashPixel(cx: Double, cy: Double, angle: Double, scale: Double) -> (Int, Int) {
    let a = 9.0 / 23 + angle * .pi / 180
    let x = cx + 23 * scale * cos(a)
    let y = cy + 23 * scale * sin(a)
    return (Int(x.rounded(.down)), Int(y.rounded(.down)))
  }

  @Test(arguments: LoaderTheme.allCases, [1.0, 2.0])
  func ringColoursOnDashesBackgroundElsewhere(theme: LoaderTheme, scale: Double) throws {
    let images = try frames(["--at", "0,0.35", "--theme", theme.rawValue, "--zoom", "\(scale)"])
    try #require(images.count == 2)
    let palette = theme.palette
    let angles: [[Double]] = [[0, 0, 0, 0, 0], [210, 60, 0, 0, 0]]
    for (image, ringAngles) in zip(images, angles) {
      #expect(image.width == Int(390 * scale) && image.height == Int(120 * scale))
      let cy = 60 * scale
      for ring in 0..<5 {
        let cx = (53 + 78 * Double(ring)) * scale
        let (x, y) = Self.dashPixel(cx: cx, cy: cy, angle: ringAngles[ring], scale: scale)
        let ink = image.color(x: x, y: y)
        #expect(
          Self.distance(ink, palette.ringColors[ring]) <= 8,
          "ring \(ring) at (\(x), \(y)): \(ink), want \(palette.ringColors[ring])")
        // Background: the frame's centre, well inside and well outside the stroke (radius 15
        // and 28 points, ink spans 21...25), and halfway to the next frame.
        var empty = [(cx, cy), (cx + 39 * scale, cy)]
        for k in 0..<12 {
          let a = Double(k) * .pi / 6
          empty.append((cx + 15 * scale * cos(a), cy + 15 * scale * sin(a)))
          empty.append((cx + 28 * scale * cos(a), cy + 28 * scale * sin(a)))
        }
        for (ex, ey) in empty {
          let c = image.color(x: Int(ex.rounded(.down)), y: Int(ey.rounded(.down)))
          #expect(c == palette.background, "ring \(ring) near (\(ex), \(ey)): \(c)")
        }
      }
    }
  }

  /// Mean absolute difference per channel (0...255) between `a` and `b` turned by `degrees`
  /// about `(cx, cy)`: every pixel of `a` whose centre lies 19...27 points from the centre
  /// (the stroke spans 21...25) against `b` sampled bilinearly where that centre came from.
  static func rotationError(
    _ a: PNGImage, _ b: PNGImage, degrees: Double, cx: Double, cy: Double, scale: Double
  ) -> Double {
    let th = degrees * .pi / 180
    var sum = 0.0
    var n = 0
    let reach = Int((27 * scale).rounded(.up)) + 1
    for j in (Int(cy) - reach)...(Int(cy) + reach) {
      for i in (Int(cx) - reach)...(Int(cx) + reach) {
        let x = (Double(i) + 0.5 - cx) / scale
        let y = (Double(j) + 0.5 - cy) / scale
        let rho = (x * x + y * y).squareRoot()
        guard rho >= 19, rho <= 27 else { continue }
        // `a` at p must equal `b` at p turned back by the angle.
        let bx = x * cos(th) + y * sin(th)
        let by = -x * sin(th) + y * cos(th)
        let p = a.color(x: i, y: j)
        let q = b.sample(x: cx + bx * scale, y: cy + by * scale)
        sum += abs(Double(p.r) - q.0) + abs(Double(p.g) - q.1) + abs(Double(p.b) - q.2)
        n += 3
      }
    }
    return sum / Double(n)
  }

  @Test(arguments: [(1.0, 8.0), (2.0, 4.0)])
  func thirtyDegreeFrameIsTheZeroFrameTurned(scale: Double, tolerance: Double) throws {
    // At t = 0.05 ring 0 is at 30 degrees, at t = 0 at 0. The seed's dash period (24 points
    // on radius 23) is 59.8 degrees, and half a period on, the cycled [2, 4, 6] is its own
    // complement (on 2, off 4, on 6 becomes off 2, on 4, off 6): at 30 degrees the turned
    // frame has ink where the unturned one has gaps, so a ring that never turns fails.
    let images = try frames(["--at", "0,0.05", "--zoom", "\(scale)"])
    try #require(images.count == 2)
    let (cx, cy) = (53 * scale, 60 * scale)
    let turned = Self.rotationError(images[1], images[0], degrees: 30, cx: cx, cy: cy, scale: scale)
    let unturned = Self.rotationError(
      images[1], images[0], degrees: 0, cx: cx, cy: cy, scale: scale)
    // Tolerance: mean absolute error per channel (0...255) over the stroke's annulus.
    // Resampling an antialiased 4-point stroke bilinearly costs about 6 at scale 1 and 3 at
    // scale 2 even for an exact rotation.
    #expect(turned < tolerance, "mean abs error \(turned)")
    #expect(unturned > 3 * turned, "not turned: \(unturned) vs turned by 30 degrees: \(turned)")
  }

  /// `--reduced-motion still`: frames at two times are the same bytes; `slow` moves, less.
  @Test func reducedMotionStillFramesAreIdentical() throws {
    let still = try frames(["--at", "0.3,0.9", "--reduced-motion", "still"])
    try #require(still.count == 2)
    #expect(still[0].pixels == still[1].pixels)
    #expect(still[0].pixels.contains { $0 != still[0].pixels[0] }, "the rings show")
    let slow = try frames(["--at", "0.3,0.9", "--reduced-motion", "slow"])
    try #require(slow.count == 2)
    #expect(slow[0].pixels != slow[1].pixels)
  }
}
