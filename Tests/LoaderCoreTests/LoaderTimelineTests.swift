import Testing

@testable import LoaderCore

@Suite struct LoaderTimelineTests {
  func close(_ a: [Double], _ b: [Double], _ tol: Double = 1e-9) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= tol }
  }

  @Test func specWorkedAngles() {
    let tl = LoaderTimeline(animatingFrom: 0)
    #expect(close(tl.angles(at: 0.1), [60, 0, 0, 0, 0]))
    #expect(close(tl.angles(at: 0.35), [210, 60, 0, 0, 0]))
    #expect(close(tl.angles(at: 1.3), [390, 360, 360, 330, 180]))
  }

  @Test func cancellationStopsTriggersButTurnsFinish() {
    var tl = LoaderTimeline(animatingFrom: 0)
    tl.setAnimating(false, at: 0.5)  // trigger at 0.5 (ring 2) must not happen
    #expect(tl.triggers(through: 10).map(\.time) == [0, 0.25])
    #expect(close(tl.angles(at: 0.6), [360, 210, 0, 0, 0]))
    #expect(close(tl.angles(at: 5), [360, 360, 0, 0, 0]))
  }

  @Test func restartContinuesFromWhereTheRingsAre() {
    var tl = LoaderTimeline(animatingFrom: 0)
    tl.setAnimating(false, at: 0.3)
    tl.setAnimating(true, at: 2)
    #expect(close(tl.angles(at: 2.3), [360 + 180, 360 + 30, 0, 0, 0]))
    #expect(tl.triggers(through: 2.5).map(\.ring) == [0, 1, 0, 1, 2])
  }

  @Test func overlapIsAdditive() {
    var tl = LoaderTimeline(animatingFrom: 0)
    tl.setAnimating(false, at: 0.3)
    tl.setAnimating(true, at: 0.4)
    #expect(abs(tl.angle(ofRing: 0, at: 0.5) - 360) < 1e-9)
    #expect(abs(tl.angle(ofRing: 0, at: 0.6) - 360 - 120) < 1e-9)
    tl.setAnimating(false, at: 0.45)
    #expect(abs(tl.angle(ofRing: 0, at: 2) - 720) < 1e-9)
  }

  @Test func repeatedValueIsIgnored() {
    var tl = LoaderTimeline(animatingFrom: 0)
    tl.setAnimating(true, at: 0.1)
    #expect(tl.triggers(through: 0.3).map(\.time) == [0, 0.25])
    var off = LoaderTimeline()
    off.setAnimating(false, at: 1)
    #expect(off.angles(at: 5) == [0, 0, 0, 0, 0])
  }

  @Test func toggleOnABoundaryFiresNothingAtIt() {
    var tl = LoaderTimeline(animatingFrom: 0)
    tl.setAnimating(false, at: 0.75)
    #expect(tl.triggers(through: 5).map(\.time) == [0, 0.25, 0.5])
    var now = LoaderTimeline(animatingFrom: 1)
    now.setAnimating(false, at: 1)
    #expect(now.triggers(through: 5).isEmpty)
  }
}
