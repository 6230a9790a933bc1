import Foundation
import SwiftLoaderTestSupport
import Testing

/// Scripted toggles at a `--speed` other than 1: a frame plays the toggles inside the engine
/// step it runs to, and that step is `1/120 s` of loader time, `speed` times shorter on the
/// caller's clock. Measured in caller seconds it reached past the frame at `--speed 3` and
/// 7, and a toggle there stepped the engine beyond the frame's own time (exit 1, "time 0.7
/// is before the loaders' past", found by the fuzz test with seed 20261201).
@Suite struct ToggleSpeedTests {
  @Test(arguments: ["0.5", "2", "3", "7"])
  func randomTogglesAtAnySpeedDrawEveryFrame(speed: String) throws {
    let dir = try ScratchDirectory("toggle-speed")
    defer { dir.remove() }
    for seed in 1...3 {
      let r = try DemoProcess.run([
        "--count", "3", "--speed", speed, "--toggle-random", "\(seed)",
        "--at", "0,0.35,0.7,1.3,2.1", "--out", dir.file("o"),
      ])
      #expect(r.status == 0, "--speed \(speed) --toggle-random \(seed): \(r.stderr)")
    }
  }
}
