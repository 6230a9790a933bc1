import Foundation
import SwiftLoaderTestSupport
import Testing

/// The README's library section shows each of `Examples/*/main.swift` as it is, and each
/// example, launched headless, renders SPEC's rings at 0.35 s where its render state puts them
/// and exits 0.
@Suite struct ReadmeExampleTests {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// Every example the README shows, verbatim, and the most lines it may take.
  @Test(arguments: [
    ("hello-loader", 35), ("loader-list", 43), ("many-loaders", 32), ("terminal-loader", 61),
  ])
  func readmeShowsTheExample(name: String, maximumLines: Int) throws {
    let readme = try String(
      contentsOf: Self.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let example = try String(
      contentsOf: Self.packageRoot.appendingPathComponent("Examples/\(name)/main.swift"),
      encoding: .utf8)
    #expect(readme.contains("```swift\n" + example + "```\n"))
    let lines = example.split(separator: "\n", omittingEmptySubsequences: false).count - 1
    #expect(lines <= maximumLines)
  }

  /// Runs example `name` headless (`SDL_VIDEODRIVER=dummy`) in a scratch directory; it must
  /// exit 0 and write `name.png`, which is returned.
  func runHeadless(_ name: String) throws -> PNGImage {
    let dir = try ScratchDirectory(name)
    defer { dir.remove() }
    let run = try BuiltProduct.run(
      name, [], environment: ["SDL_VIDEODRIVER": "dummy"], directory: dir.url)
    #expect(run.status == 0, "\(run.stderr)\(run.stdout)")
    return try PNGImage(path: dir.file("\(name).png"))
  }

  @Test func helloLoaderRendersHeadless() throws {
    let pixels = try runHeadless("hello-loader")
    // A logical size of 390x120 on 780x240 pixels: the row at density 2.
    #expect(pixels.width == 780 && pixels.height == 240)
    // Ring 0's dash middle (arc 9 of radius 23 from 3 o'clock), turned 210 degrees at 0.35.
    let a = 9.0 / 23 + 210 * Double.pi / 180
    let ink = pixels.color(x: Int(2 * (53 + 23 * cos(a))), y: Int(2 * (60 + 23 * sin(a))))
    #expect(ink.r > 200 && ink.g < 120 && ink.b < 120, "\(ink)")
  }

  /// The list's first row, drawn under a logical size of 1280x720 letterboxed into 1600x1000
  /// (scale 1.25, the viewport from y = 50): its loader fitted into 200x60 at (1020, 46), so
  /// scaled by 200 / 290 and laid out in 290 x 87 points; ring 0's dash at 0.35 s is red where
  /// the letterbox puts it.
  @Test func loaderListRendersHeadless() throws {
    let pixels = try runHeadless("loader-list")
    #expect(pixels.width == 1600 && pixels.height == 1000)
    let fit = 200.0 / 290
    let (cx, cy) = (1.25 * (1020 + 33 * fit), 50 + 1.25 * (46 + 43.5 * fit))
    let r = 1.25 * 23 * fit
    let a = 9.0 / 23 + 210 * Double.pi / 180
    let ink = pixels.color(x: Int(cx + r * cos(a)), y: Int(cy + r * sin(a)))
    #expect(ink.r > 200 && ink.g < 120 && ink.b < 120, "\(ink)")
    // The letterbox's bars are the clear colour; the host's row is white behind the loader.
    #expect(pixels.color(x: 800, y: 20) == pixels.color(x: 800, y: 980))
    let behind = pixels.color(x: Int(cx), y: Int(cy))
    #expect(behind.r == 255 && behind.g == 255 && behind.b == 255, "\(behind)")
  }

  /// Headless at 0.35 s: loader 9 (55 points tall, so the row at its natural size with
  /// spacers of (319 - 250) / 5) is red where its ring 4 would be blue; loader 0 (10 points
  /// tall: the row at a fifth of its size) shows ink around its first ring.
  @Test func manyLoadersRendersHeadless() throws {
    let pixels = try runHeadless("many-loaders")
    #expect(pixels.width == 800 && pixels.height == 600)
    func frame(_ i: Int) -> (x: Double, y: Double, h: Double) {
      (20 + 37 * Double(i), 30 + 50 * Double(i) + 20 * sin(0.35 + Double(i)), 10 + 5 * Double(i))
    }
    let nine = frame(9)
    let spacer = (nine.h * 5.8 - 250) / 5
    let (cx, cy) = (nine.x + 5 * spacer + 4 * 50 + 25, nine.y + nine.h / 2)
    let a = 9.0 / 23
    let ink = pixels.color(x: Int(cx + 23 * cos(a)), y: Int(cy + 23 * sin(a)))
    #expect(ink.r > 200 && ink.g < 120 && ink.b < 120, "\(ink)")
    let zero = frame(0)
    let fit = zero.h / 50
    let (x0, y0) = (zero.x + fit * (8 + 25), zero.y + zero.h / 2)
    let around = (-6...6).flatMap { dy in
      (-6...6).map { dx in pixels.color(x: Int(x0) + dx, y: Int(y0) + dy) }
    }
    #expect(around.contains { $0.r < 200 || $0.g < 200 || $0.b < 200 }, "no ring at loader 0")
  }
}
