import Testing

@testable import LoaderCore

/// A clock the test moves by hand.
final class FakeClock: @unchecked Sendable {
  var now = 0.0
  func read() -> Double { now }
}

@Suite struct FixedStepLoopTests {
  @Test func steadyFramesRunOneStepEach() throws {
    for dt in [1.0 / 60, 1.0 / 64, 0.1, 1.0 / 144] {
      let clock = FakeClock()
      var loop = try FixedStepLoop(dt: dt, clock: clock.read)
      for frame in 1...5000 {
        clock.now = Double(frame) * dt
        #expect(loop.advance() == 1, "dt \(dt) frame \(frame)")
        #expect(loop.tick == frame)
      }
      #expect(loop.alpha < 1e-9)
    }
  }

  @Test func boundariesAreNeverSkippedOrDoubled() throws {
    // Frames of 0, 1, 2 or 3 steps, read exactly on step boundaries.
    let dt = 1.0 / 60
    let clock = FakeClock()
    var loop = try FixedStepLoop(dt: dt, clock: clock.read)
    var rng = SplitMix64(seed: 3)
    var boundary = 0
    for _ in 0..<5000 {
      let owed = Int(rng.next() % 4)
      boundary += owed
      clock.now = Double(boundary) * dt
      #expect(loop.advance() == owed)
      #expect(loop.tick == boundary)
    }
  }

  @Test func halfStepsAlternateAndAlphaFollows() throws {
    let dt = 1.0 / 64
    let clock = FakeClock()
    var loop = try FixedStepLoop(dt: dt, clock: clock.read)
    var steps: [Int] = []
    for frame in 1...8 {
      clock.now = Double(frame) * dt / 2
      steps.append(loop.advance())
      #expect(loop.alpha == (frame % 2 == 1 ? 0.5 : 0))
      #expect(loop.inputTime == clock.now)
      #expect(loop.renderTime == clock.now - dt)
    }
    #expect(steps == [0, 1, 0, 1, 0, 1, 0, 1])
  }

  @Test func aStallAdvancesByTheCapAndAtMostTheStepCap() throws {
    let dt = 1.0 / 64  // 0.25 s is exactly 16 steps
    for (stepCap, expected) in [(100, 16), (16, 16), (4, 4)] {
      let clock = FakeClock()
      var loop = try FixedStepLoop(dt: dt, maxStepsPerFrame: stepCap, clock: clock.read)
      for frame in 1...10 {
        clock.now = Double(frame) * dt
        #expect(loop.advance() == 1)
      }
      clock.now += 5
      #expect(loop.advance() == expected)
      #expect(loop.tick == 10 + expected)
      #expect(loop.alpha < 1)
      // Steady again after the stall.
      for _ in 0..<10 {
        clock.now += dt
        #expect(loop.advance() == 1)
      }
    }
    let clock = FakeClock()
    var loop = try FixedStepLoop(
      dt: 0.01, maxFrameTime: 0.05, maxStepsPerFrame: 100, clock: clock.read)
    clock.now = 5
    #expect(loop.advance() == 5)
  }

  @Test func counterRunsStepClosures() throws {
    let clock = FakeClock()
    var loop = try FixedStepLoop(dt: 0.25, maxFrameTime: 1, clock: clock.read)
    clock.now = 0.75
    var ran = 0
    #expect(loop.advance { ran += 1 } == 3)
    #expect(ran == 3)
    clock.now = 0.5  // a clock that goes back counts as no time
    #expect(loop.advance() == 0)
  }

  @Test func badParametersAreRejected() {
    let clock = FakeClock()
    for dt in [0.0, -1, .infinity] {
      #expect(throws: FixedStepLoop.Error.invalidStep(dt)) {
        try FixedStepLoop(dt: dt, clock: clock.read)
      }
    }
    #expect(throws: FixedStepLoop.Error.self) { try FixedStepLoop(dt: .nan, clock: clock.read) }
    #expect(throws: FixedStepLoop.Error.invalidFrameCap(0)) {
      try FixedStepLoop(dt: 1, maxFrameTime: 0, clock: clock.read)
    }
    #expect(throws: FixedStepLoop.Error.invalidStepCap(0)) {
      try FixedStepLoop(dt: 1, maxStepsPerFrame: 0, clock: clock.read)
    }
    #expect(
      FixedStepLoop.Error.invalidStepCap(0).description == "maxStepsPerFrame must be > 0, got 0")
  }
}
