import Foundation
import LoaderTestSupport
import Testing

/// The window under a private Xvfb server, driven by xdotool's synthetic keys: S writes a
/// screenshot with the HUD on it, R starts and stops a GIF recording, Esc quits with 0.
@Suite(.serialized) struct DemoWindowTests {
  static func tool(_ name: String) -> String? {
    for dir in ["/usr/bin", "/usr/local/bin", "/bin"]
    where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
      return "\(dir)/\(name)"
    }
    return nil
  }

  /// Runs `tool` with `arguments` on `display`; its exit status.
  @discardableResult
  static func xdotool(_ arguments: [String], display: String) throws -> Int32 {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: try #require(tool("xdotool")))
    p.arguments = arguments
    p.environment = ["DISPLAY": display, "PATH": "/usr/bin:/bin"]
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try p.run()
    p.waitUntilExit()
    return p.terminationStatus
  }

  static func waitFor(_ seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if condition() { return true }
      usleep(50_000)
    }
    return condition()
  }

  @Test(.timeLimit(.minutes(2))) func screenshotAndRecordingKeysWriteTheirFiles() throws {
    let xvfb = try #require(Self.tool("Xvfb"), "Xvfb is needed (apt: xvfb)")
    _ = try #require(Self.tool("xdotool"), "xdotool is needed (apt: xdotool)")
    var n = 100 + Int(getpid() % 400)
    while FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(n)") { n += 1 }
    let display = ":\(n)"
    let server = Process()
    server.executableURL = URL(fileURLWithPath: xvfb)
    server.arguments = [display, "-screen", "0", "800x600x24", "-nolisten", "tcp"]
    server.standardOutput = FileHandle.nullDevice
    server.standardError = FileHandle.nullDevice
    try server.run()
    defer {
      // SIGKILL: the server inherits the test runner's signal mask, which may block SIGTERM.
      kill(server.processIdentifier, SIGKILL)
      server.waitUntilExit()
    }
    try #require(
      Self.waitFor(10) { FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(n)") })

    let dir = try ScratchDirectory("window")
    defer { dir.remove() }
    let demo = Process()
    demo.executableURL = BuiltProduct.executable(named: "demo")
    var env = ProcessInfo.processInfo.environment
    env["SDL_VIDEODRIVER"] = nil
    env["WAYLAND_DISPLAY"] = nil
    env["DISPLAY"] = display
    demo.environment = env
    demo.currentDirectoryURL = dir.url
    let out = Pipe()
    demo.standardOutput = out
    demo.standardError = FileHandle.nullDevice
    try demo.run()
    defer { if demo.isRunning { kill(demo.processIdentifier, SIGKILL) } }

    let found = Self.waitFor(30) {
      (try? Self.xdotool(["search", "--name", "LoaderView"], display: display)) == 0
    }
    try #require(found, "no LoaderView window on \(display)")
    try Self.xdotool(
      ["search", "--name", "LoaderView", "windowfocus"], display: display)
    usleep(300_000)
    func files(_ prefix: String) -> [String] { dir.contents().filter { $0.hasPrefix(prefix) } }

    try Self.xdotool(["key", "s"], display: display)
    #expect(Self.waitFor(20) { !files("screenshot-").isEmpty }, "S wrote no screenshot")
    try Self.xdotool(["key", "r"], display: display)
    usleep(700_000)
    try Self.xdotool(["key", "r"], display: display)
    #expect(Self.waitFor(20) { !files("recording-").isEmpty }, "R wrote no recording")
    try Self.xdotool(["key", "Escape"], display: display)
    #expect(Self.waitFor(20) { !demo.isRunning }, "Esc did not quit")
    demo.waitUntilExit()
    #expect(demo.terminationStatus == 0)
    let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)

    let shot = try #require(files("screenshot-").first)
    #expect(said.contains("demo: wrote ./\(shot)"), "stdout: \(said)")
    let png = try PNGImage(path: dir.file(shot))
    #expect(png.width == 390 && png.height == 320)
    // The HUD's dark panel in the corner, the seed's red ring below it.
    let dark = png.pixels.prefix(120 * 390).count { $0 & 0xFF < 80 && ($0 >> 16) < 80 }
    #expect(dark > 5000, "HUD panel pixels: \(dark)")
    #expect(png.pixels.contains(0xFF3B30))

    let gif = try #require(files("recording-").first)
    #expect(gif.hasSuffix(".gif") && said.contains("demo: wrote \(gif)"), "stdout: \(said)")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: dir.file(gif)))
    #expect(bytes.starts(with: Array("GIF89a".utf8)) && bytes.count > 1000)
    #expect(files(".swiftloader").isEmpty)
  }
}
