import Foundation
import LoaderTestSupport
import Testing

/// The README's library section shows `Examples/hello-loader/main.swift` as it is, and that
/// example, launched headless, renders SPEC's row at 0.35 s and exits 0.
@Suite struct ReadmeExampleTests {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  @Test func readmeShowsTheExample() throws {
    let readme = try String(
      contentsOf: Self.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let example = try String(
      contentsOf: Self.packageRoot.appendingPathComponent("Examples/hello-loader/main.swift"),
      encoding: .utf8)
    #expect(readme.contains("```swift\n" + example + "```\n"))
    #expect(example.split(separator: "\n", omittingEmptySubsequences: false).count - 1 <= 30)
  }

  @Test func exampleRendersHeadlessAndExits0() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "hello-loader-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let run = try BuiltProduct.run(
      "hello-loader", [], environment: ["SDL_VIDEODRIVER": "dummy"], directory: dir)
    #expect(run.status == 0, "\(run.stderr)\(run.stdout)")
    let png = dir.appendingPathComponent("hello-loader.png")
    let pixels = try PNGImage(path: png.path)
    #expect(pixels.width == 390 && pixels.height == 120)
    // Ring 0's dash middle (arc 9 of radius 23 from 3 o'clock), turned 210 degrees at 0.35.
    let a = 9.0 / 23 + 210 * Double.pi / 180
    let ink = pixels.color(x: Int(53 + 23 * cos(a)), y: Int(60 + 23 * sin(a)))
    #expect(ink.r > 200 && ink.g < 120 && ink.b < 120, "\(ink)")
  }
}
