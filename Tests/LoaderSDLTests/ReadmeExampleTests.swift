import Foundation
import LoaderCore
import LoaderSupport
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
    // The loop snippet: `readmeLoop`'s body between its markers, one indent level less.
    let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    let begin = try #require(lines.firstIndex { $0.hasSuffix("// README loop begins") })
    let end = try #require(lines.firstIndex { $0.hasSuffix("// README loop ends") })
    let loop = lines[(begin + 1)..<end].map { $0.dropFirst(4) }.joined(separator: "\n")
    #expect(readme.contains("```swift\n" + loop + "\n```\n"))
  }

  /// The README's loop snippet (between the markers), compiled and run: a frame on, then off.
  @Test func readmeLoopRuns() throws {
    let canvas = try OffscreenCanvas(width: 390, height: 120)
    try readmeLoop(renderer: canvas.renderer, pixelsPerPoint: 1, now: 0.35)
    // Ring 0's dash middle (arc 9 of radius 23 from 3 o'clock), turned 210 degrees at 0.35.
    let a = 9.0 / 23 + 210 * Double.pi / 180
    let ink = canvas.pixel(x: Int(53 + 23 * cos(a)), y: Int(60 + 23 * sin(a)))
    let red = LoaderPalette.light.ringColors[0]
    #expect(abs(Int(ink.g) - Int(red.g)) <= 16 && abs(Int(ink.b) - Int(red.b)) <= 16, "\(ink)")
  }

  func readmeLoop(renderer: OpaquePointer, pixelsPerPoint: Double, now: Double) throws {
    // README loop begins
    let view = try LoaderView(
      isAnimating: true, width: 390, height: 120, scale: pixelsPerPoint, renderer: renderer)
    // every frame
    try drawFrame(view, at: now, on: renderer)
    // when isAnimating changes (SwiftUI's semantics: running turns finish, no reset)
    try view.setAnimating(false, at: now)
    // README loop ends
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
