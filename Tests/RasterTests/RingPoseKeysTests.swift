import LoaderCore
import Testing

@testable import LoaderPixels

/// `RingPoseKeys`: a key names one phase and sub-pixel offset, and `decode(_:)` gives them
/// back, for every key of small and large rings at every power-of-two step count.
@Suite struct RingPoseKeysTests {
  @Test(arguments: [1, 2, 4, 8])
  func everyKeyDecodesToWhatMadeIt(subpixelSteps: Int) {
    for reach in [0.5, 25, 300] {
      let keys = RingPoseKeys(reach: reach, subpixelSteps: subpixelSteps)
      var seen = Set<Int>()
      for phase in 0..<keys.phases {
        for sy in 0..<subpixelSteps {
          for sx in 0..<subpixelSteps {
            let key = keys.key(phase: phase, sx: sx, sy: sy)
            #expect((0..<keys.count).contains(key))
            seen.insert(key)
            let back = keys.decode(key)
            guard back == (phase, sx, sy) else {
              Issue.record("key \(key) of (\(phase), \(sx), \(sy)) decodes to \(back)")
              return
            }
          }
        }
      }
      #expect(seen.count == keys.count, "keys are not one a phase and offset")
    }
  }
}
