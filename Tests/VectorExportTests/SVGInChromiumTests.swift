import Foundation
import LoaderCore
import Testing

/// `LoaderExport.svg` rendered by headless Chromium, paused at six times of its period, against
/// Cairo's rings at SPEC's angles.
@Suite(
  .enabled(
    if: HeadlessChromium.executable != nil,
    "no chromium on PATH: `make deps` installs Debian's chromium"))
struct SVGInChromiumTests {
  /// SMIL meets the common bar. Chromium runs a CSS transform animation on its compositor,
  /// which turns a bitmap of the ring drawn once: its turning rings read 29.4 to 30.5 dB, so
  /// CSS is held to 29 (and is not the default).
  static let minimumPSNR: [LoaderExport.SVGAnimation: Double] = [
    .smil: minimumRingPSNR, .css: 29,
  ]

  @Test(arguments: VectorCase.all, LoaderExport.SVGAnimation.allCases)
  func everyRingMatchesCairoAtSixTimes(_ c: VectorCase, _ animation: LoaderExport.SVGAnimation)
    throws
  {
    let svg = try LoaderExport.svg(
      style: c.style, width: Double(c.width), height: Double(c.height),
      background: c.palette.background, animation: animation)
    let times = c.times.map(\.seconds)
    let png = VectorCase.pngDirectory.map { "\($0)/chromium-\(animation)-\(c.fileStem).png" }
    let frames = try HeadlessChromium.render(
      svg: svg, animation: animation, width: c.width, height: c.height, times: times,
      savingTo: png)
    var report: [String] = []
    for (k, t) in times.enumerated() {
      let psnr = try c.ringPSNRs(frames[k], at: t)
      report.append(String(format: "t=%.3f: ", t) + psnr.map(decibels).joined(separator: " "))
      for (i, p) in psnr.enumerated() {
        #expect(p >= Self.minimumPSNR[animation]!, "ring \(i) at \(t) s: \(decibels(p)) dB")
      }
    }
    print("chromium \(animation) \(c.name), dB per ring: \(report.joined(separator: "; "))")
  }
}
