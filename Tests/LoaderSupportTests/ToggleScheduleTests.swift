import SwiftLoaderHarness
import Testing

/// `ToggleSchedule`, the seeded on/off events that drive the engine's equivalence and jump
/// tests (`LoaderCoreTests`), the demo's `--toggle-random` and the bench's baseline test.
@Suite struct ToggleScheduleTests {
  @Test func schedulesAreReplayableAndCoverTheTrickyCases() throws {
    let a = ToggleSchedule.random(seed: 9, loaders: 200)
    #expect(a == ToggleSchedule.random(seed: 9, loaders: 200))
    #expect(a != ToggleSchedule.random(seed: 10, loaders: 200))
    // Loader i's schedule does not depend on how many loaders there are.
    #expect(
      a.events(ofLoader: 7) == ToggleSchedule.random(seed: 9, loaders: 20).events(ofLoader: 7))
    #expect(zip(a.events, a.events.dropFirst()).allSatisfy { $0.time <= $1.time })
    #expect((0..<200).allSatisfy { a.events(ofLoader: $0).first?.time == 0 })
    #expect(a.events.contains { $0.time > 0 && ($0.time / 0.25).rounded() * 0.25 == $0.time })
    let quick = (0..<200).contains { i in
      let e = a.events(ofLoader: i)
      return zip(e, e.dropFirst()).contains {
        $1.time - $0.time < 0.6 && $0.isAnimating != $1.isAnimating
      }
    }
    #expect(quick)
    let firstLine = a.description.split(separator: "\n").first.map(String.init)
    #expect(firstLine == "0.0 0 \(a.events[0].isAnimating ? "on" : "off")")
    #expect(try ToggleSchedule(parsing: a.description) == a)
    #expect(try ToggleSchedule(parsing: "\n0.25 3 on\n1.5 3 off\n").events.count == 2)
    for bad in ["1 2", "x 1 on", "1 -1 on", "1 1 maybe", "inf 1 on"] {
      #expect(throws: ToggleSchedule.ParseError.badLine(number: 1, text: bad)) {
        try ToggleSchedule(parsing: bad)
      }
    }
  }
}
