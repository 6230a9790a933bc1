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

  /// The cap rule for butt ends: the annular sector's signed distance, inside and out, with
  /// touching dashes one sector (no flat end at the seam) and zero-length dashes no ink.
  @Test func buttEndsAreTheSectorsDistance() {
    var style = LoaderStyle.seed
    style.lineCap = .butt
    let ring = DashedRing(style: style)
    let table = DashedRing.DistanceTable(ring)
    func at(arc s: Double, radius: Double = 23) -> Double {
      table.signedDistance(x: radius * cos(s / 23), y: radius * sin(s / 23))
    }
    // Middle of the first dash (0...2): about 1 from either flat end (the end's line is
    // `23 sin(1 / 23)` away), 2 from the sides.
    #expect(abs(at(arc: 1) + 23 * sin(1.0 / 23)) < 1e-5)
    // Just inside its end at s = 2, and just outside it.
    #expect(abs(at(arc: 1.75) + 0.25) < 1e-3)
    #expect(abs(at(arc: 2.25) - 0.25) < 1e-3)
    // Middle of the 4-long gap: 2 from both ends (round caps would close it).
    #expect(abs(at(arc: 4) - 23 * sin(2.0 / 23)) < 1e-5)
    #expect(
      abs(DashedRing(style: .seed).signedDistance(x: 23 * cos(4 / 23), y: 23 * sin(4 / 23))) < 0.01)
    // Beyond the outer side, next to an end: the distance to the sector's corner.
    let corner = hypot(25.4 * cos(0.3 / 23) - 25, 25.4 * sin(0.3 / 23))
    #expect(abs(at(arc: 2 + 0.3, radius: 25.4) - corner) < 1e-5)
    // The seam: the 0.51-long last dash and the first are one sector, no end at 3 o'clock:
    // just past it the nearest end is the last dash's start, 0.56 back.
    let start = 2 * Double.pi * 23 - 144
    #expect(abs(at(arc: 0.05) + 23 * sin((0.05 + start) / 23)) < 1e-5)
    #expect(table.dashes.count == ring.dashes.count - 1)
    #expect(table.dashes[0].start < 0)
    // A zero-length butt dash has no ink; a round one is a dot.
    var dots = style
    dots.dash = (try? DashPattern([0, 6])) ?? .seed
    #expect(DashedRing.DistanceTable(DashedRing(style: dots)).isEmpty)
    dots.lineCap = .round
    #expect(DashedRing(style: dots).signedDistance(x: 23, y: 0) < -1.9)
  }

  /// One dash alone (a backend that draws dashes one by one): its own capsule or sector.
  @Test func distanceToOneDash() {
    for cap in LineCap.allCases {
      var style = LoaderStyle.seed
      style.lineCap = cap
      let table = DashedRing.DistanceTable(DashedRing(style: style))
      // Dash 1 is 6...12 (the last dash is merged into dash 0, across the seam).
      let a = 9.0 / 23
      let inside = (x: 23 * cos(a), y: 23 * sin(a))
      #expect(abs(table.signedDistance(x: inside.x, y: inside.y, toDash: 1) + 2) < 1e-4)
      // Dash 0 seen from dash 1's middle: 7 along the arc past dash 0's end at 2.
      let far = table.signedDistance(x: inside.x, y: inside.y, toDash: 0)
      #expect(far > 4, "\(cap): \(far)")
      // A point of the whole ring is at least as close to the ring as to any one dash.
      #expect(table.dashes.count == 18)
      for k in table.dashes.indices {
        #expect(
          table.signedDistance(x: inside.x, y: inside.y)
            <= table.signedDistance(x: inside.x, y: inside.y, toDash: k) + 1e-12)
      }
    }
  }
}
