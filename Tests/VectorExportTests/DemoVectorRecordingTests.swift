import Foundation
import LoaderCore
import SwiftLoaderTestSupport
import Testing

/// `demo --record FILE.svg` and `FILE.json`, run as a process: the file is exactly
/// `LoaderExport`'s for the style the flags describe, and flags that cannot apply are refused.
@Suite struct DemoVectorRecordingTests {
  @Test func theSeedsFilesAreTheLibrarysOwn() throws {
    let dir = try ScratchDirectory("vector")
    defer { dir.remove() }
    let svg = try DemoProcess.run(["--record", dir.file("l.svg")])
    #expect(svg.status == 0)
    #expect(
      svg.stdout
        == "demo: wrote an animated SVG (smil), one 1.25 s loop, "
        + "\(try LoaderExport.svg().utf8.count) bytes, to \(dir.file("l.svg"))\n")
    #expect(try String(contentsOfFile: dir.file("l.svg"), encoding: .utf8) == LoaderExport.svg())
    let json = try DemoProcess.run(["--record", dir.file("L.JSON")])
    #expect(json.status == 0)
    #expect(
      json.stdout.hasPrefix(
        "demo: wrote a Lottie animation (75 frames at 60 fps), one 1.25 s loop, "))
    #expect(try Data(contentsOf: URL(fileURLWithPath: dir.file("L.JSON"))) == LoaderExport.lottie())
    #expect(dir.contents() == ["L.JSON", "l.svg"])
  }

  /// Every style flag, `--size`, `--theme` and `--svg-animation` reach the file.
  @Test func styleFlagsReachTheFile() throws {
    let dir = try ScratchDirectory("vector-style")
    defer { dir.remove() }
    let flags = [
      "--size", "600x150", "--theme", "dark", "--rings", "3", "--colors", "112233,44556680",
      "--frame-size", "40", "--line-width", "3", "--dash", "3,1", "--dash-phase", "1", "--cap",
      "butt", "--turn", "0.9", "--stagger", "0.2",
    ]
    var style = LoaderStyle.seed
    style.ringCount = 3
    style.colors = [RGBAColor(hex: 0x112233), RGBAColor(r: 0x44, g: 0x55, b: 0x66, a: 0x80)]
    style.frameSize = 40
    style.lineWidth = 3
    style.dash = try DashPattern([3, 1], phase: 1)
    style.lineCap = .butt
    style.turnDuration = 0.9
    style.stagger = 0.2
    let background = LoaderPalette.dark.background
    let r = try DemoProcess.run(flags + ["--record", dir.file("a.svg"), "--svg-animation", "css"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      try String(contentsOfFile: dir.file("a.svg"), encoding: .utf8)
        == LoaderExport.svg(
          style: style, width: 600, height: 150, background: background, animation: .css))
    let j = try DemoProcess.run(flags + ["--record", dir.file("a.json")])
    #expect(j.status == 0, "\(j.stderr)")
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: dir.file("a.json")))
        == LoaderExport.lottie(style: style, width: 600, height: 150, background: background))
  }

  /// Flags that choose frames, times or pixels are refused with a vector file (one line, exit
  /// 2, nothing written), as is `--svg-animation` without an SVG.
  @Test(arguments: [
    (["--record", "v.svg", "--fps", "30"], "--fps: does not apply to vector output"),
    (["--record", "v.json", "--loop"], "--loop: does not apply to vector output"),
    (["--record", "v.svg", "--duration", "2"], "--duration: does not apply to vector output"),
    (["--record", "v.svg", "--zoom", "2"], "--zoom: does not apply to vector output"),
    (["--record", "v.svg", "--count", "3"], "--count: does not apply to vector output"),
    (["--record", "v.svg", "--at", "0"], "--at: does not apply to vector output"),
    (
      ["--record", "v.json", "--svg-animation", "css"],
      "--svg-animation: only with --record FILE.svg"
    ),
    (["--svg-animation", "smil"], "--svg-animation: only with --record FILE.svg"),
    (
      ["--record", "v.gif", "--svg-animation", "smil"],
      "--svg-animation: only with --record FILE.svg"
    ),
    (
      ["--record", "v.svg", "--svg-animation", "apng"],
      "--svg-animation: unknown SVG animation 'apng'"
    ),
    (["--record", "dir/.svg"], "--record: 'dir/.svg' has no file name before its .svg"),
    (
      ["--record", "v.svgz"],
      "--record: 'v.svgz' does not end in one of .gif, .webp, .mp4, .webm, .svg, .json"
    ),
    (["--record", "no-such-dir/v.svg"], "--record: directory 'no-such-dir' does not exist"),
  ])
  func refusals(_ arguments: [String], _ message: String) throws {
    let dir = try ScratchDirectory("vector-refusals")
    defer { dir.remove() }
    let r = try DemoProcess.run(arguments, directory: dir.url)
    #expect(r.status == 2)
    #expect(r.stdout.isEmpty)
    #expect(r.stderr.hasPrefix("demo: " + message), "\(r.stderr)")
    #expect(r.stderr.filter { $0 == "\n" }.count == 1)
    #expect(dir.contents().isEmpty)
  }
}
