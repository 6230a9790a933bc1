import Foundation
import Testing

@testable import LoaderCore

@Suite struct DashedRingTests {
  @Test func seedRingHasNineteenDashesWithTheSeamAtThreeOClock() throws {
    let ring = DashedRing(style: .seed)
    #expect(ring.radius == 23)
    #expect(ring.halfWidth == 2)
    #expect(ring.dashes.count == 19)
    // on 2, off 4, on 6, off 2, on 4, off 6 from s = 0, six whole periods.
    var expected: [(Double, Double)] = []
    for p in 0..<6 {
      let b = Double(p) * 24
      expected += [(b, b + 2), (b + 6, b + 12), (b + 14, b + 18)]
    }
    let circumference = 2 * Double.pi * 23
    expected.append((144, circumference))
    for (dash, (s, e)) in zip(ring.dashes, expected) {
      #expect(abs(dash.start - s / 23) < 1e-12)
      #expect(abs(dash.end - e / 23) < 1e-12)
    }
    let seam = try #require(ring.dashes.last)
    #expect(abs((seam.end - seam.start) * 23 - (2 * Double.pi * 23 - 144)) < 1e-9)
    #expect(abs((seam.end - seam.start) * 23 - 0.51) < 0.01)
    #expect(seam.end == 2 * Double.pi)
    #expect(ring.dashes.first?.start == 0)
  }

  @Test func signedDistanceMatchesTheCapsules() {
    let ring = DashedRing(style: .seed)
    // On the centreline inside the first dash: fully inside by half the width.
    #expect(abs(ring.signedDistance(x: 23 * cos(1 / 23), y: 23 * sin(1 / 23)) + 2) < 1e-9)
    // In the middle of the first 4-long gap (s = 4): 2 from either cap centre along the arc.
    let d = ring.signedDistance(x: 23 * cos(4 / 23), y: 23 * sin(4 / 23))
    #expect(d < 0.01 && d > -0.01)
    // The ring's centre is far outside.
    #expect(ring.signedDistance(x: 0, y: 0) > 20)
    // Rotating by the first dash's angle moves it.
    let rot = 3.0 / 23
    #expect(
      abs(
        ring.signedDistance(x: 23 * cos(1 / 23 + rot), y: 23 * sin(1 / 23 + rot), rotation: rot) + 2
      ) < 1e-9)
  }

  @Test func scaledRingKeepsAngles() {
    let ring = DashedRing(style: .seed).scaled(by: 2)
    #expect(ring.radius == 46)
    #expect(ring.halfWidth == 4)
    #expect(ring.dashes == DashedRing(style: .seed).dashes)
  }

  @Test func fastArctangentIsWithinItsBound() {
    var rng = SplitMix64(seed: 7)
    var worst = 0.0
    var points: [(Double, Double)] = [(1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, -1), (0, 0)]
    for _ in 0..<100_000 {
      points.append((rng.nextUnit() * 2 - 1, rng.nextUnit() * 2 - 1))
    }
    for (x, y) in points {
      let exact = (x == 0 && y == 0) ? 0 : atan2(y, x)
      worst = max(worst, abs(DashedRing.DistanceTable.atan2(y, x) - exact))
    }
    #expect(worst <= 2e-6, "worst error \(worst) radians")
  }
}
