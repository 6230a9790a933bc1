import Foundation
import LoaderCore
import Testing

@testable import LoaderSDL

/// The README's "Using it in your own SDL2 program" example (`ReadmeLoaderView.swift`): it is
/// the README's text, and it draws what the reference model and Cairo say it should.
@Suite struct ReadmeExampleTests {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  @Test func readmeShowsTheExampleThatCompiles() throws {
    let readme = try String(
      contentsOf: Self.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let example = try String(
      contentsOf: Self.packageRoot.appendingPathComponent(
        "Tests/LoaderSDLTests/ReadmeLoaderView.swift"), encoding: .utf8)
    #expect(readme.contains("```swift\n" + example + "```\n"))
  }

  /// On at 0, off at 0.6: frames at 0.3625 (ring 0 at 217.5 degrees, ring 1 at 67.5) and 0.7625
  /// (ring 2's turn from 0.5 at 157.5; ring 3, due at 0.75, cancelled: 7.5 had it fired) match
  /// Cairo's stroke of `LoaderTimeline`'s angles, ring by ring, at scales 1 and 2, light and
  /// dark. The times avoid angles near a multiple of the dash period (12 / 23 rad, about 29.9
  /// degrees), where a wrong angle would look right.
  @Test(arguments: [1.0, 2.0])
  func drawsTheReferenceAngles(scale: Double) throws {
    for palette in [LoaderPalette.light, .dark] {
      let canvas = try OffscreenCanvas(width: Int(390 * scale), height: Int(120 * scale))
      let view = try LoaderView(
        isAnimating: true, palette: palette, width: 390, height: 120, scale: scale,
        renderer: canvas.renderer)
      var timeline = LoaderTimeline(style: view.style, animatingFrom: 0)
      timeline.setAnimating(false, at: 0.6)
      for t in [0.3625, 0.7625] {
        if t > 0.6 { try view.setAnimating(false, at: 0.6) }
        try drawFrame(view, at: t, on: canvas.renderer)
        let angles = timeline.angles(at: t).map { Float($0) }
        let scene = RasterScene.seedRow(scale: scale, palette: palette, angles: angles)
        let reference = try scene.renderCairo()
        let pixels = canvas.argbPixels()
        for i in scene.rings.indices {
          let db = ImageComparison.psnr(
            pixels, reference, width: scene.width, rect: scene.crop(ofRing: i))
          #expect(db >= 30, "t \(t), ring \(i) at \(angles[i]) deg, scale \(scale): \(db) dB")
        }
      }
    }
  }
}
