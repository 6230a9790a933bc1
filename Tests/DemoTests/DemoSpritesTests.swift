import Foundation
import LoaderCore
import SwiftLoaderSupport
import SwiftLoaderTestSupport
import Testing

/// `demo --scene sprites`: loaders riding bouncing sprites, checked headless through the
/// frames and the trace.
@Suite struct DemoSpritesTests {
  /// The trace's rings as Cairo draws them: centre, frame radius, angle and colour.
  static func strokes(_ rings: [DemoTrace.Ring]) -> [StrokedRing] {
    rings.map {
      StrokedRing(
        centerX: $0.cx, centerY: $0.cy, frameRadius: $0.radius, angle: $0.angle,
        color: $0.color)
    }
  }

  /// Every ring that stands apart from the others matches Cairo's stroke at its traced
  /// centre, radius, angle and colour (>= 30 dB), in every frame, at zooms 1 and 2.
  @Test(arguments: [1.0, 2.0])
  func framesMatchCairoAtEveryRingStandingApart(zoom: Double) throws {
    let (trace, images) = try DemoTrace.renderWithImages([
      "--scene", "sprites", "--count", "40", "--at", "0.35,1.3,2.2", "--zoom", "\(zoom)",
    ])
    #expect(images.count == 3 && trace.frames.count == 3)
    var checked = 0
    var worst = Double.infinity
    for (frame, image) in zip(trace.frames, images) {
      #expect(frame.rings.count == 200)
      let rings = Self.strokes(frame.rings)
      let reference = try StrokedRings.cairo(
        rings, width: image.width, height: image.height,
        background: LoaderPalette.light.background)
      for i in StrokedRings.apart(rings, width: image.width, height: image.height) {
        let db = ImageComparison.psnr(
          image.pixels, reference, width: image.width, rect: rings[i].crop)
        #expect(db >= 30, "t \(frame.t), \(frame.rings[i]): \(db) dB")
        worst = min(worst, db)
        checked += 1
      }
    }
    #expect(checked >= 60, "only \(checked) rings stand apart")
    print("sprites at zoom \(zoom): \(checked) rings apart, worst \(worst) dB")
  }

  /// Under `--toggle` every loader's traced angles are SPEC's (`LoaderTimeline`) within
  /// 1e-3 degree; with `--toggle-random` each loader's own schedule, read back from the trace.
  @Test func anglesAreSpecsUnderToggles() throws {
    let times = [0.5, 1.0, 1.62, 2.3, 3.1]
    let at = times.map { "\($0)" }.joined(separator: ",")
    let (shared, _) = try DemoTrace.render([
      "--scene", "sprites", "--count", "25", "--toggle", "0,0.3,0.4,1.1,1.5", "--at", at,
    ])
    var reference = LoaderTimeline(style: .seed)
    for (k, t) in [0, 0.3, 0.4, 1.1, 1.5].enumerated() { reference.setAnimating(k % 2 == 0, at: t) }
    var moving = 0
    for frame in shared.frames {
      #expect(frame.rings.count == 125)
      for ring in frame.rings {
        let want = reference.angle(ofRing: ring.ring, at: frame.t)
        #expect(abs(ring.angle - want) <= 1e-3, "t \(frame.t) \(ring)")
        if ring.angle.truncatingRemainder(dividingBy: 360) != 0 { moving += 1 }
      }
    }
    #expect(moving > 0)
    let (random, _) = try DemoTrace.render([
      "--scene", "sprites", "--count", "25", "--toggle-random", "11", "--at", at,
    ])
    for frame in random.frames {
      for ring in frame.rings {
        var tl = LoaderTimeline(style: .seed)
        for e in try #require(random.toggles[ring.loader]) {
          tl.setAnimating(e.isAnimating, at: e.time)
        }
        #expect(abs(ring.angle - tl.angle(ofRing: ring.ring, at: frame.t)) <= 1e-3)
      }
    }
  }

  /// The sprites move between frames and stay in the container (800 wide holds the widest
  /// sprite, 120 * 5.8 points); their sizes span 8 to 120 points (a loader's rings are at most
  /// the row's natural 50 points); a loader's rings share one row, in its colours.
  @Test func spritesMoveWithinTheContainer() throws {
    let (trace, _) = try DemoTrace.render([
      "--scene", "sprites", "--count", "100", "--size", "800x360", "--at", "0,0.5,7.3",
    ])
    let frames = trace.frames.map { f in Dictionary(grouping: f.rings, by: \.loader) }
    #expect(frames.allSatisfy { $0.count == 100 })
    var moved = 0
    for loader in 0..<100 {
      let a = try #require(frames[0][loader])
      let b = try #require(frames[1][loader])
      if abs(a[0].cx - b[0].cx) + abs(a[0].cy - b[0].cy) > 5 { moved += 1 }
      #expect(Set(a.map(\.cy)).count == 1 && Set(a.map(\.radius)).count == 1)
      #expect(a.map(\.color) == b.map(\.color))
      for f in frames {
        let rings = try #require(f[loader])
        for r in rings {
          #expect(r.radius >= 4 - 1e-9 && r.radius <= 25 + 1e-9, "\(r)")
          #expect(r.cx - r.radius >= -1e-6 && r.cx + r.radius <= 800 + 1e-6, "\(r)")
          #expect(r.cy - r.radius >= -1e-6 && r.cy + r.radius <= 360 + 1e-6, "\(r)")
        }
      }
    }
    #expect(moved > 90, "\(moved) of 100 sprites moved")
    let radii = frames[0].values.map { $0[0].radius }
    #expect(radii.min()! < 8 && radii.max()! == 25)
  }
}
