import Foundation
import LoaderCore
import LoaderSDL
import Testing

/// The grid scene of the built demo: every ring's angle from the engine against the
/// reference model replaying the trace's own toggles, and the grid's layout.
@Suite struct DemoGridTests {
  /// Issue 3's "Done when": 1000 loaders on seeded random schedules, three frames; each
  /// loader's schedule, read back from the trace, replayed by `LoaderTimeline`, gives every
  /// ring's traced angle within 1e-6 degree.
  @Test func randomTogglesReplayWithTheReferenceModel() throws {
    let (trace, pngs) = try DemoTrace.render([
      "--scene", "grid", "--count", "1000", "--toggle-random", "7", "--at", "0.5,1,2",
    ])
    #expect(pngs == 3)
    #expect(trace.frames.map(\.t) == [0.5, 1, 2])
    #expect(trace.toggles.count == 1000)
    #expect(Set(trace.toggles.keys) == Set(0..<1000))
    var timelines: [LoaderTimeline] = []
    for i in 0..<1000 {
      let events = try #require(trace.toggles[i])
      try #require(events.first?.time == 0, "loader \(i) starts at 0")
      var tl = LoaderTimeline(style: .seed)
      for e in events { tl.setAnimating(e.isAnimating, at: e.time) }
      timelines.append(tl)
    }
    // Something must move and something must be still, or the test proves little.
    var moving = 0
    var worst = 0.0
    for frame in trace.frames {
      #expect(frame.rings.count == 5000)
      for (k, ring) in frame.rings.enumerated() {
        #expect(ring.loader == k / 5 && ring.ring == k % 5)
        let expected = timelines[ring.loader].angle(ofRing: ring.ring, at: frame.t)
        worst = max(worst, abs(ring.angle - expected))
        if ring.angle.truncatingRemainder(dividingBy: 360) != 0 { moving += 1 }
      }
    }
    #expect(worst <= 1e-6, "largest difference \(worst) degrees")
    #expect(moving > 1000 && moving < 14000, "\(moving) rings mid-turn")
  }

  /// Centres and radii are `GridLayout`'s for 1000 loaders in the grid's default 1280x720,
  /// with `--gutter`'s gap.
  @Test func ringsSitWhereGridLayoutPutsThem() throws {
    let (trace, _) = try DemoTrace.render([
      "--count", "1000", "--at", "0.35", "--zoom", "2", "--gutter", "0.3",
    ])
    let rings = try #require(trace.frames.first?.rings)
    let grid = try GridLayout(count: 1000, width: 1280, height: 720, gutter: 0.3)
    #expect(rings.count == 5000)
    for (k, ring) in rings.enumerated() {
      let f = grid.ringFrames(ofLoader: k / 5)[k % 5]
      #expect(abs(ring.cx - 2 * f.centerX) < 1e-6 && abs(ring.cy - 2 * f.centerY) < 1e-6)
      #expect(abs(ring.radius - 2 * f.radius) < 1e-6)
    }
    // Every loader animates from 0 without toggles: the seed's angles, per loader.
    #expect(rings.prefix(10).map(\.angle) == [210, 60, 0, 0, 0, 210, 60, 0, 0, 0])
  }

  /// `--toggle` flips every loader; one loader with no gutter in the seed's container is the
  /// seed's row.
  @Test func oneLoaderGridIsTheSeedRow() throws {
    let args = ["--toggle", "0,0.3,0.4", "--at", "0.5,1.3", "--size", "390x120"]
    let (grid, _) = try DemoTrace.render(
      ["--scene", "grid", "--count", "1", "--gutter", "0"] + args)
    let (seed, _) = try DemoTrace.render(args)
    #expect(grid.frames.map(\.rings) == seed.frames.map(\.rings))
    #expect(seed.frames.first?.rings.first?.angle == 360)
  }

  @Test func toggleAppliesToEveryLoader() throws {
    let (trace, _) = try DemoTrace.render([
      "--count", "7", "--toggle", "0,0.3", "--at", "0.3,2",
    ])
    for (frame, expected) in zip(trace.frames, [[180.0, 30, 0, 0, 0], [360, 360, 0, 0, 0]]) {
      #expect(frame.rings.count == 35)
      for loader in 0..<7 {
        #expect(frame.rings.filter { $0.loader == loader }.map(\.angle) == expected)
      }
    }
  }

  /// Times out of order: the engine only steps forward, so the demo starts again from 0.
  @Test func framesInAtOrderEvenWhenTimeGoesBack() throws {
    let (trace, pngs) = try DemoTrace.render(["--at", "1.3,0.1,0.35,0.35"])
    #expect(pngs == 4)
    #expect(trace.frames.map(\.t) == [1.3, 0.1, 0.35, 0.35])
    #expect(
      trace.frames.map { $0.rings.map(\.angle) } == [
        [390, 360, 360, 330, 180], [60, 0, 0, 0, 0], [210, 60, 0, 0, 0], [210, 60, 0, 0, 0],
      ])
  }
}
