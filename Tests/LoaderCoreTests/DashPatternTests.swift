import Testing

@testable import LoaderCore

@Suite struct DashPatternTests {
  @Test func oddCountsAreCycled() throws {
    let p = try DashPattern([2, 4, 6])
    #expect(p.intervals == [2, 4, 6, 2, 4, 6])
    #expect(p.period == 24)
    for n in [1, 3, 5, 7] {
      let q = try DashPattern((0..<n).map { Double($0 + 1) })
      #expect(q.intervals.count == 2 * n)
    }
    for n in [2, 4, 6] {
      let q = try DashPattern((0..<n).map { Double($0 + 1) })
      #expect(q.intervals.count == n)
    }
  }

  @Test func badPatternsAreRejectedWithAReason() {
    #expect(throws: DashPattern.Error.negative(index: 1, value: -4)) {
      try DashPattern([2, -4, 6])
    }
    #expect(throws: DashPattern.Error.nonFinite(index: 0)) { try DashPattern([.nan, 4]) }
    #expect(throws: DashPattern.Error.nonFinite(index: 2)) { try DashPattern([1, 2, .infinity]) }
    #expect(throws: DashPattern.Error.allZero) { try DashPattern([0, 0, 0]) }
    #expect(throws: DashPattern.Error.nonFinitePhase) { try DashPattern([2, 4], phase: .nan) }
    #expect(throws: DashPattern.Error.tooMany(count: 257)) {
      try DashPattern(Array(repeating: 1, count: 257))
    }
    #expect(throws: DashPattern.Error.nonFinite(index: 1)) {
      try DashPattern([Double.greatestFiniteMagnitude, Double.greatestFiniteMagnitude])
    }
    #expect(
      DashPattern.Error.negative(index: 1, value: -4).description
        == "dash entry 1 is negative (-4.0)")
  }

  @Test func phaseIsNormalisedIntoOnePeriod() throws {
    for (phase, expected) in [
      (0.0, 0.0), (24, 0), (25, 1), (-1, 23), (-24, 0), (48.5, 0.5), (-0.0, 0),
    ] {
      #expect(try DashPattern([2, 4, 6], phase: phase).phase == expected)
    }
  }

  @Test func phaseShiftsTheIntervals() throws {
    let p = try DashPattern([2, 4, 6], phase: 1)
    let on = try #require(p.onIntervals(alongLength: 20))
    #expect(on == [0...1, 5...11, 13...17])
    let q = try DashPattern([2, 4, 6], phase: 2)
    #expect(q.onIntervals(alongLength: 10) == [4...10])
  }

  @Test func zeroLengthOnEntriesAreDots() throws {
    let p = try DashPattern([0, 4])
    #expect(p.onIntervals(alongLength: 10) == [0...0, 4...4, 8...8])
  }

  @Test func solidAndRunawayPatterns() throws {
    #expect(DashPattern.solid.onIntervals(alongLength: 5) == [0...5])
    let tiny = try DashPattern([1e-6, 1e-6])
    #expect(tiny.onIntervals(alongLength: 144, limit: 1000) == nil)
    var style = LoaderStyle()
    style.dash = tiny
    #expect(throws: LoaderStyle.Error.self) { try style.validate() }
    #expect(throws: Never.self) { try LoaderStyle.seed.validate() }
  }
}
