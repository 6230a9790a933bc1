import LoaderCore
import SwiftLoaderHarness
import Testing

@testable import SwiftLoaderBench

/// The bench's baseline, `NaiveLoaderSimulation`, against the reference model
/// (`LoaderTimeline`): a baseline that computed something else would make `step/naive` a
/// comparison with nothing.
@Suite struct NaiveLoaderSimulationTests {
  static let styles: [LoaderStyle] = {
    var overlapping = LoaderStyle.seed
    overlapping.ringCount = 3
    overlapping.stagger = 0.1
    var quick = LoaderStyle.seed
    quick.ringCount = 2
    quick.stagger = 0.013
    quick.turnDuration = 0.01
    quick.turnDegrees = -90
    return [.seed, overlapping, quick]
  }()

  @Test(arguments: [UInt64(1), 2, 3], [1.0 / 60, 1.0 / 64, 0.1])
  func matchesTheReferenceModel(seed: UInt64, dt: Double) {
    let n = 120
    let duration = 5.0
    let schedule = ToggleSchedule.random(seed: seed, loaders: n, duration: duration)
    let styles = (0..<n).map { Self.styles[$0 % Self.styles.count] }
    let references = (0..<n).map { schedule.timeline(ofLoader: $0, style: styles[$0]) }
    let naive = NaiveLoaderSimulation(dt: dt)
    for s in styles { naive.addLoader(style: s) }
    var next = 0
    var bulk: [Float] = []
    var rng = SplitMix64(seed: seed)
    while naive.time < duration + 2 {
      let end = naive.time + naive.dt
      while next < schedule.events.count, schedule.events[next].time < end {
        let e = schedule.events[next]
        naive.setAnimating(e.isAnimating, loader: e.loader, at: e.time)
        next += 1
      }
      naive.step()
      let t = naive.time - naive.dt * rng.nextUnit()
      for i in stride(from: Int(rng.next() % 7), to: n, by: 7) {
        for ring in 0..<styles[i].ringCount {
          let expected = references[i].angle(ofRing: ring, at: naive.time)
          let got = naive.angle(loader: i, ring: ring, at: naive.time)
          #expect(abs(got - expected) < 1e-6, "loader \(i) ring \(ring) at \(naive.time)")
        }
      }
      if naive.tick % 20 == 0 {
        naive.presentationAngles(at: t, into: &bulk)
        var k = 0
        for i in 0..<n {
          for ring in 0..<styles[i].ringCount {
            let expected = references[i].angle(ofRing: ring, at: t)
            let d = abs(Double(bulk[k]) - expected).truncatingRemainder(dividingBy: 360)
            #expect(min(d, 360 - d) < 2e-3, "bulk loader \(i) ring \(ring) at \(t)")
            k += 1
          }
        }
      }
    }
    #expect(next == schedule.events.count)
  }
}
