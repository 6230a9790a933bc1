import Foundation
import Testing

/// The `--trace` document of the built demo against SPEC's worked values.
@Suite struct DemoTraceTests {
  /// Runs the demo headless and returns `(t, rings)` per frame from its trace.
  func trace(_ arguments: [String]) throws -> [(t: Double, rings: [DemoTrace.Ring])] {
    try DemoTrace.render(arguments).trace.frames
  }

  @Test func workedAnglesFromSpec() throws {
    let frames = try trace(["--at", "0.1,0.35,1.3"])
    #expect(frames.map(\.t) == [0.1, 0.35, 1.3])
    #expect(
      frames.map { $0.rings.map(\.angle) } == [
        [60, 0, 0, 0, 0],
        [210, 60, 0, 0, 0],
        [390, 360, 360, 330, 180],
      ])
  }

  @Test func rowAt390Points() throws {
    let frames = try trace(["--at", "0"])
    let rings = try #require(frames.first?.rings)
    #expect(rings.map(\.loader) == [0, 0, 0, 0, 0])
    #expect(rings.map(\.ring) == [0, 1, 2, 3, 4])
    // Frames start at 28, 106, 184, 262, 340 (SPEC "The row"): centres 25 further.
    #expect(rings.map(\.cx) == [53, 131, 209, 287, 365])
    #expect(rings.map(\.cy) == [60, 60, 60, 60, 60])
    #expect(rings.map(\.radius) == [25, 25, 25, 25, 25])
  }

  @Test func scaleMultipliesLengthsNotAngles() throws {
    for scale in [1.0, 2.0, 3.0] {
      let frames = try trace(["--at", "0.35", "--zoom", "\(scale)"])
      let rings = try #require(frames.first?.rings)
      #expect(rings.map(\.cx) == [53, 131, 209, 287, 365].map { $0 * scale })
      #expect(rings.map(\.cy) == Array(repeating: 60 * scale, count: 5))
      #expect(rings.map(\.radius) == Array(repeating: 25 * scale, count: 5))
      #expect(rings.map(\.angle) == [210, 60, 0, 0, 0])
    }
  }

  @Test func overlappingTurnsAdd() throws {
    // On at 0, off at 0.3, on again at 0.4: ring 0 is triggered at 0 and at 0.4, and at 0.5
    // both turns run: 360 * 0.5 / 0.6 + 360 * 0.1 / 0.6 = 300 + 60.
    let frames = try trace(["--toggle", "0,0.3,0.4", "--at", "0.5"])
    let angles = try #require(frames.first?.rings.map(\.angle))
    #expect(abs(angles[0] - 360) < 1e-9)
  }

  @Test func cancellationKeepsRunningTurnsAndStopsTriggers() throws {
    // On at 0, off at 0.3: triggers at 0 (ring 0) and 0.25 (ring 1) only; both turns finish.
    let frames = try trace(["--toggle", "0,0.3", "--at", "0.3,2"])
    #expect(frames.map { $0.rings.map(\.angle) } == [[180, 30, 0, 0, 0], [360, 360, 0, 0, 0]])
  }

  @Test func startsOffUntilTheFirstToggle() throws {
    let frames = try trace(["--toggle", "1", "--at", "0.5,1.1"])
    #expect(frames.map { $0.rings.map(\.angle) } == [[0, 0, 0, 0, 0], [60, 0, 0, 0, 0]])
  }
}
