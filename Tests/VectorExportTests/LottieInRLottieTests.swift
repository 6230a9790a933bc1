import Foundation
import LoaderCore
import Testing

/// `LoaderExport.lottie` rendered by rlottie at six frames of its period, against Cairo's
/// rings at SPEC's angles.
@Suite struct LottieInRLottieTests {
  @Test(arguments: VectorCase.all)
  func everyRingMatchesCairoAtSixTimes(_ c: VectorCase) throws {
    let json = try LoaderExport.lottie(
      style: c.style, width: Double(c.width), height: Double(c.height),
      background: c.palette.background)
    let animation = try RLottieAnimation(json: json)
    #expect(animation.size == (c.width, c.height))
    #expect(abs(animation.frameRate - LoaderExport.lottieFrameRate(of: c.style)) < 1e-9)
    #expect(
      abs(Double(animation.totalFrames) / animation.frameRate - c.period) <= 1 / animation.frameRate
    )
    var report: [String] = []
    var strip: [UInt32] = []
    for t in c.times {
      let frame = animation.render(frame: t.frame, width: c.width, height: c.height)
      strip += frame
      let psnr = try c.ringPSNRs(frame, at: t.seconds)
      report.append(
        String(format: "t=%.3f: ", t.seconds) + psnr.map(decibels).joined(separator: " "))
      for (i, p) in psnr.enumerated() {
        #expect(p >= minimumRingPSNR, "ring \(i) at frame \(t.frame): \(decibels(p)) dB")
      }
    }
    if let dir = VectorCase.pngDirectory {
      writePNG(strip, width: c.width, height: 6 * c.height, to: "\(dir)/rlottie-\(c.fileStem).png")
      let cairo = try c.times.flatMap { try c.cairoFrame(at: $0.seconds) }
      writePNG(cairo, width: c.width, height: 6 * c.height, to: "\(dir)/cairo-\(c.fileStem).png")
    }
    print("rlottie \(c.name), dB per ring: \(report.joined(separator: "; "))")
  }
}
