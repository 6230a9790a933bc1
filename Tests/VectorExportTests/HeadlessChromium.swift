import Foundation
import LoaderCore
import SwiftLoaderTestSupport

/// Headless Chromium (Debian's `chromium`) as a process: an SVG inlined six times in one HTML
/// page, each copy paused at its own time, captured in one screenshot.
///
/// CSS animations are paused through `Element.getAnimations({subtree: true})` and their
/// `currentTime` (ms); SMIL ones through `SVGSVGElement.pauseAnimations()` and
/// `setCurrentTime(_:)` (s). The script runs before the first paint, so the screenshot shows
/// the paused frames. The sandbox is off: the page is a local file the test wrote, and the
/// sandbox cannot start as root.
enum HeadlessChromium {
  /// The first of `chromium`, `chromium-browser`, `google-chrome` on `PATH`, or nil.
  static let executable: URL? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for name in ["chromium", "chromium-browser", "google-chrome"] {
      for dir in path.split(separator: ":") {
        let url = URL(fileURLWithPath: String(dir)).appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
      }
    }
    return nil
  }()

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Renders `svg` (`width` x `height` CSS pixels at device scale 1) at each of `times`
  /// seconds; returns one `0xRRGGBB` frame per time.
  static func render(
    svg: String, animation: LoaderExport.SVGAnimation, width: Int, height: Int,
    times: [Double], savingTo png: String? = nil
  ) throws -> [[UInt32]] {
    guard let executable else { throw Failure(description: "no chromium on PATH") }
    let dir = try ScratchDirectory("chromium")
    defer { dir.remove() }
    var body = ""
    var script = ""
    for (k, t) in times.enumerated() {
      body += #"<div id="t\#(k)" style="width:\#(width)px;height:\#(height)px">\#(svg)</div>"#
      switch animation {
      case .css:
        script += """
          for (const a of document.getElementById("t\(k)").getAnimations({subtree: true})) {
            a.pause(); a.currentTime = \(t * 1000);
          }

          """
      case .smil:
        script += """
          { const s = document.querySelector("#t\(k) svg"); s.pauseAnimations(); s.setCurrentTime(\(t)); }

          """
      }
    }
    let html = """
      <!doctype html><html><head><style>body{margin:0} svg{display:block}</style></head>
      <body>\(body)<script>\(script)</script></body></html>
      """
    let page = dir.file("page.html")
    try html.write(toFile: page, atomically: true, encoding: .utf8)
    let shot = png ?? dir.file("shot.png")
    try? FileManager.default.removeItem(atPath: shot)
    let r = try run(
      executable,
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
        "--force-device-scale-factor=1", "--user-data-dir=\(dir.file("profile"))",
        "--window-size=\(width),\(height * times.count)", "--screenshot=\(shot)",
        URL(fileURLWithPath: page).absoluteString,
      ], in: dir)
    guard r.status == 0, FileManager.default.fileExists(atPath: shot) else {
      throw Failure(
        description: "chromium exited \(r.status): \(r.stderr.suffix(2000))")
    }
    let image = try PNGImage(path: shot)
    guard image.width == width, image.height == height * times.count else {
      throw Failure(
        description: "screenshot is \(image.width)x\(image.height), expected "
          + "\(width)x\(height * times.count)")
    }
    return times.indices.map { k in
      Array(image.pixels[(k * width * height)..<((k + 1) * width * height)])
    }
  }

  /// Runs `executable` with its output in files of `dir` (no pipe to fill), and kills it after
  /// `timeout` seconds: a browser that hangs fails the test instead of stalling the suite.
  private static func run(
    _ executable: URL, _ arguments: [String], in dir: ScratchDirectory, timeout: Double = 120
  ) throws -> (status: Int32, stderr: String) {
    let p = Process()
    p.executableURL = executable
    p.arguments = arguments
    _ = FileManager.default.createFile(atPath: dir.file("stderr.txt"), contents: nil)
    let err = try FileHandle(forWritingTo: URL(fileURLWithPath: dir.file("stderr.txt")))
    defer { try? err.close() }
    p.standardOutput = FileHandle.nullDevice
    p.standardError = err
    try p.run()
    let start = Date()
    while p.isRunning {
      if Date().timeIntervalSince(start) > timeout {
        p.terminate()
        p.waitUntilExit()
        throw Failure(description: "chromium did not finish in \(Int(timeout)) s")
      }
      usleep(20_000)
    }
    let text = (try? String(contentsOfFile: dir.file("stderr.txt"), encoding: .utf8)) ?? ""
    return (p.terminationStatus, text)
  }
}
