import Foundation
import LoaderTestSupport
import Testing

/// The window under a private Xvfb server, driven by xdotool's synthetic keys: S writes a
/// screenshot with the HUD on it, R starts and stops a GIF recording, Esc quits with 0, and a
/// signal quits with 128 + its number.
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

  /// A private Xvfb server with the demo's window on it, in a scratch directory.
  final class Session {
    let server = Process()
    let demo = Process()
    let dir: ScratchDirectory
    let display: String
    let out = Pipe()
    let err = Pipe()

    init(_ name: String) throws {
      let xvfb = try #require(DemoWindowTests.tool("Xvfb"), "Xvfb is needed (apt: xvfb)")
      _ = try #require(DemoWindowTests.tool("xdotool"), "xdotool is needed (apt: xdotool)")
      var n = 100 + Int(getpid() % 400)
      while FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(n)") { n += 1 }
      display = ":\(n)"
      dir = try ScratchDirectory(name)
      server.executableURL = URL(fileURLWithPath: xvfb)
      server.arguments = [display, "-screen", "0", "800x600x24", "-nolisten", "tcp"]
      server.standardOutput = FileHandle.nullDevice
      server.standardError = FileHandle.nullDevice
      try server.run()
      try #require(
        DemoWindowTests.waitFor(10) {
          FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(n)")
        })

      demo.executableURL = BuiltProduct.executable(named: "demo")
      var env = ProcessInfo.processInfo.environment
      env["SDL_VIDEODRIVER"] = nil
      env["WAYLAND_DISPLAY"] = nil
      env["DISPLAY"] = display
      demo.environment = env
      demo.currentDirectoryURL = dir.url
      demo.standardOutput = out
      demo.standardError = err
      try demo.run()
      let display = display
      let found = DemoWindowTests.waitFor(30) {
        (try? DemoWindowTests.xdotool(["search", "--name", "LoaderView"], display: display)) == 0
      }
      try #require(found, "no LoaderView window on \(display)")
      try DemoWindowTests.xdotool(
        ["search", "--name", "LoaderView", "windowfocus"], display: display)
      usleep(300_000)
    }

    deinit {
      if demo.isRunning { kill(demo.processIdentifier, SIGKILL) }
      // SIGKILL: the server inherits the test runner's signal mask, which may block SIGTERM.
      kill(server.processIdentifier, SIGKILL)
      server.waitUntilExit()
      dir.remove()
    }

    func key(_ name: String) throws {
      try DemoWindowTests.xdotool(["key", name], display: display)
    }
    func files(_ prefix: String) -> [String] { dir.contents().filter { $0.hasPrefix(prefix) } }

    /// Waits up to `seconds` for the demo to exit (then kills it: `exited` is false); its
    /// status, stdout and stderr.
    func finish(within seconds: Double) -> (exited: Bool, status: Int32, out: String, err: String) {
      let exited = DemoWindowTests.waitFor(seconds) { !demo.isRunning }
      if !exited { kill(demo.processIdentifier, SIGKILL) }
      demo.waitUntilExit()
      let o = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      return (exited, demo.terminationStatus, o, e)
    }
  }

  @Test(.timeLimit(.minutes(2))) func screenshotAndRecordingKeysWriteTheirFiles() throws {
    let session = try Session("window")
    let dir = session.dir
    let files = session.files
    try session.key("s")
    #expect(Self.waitFor(20) { !files("screenshot-").isEmpty }, "S wrote no screenshot")
    try session.key("r")
    usleep(700_000)
    try session.key("r")
    #expect(Self.waitFor(20) { !files("recording-").isEmpty }, "R wrote no recording")
    try session.key("Escape")
    let (exited, status, said, _) = session.finish(within: 20)
    #expect(exited, "Esc did not quit")
    #expect(status == 0)

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

  /// SIGTERM and SIGINT reach the window's loop (SDL would turn them into a plain quit, exit
  /// 0): a recording in progress is dropped with its temporary, the exit is 128 + signal.
  @Test(.timeLimit(.minutes(2)), arguments: [SIGTERM, SIGINT])
  func aSignalWhileRecordingExits128PlusItAndLeavesNothing(signal: Int32) throws {
    let session = try Session("window-signal")
    try session.key("r")
    #expect(
      Self.waitFor(20) { !session.files(".swiftloader").isEmpty },
      "R made no temporary: \(session.dir.contents())")
    kill(session.demo.processIdentifier, signal)
    let (exited, status, _, err) = session.finish(within: 10)
    #expect(exited, "the signal did not end the demo")
    #expect(status == 128 + signal)
    let name = signal == SIGTERM ? "SIGTERM" : "SIGINT"
    #expect(err.hasSuffix("demo: interrupted by \(name); partial output removed\n"), "\(err)")
    #expect(session.dir.contents().isEmpty, "left: \(session.dir.contents())")
  }
}
