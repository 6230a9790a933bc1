import Foundation
import LoaderCore
import LoaderPixels
import SwiftLoaderSupport
import SwiftLoaderTestSupport
import Testing

/// A package outside the repository that depends on the LoaderPixels product alone (no SDL
/// module imported, no libSDL2 linked) draws the seed row at density 2 into plain buffers, one
/// a pixel format (`Tests/PixelsConsumer/main.swift`): each must match Cairo, ring by ring,
/// as the SDL paths do. The same package builds the README's terminal example
/// (`Examples/terminal-loader`), which must link no SDL either and, with its output a pipe,
/// print one frame of the row in 24-bit colour half blocks and exit 0.
@Suite struct PixelsConsumerTests {
  struct Outcome: Sendable {
    var build: BuiltProduct
    var run: BuiltProduct?
    var terminal: BuiltProduct?
    var libraries: [String: String] = [:]
    var buffers: [String: [UInt32]] = [:]
  }

  /// Built and run once for every test of the suite (the build takes minutes).
  static let outcome = Task<Outcome, any Error> { try consume() }

  static func consume() throws -> Outcome {
    let work = try ScratchDirectory("pixels-consumer")
    defer { work.remove() }
    let package = try ConsumerPackage(
      name: "pixels-consumer",
      targets: [
        .init(
          name: "pixels-consumer", product: "LoaderPixels",
          files: ["Tests/PixelsConsumer/main.swift"]),
        .init(
          name: "example-terminal-loader", product: "LoaderPixels",
          files: ["Examples/terminal-loader/main.swift"]),
      ], in: work.url)
    var outcome = Outcome(build: try package.build())
    guard outcome.build.status == 0 else { return outcome }
    for target in ["pixels-consumer", "example-terminal-loader"] {
      outcome.libraries[target] = try package.linkedLibraries(of: target)
    }
    let buffers = work.url.appendingPathComponent("buffers")
    try FileManager.default.createDirectory(at: buffers, withIntermediateDirectories: true)
    let run = try BuiltProduct.run(
      executable: package.binaries.appendingPathComponent("pixels-consumer"), [buffers.path])
    outcome.run = run
    for format in PixelBuffer.Format.allCases {
      let url = buffers.appendingPathComponent("\(format).raw")
      guard let data = try? Data(contentsOf: url) else { continue }
      outcome.buffers["\(format)"] = data.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
    }
    outcome.terminal = try BuiltProduct.run(
      executable: package.binaries.appendingPathComponent("example-terminal-loader"), [],
      environment: ["COLUMNS": "80"])
    return outcome
  }

  static func built() async throws -> Outcome {
    let outcome = try await outcome.value
    try #require(
      outcome.build.status == 0,
      "swift build failed:\n\(outcome.build.stdout)\n\(outcome.build.stderr)")
    #expect(!outcome.build.stdout.contains("warning:"), "\(outcome.build.stdout)")
    return outcome
  }

  @Test func neitherBinaryLinksSDL() async throws {
    let outcome = try await Self.built()
    #expect(outcome.libraries.count == 2)
    for (target, libraries) in outcome.libraries {
      #expect(libraries.contains("libc.so"), "ldd listed nothing for \(target): \(libraries)")
      #expect(!libraries.contains("libSDL2"), "\(target) links SDL:\n\(libraries)")
    }
  }

  @Test func theSeedRowMatchesCairoInEveryFormat() async throws {
    let outcome = try await Self.built()
    let run = try #require(outcome.run)
    #expect(run.status == 0, "\(run.stderr)")
    let (w, h, density) = (780, 240, 2.0)
    // Where the rings go and how far they turned, from this process's own field; and, so that
    // an error both fields would share still shows, from SPEC's worked numbers at 1.3 s.
    let view = LoaderView(isAnimating: true)
    var rings = try view.field.rings(
      in: LoaderRect(x: 0, y: 0, width: 390, height: 120), density: density, at: 1.3)
    for k in rings.indices { rings[k].color = LoaderStyle.seed.color(ofRing: k) }
    let scene = RasterScene(
      width: w, height: h, density: density, palette: .light, rings: rings)
    let spec = SpecSeedRow.scene(at: 1.3, density: density)
    try #require(spec.width == w && spec.height == h)
    let references = [("the field", try scene.renderCairo()), ("SPEC", try spec.renderCairo())]
    for format in PixelBuffer.Format.allCases {
      #expect(run.stdout.contains("\(format) \(w) \(h)"), "\(run.stdout)")
      let words = try #require(outcome.buffers["\(format)"], "no buffer for \(format)")
      try #require(words.count == w * h)
      // R, G, B, A bytes hold 0xAABBGGRR words: back to 0xAARRGGBB.
      let argb =
        format == .bgraPremultiplied
        ? words : words.map { $0 & 0xFF00_FF00 | ($0 >> 16) & 0xFF | ($0 & 0xFF) << 16 }
      for (placed, reference) in references {
        for i in rings.indices {
          let db = ImageComparison.psnr(argb, reference, width: w, rect: spec.crop(ofRing: i))
          #expect(db >= 30, "\(format), ring \(i), placed by \(placed): \(db) dB")
        }
      }
    }
  }

  /// With its output a pipe, the terminal example prints one frame: a line per two pixel
  /// rows of a row 80 columns wide, each character a half block with 24-bit colours, the
  /// seed's five colours among them; and exits 0.
  @Test func theTerminalExamplePrintsOneFrame() async throws {
    let outcome = try await Self.built()
    let terminal = try #require(outcome.terminal)
    #expect(terminal.status == 0, "\(terminal.stderr)")
    let lines = terminal.stdout.split(separator: "\n")
    // 80 columns: 80 / 290 pixels a point, the 50-point row 14 pixels tall, 7 lines.
    #expect(lines.count == 7)
    for line in lines {
      #expect(line.filter { $0 == "▀" }.count == 80)
    }
    for ring in 0..<5 {
      let c = LoaderStyle.seed.color(ofRing: ring)
      // The darkest pixel of each ring's own hue is near its colour.
      let near = terminal.stdout.components(separatedBy: "38;2;").dropFirst().contains { code in
        let parts = code.prefix { $0 != "m" }.split(separator: ";").compactMap { Int($0) }
        guard parts.count == 3 else { return false }
        return abs(parts[0] - Int(c.r)) + abs(parts[1] - Int(c.g)) + abs(parts[2] - Int(c.b))
          < 60
      }
      #expect(near, "ring \(ring)'s colour \(c) is nowhere in the frame")
    }
  }
}
