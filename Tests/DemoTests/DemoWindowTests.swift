import Foundation
import LoaderCore
import SwiftLoaderTestSupport
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
    let watchdog = Watchdog(killing: p.processIdentifier, after: .seconds(30))
    p.waitUntilExit()
    _ = watchdog.finish()
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

    /// `environment`: variables set for the demo beside this process's.
    init(_ name: String, arguments: [String] = [], environment: [String: String] = [:]) throws {
      let xvfb = try #require(DemoWindowTests.tool("Xvfb"), "Xvfb is needed (apt: xvfb)")
      _ = try #require(DemoWindowTests.tool("xdotool"), "xdotool is needed (apt: xdotool)")
      // Xvfb picks a free display itself and writes its number to `-displayfd`'s descriptor
      // (here its stdout) once it accepts clients. Choosing a number here raced: this suite's
      // tests run at once in one process, two of them took the same free-looking number, one
      // server failed, and its demo drew on the other test's display.
      dir = try ScratchDirectory(name)
      server.executableURL = URL(fileURLWithPath: xvfb)
      server.arguments = ["-displayfd", "1", "-screen", "0", "800x600x24", "-nolisten", "tcp"]
      let announced = Pipe()
      server.standardOutput = announced
      server.standardError = FileHandle.nullDevice
      try server.run()
      let n = PipeDrain(announced.fileHandleForReading, firstLineOnly: true).wait(seconds: 60)
        .flatMap {
          Int(String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }
      if n == nil { kill(server.processIdentifier, SIGKILL) }  // no deinit before `display`
      display = ":\(try #require(n, "Xvfb announced no display"))"

      demo.executableURL = BuiltProduct.executable(named: "demo")
      demo.arguments = arguments
      var env = ProcessInfo.processInfo.environment
      env["SDL_VIDEODRIVER"] = nil
      env["WAYLAND_DISPLAY"] = nil
      env["DISPLAY"] = display
      for (k, v) in environment { env[k] = v }
      demo.environment = env
      demo.currentDirectoryURL = dir.url
      demo.standardOutput = out
      demo.standardError = err
      try demo.run()
      let display = display
      // Deadlines here are generous: each returns as soon as its condition holds, and a debug
      // demo on a machine busy with other builds took over 30 s to show its window.
      let found = DemoWindowTests.waitFor(120) {
        (try? DemoWindowTests.xdotool(["search", "--name", "LoaderView"], display: display)) == 0
      }
      if !found, !demo.isRunning {
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try #require(found, "no LoaderView window on \(display); the demo said: \(said)")
      }
      if !found {
        // Still running, no window: stop it and say what it printed and which windows the
        // display has (one full run of the suite timed out here once, unreproduced alone).
        demo.terminate()
        demo.waitUntilExit()
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let windows =
          (try? DemoWindowTests.xdotool(["search", "--name", "."], display: display))
          .map(String.init) ?? "xdotool failed"
        let message =
          "no LoaderView window on \(display) after 120 s (xdotool search:"
          + " \(windows)); the demo said: \(said)"
        try #require(found, "\(message)")
      }
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

    /// A left click at `(x, y)` in the window's own coordinates.
    func click(x: Int, y: Int) throws {
      try DemoWindowTests.xdotool(
        [
          "search", "--name", "LoaderView", "mousemove", "--window", "%1", "\(x)", "\(y)",
          "click", "1",
        ], display: display)
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

  @Test func screenshotAndRecordingKeysWriteTheirFiles() throws {
    let session = try Session("window")
    let dir = session.dir
    let files = session.files
    try session.key("s")
    #expect(Self.waitFor(60) { !files("screenshot-").isEmpty }, "S wrote no screenshot")
    try session.key("r")
    usleep(700_000)
    try session.key("r")
    #expect(Self.waitFor(60) { !files("recording-").isEmpty }, "R wrote no recording")
    try session.key("Escape")
    let (exited, status, said, _) = session.finish(within: 60)
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
  @Test(arguments: [SIGTERM, SIGINT])
  func aSignalWhileRecordingExits128PlusItAndLeavesNothing(signal: Int32) throws {
    let session = try Session("window-signal")
    try session.key("r")
    #expect(
      Self.waitFor(60) { !session.files(".swiftloader").isEmpty },
      "R made no temporary: \(session.dir.contents())")
    kill(session.demo.processIdentifier, signal)
    let (exited, status, _, err) = session.finish(within: 30)
    #expect(exited, "the signal did not end the demo")
    #expect(status == 128 + signal)
    let name = signal == SIGTERM ? "SIGTERM" : "SIGINT"
    #expect(err.hasSuffix("demo: interrupted by \(name); partial output removed\n"), "\(err)")
    #expect(session.dir.contents().isEmpty, "left: \(session.dir.contents())")
  }

  /// `--scene sprites` in a window: two screenshots half a second apart show the sprites
  /// moving, and each click toggles the loader under the pointer: the one the demo names
  /// holds the pointer in its frame, and turns off first (every loader starts on).
  @Test func spritesMoveAndAClickTogglesTheLoaderUnderThePointer()
    throws
  {
    let session = try Session(
      "window-sprites",
      arguments: ["--scene", "sprites", "--count", "80", "--size", "640x400", "--hud", "off"])
    let files = session.files
    try session.key("s")
    #expect(Self.waitFor(60) { files("screenshot-").count == 1 }, "S wrote no screenshot")
    usleep(600_000)
    try session.key("s")
    #expect(Self.waitFor(60) { files("screenshot-").count == 2 }, "S wrote one screenshot")
    let points = [(320, 200), (160, 120), (480, 300), (200, 330), (420, 90), (560, 200)]
    for (x, y) in points {
      try session.click(x: x, y: y)
      usleep(250_000)
    }
    usleep(300_000)
    try session.key("Escape")
    let (exited, status, _, err) = session.finish(within: 60)
    #expect(exited && status == 0, "\(err)")

    let shots = try files("screenshot-").sorted().map { try PNGImage(path: session.dir.file($0)) }
    try #require(shots.count == 2)
    let white = LoaderPalette.light.background
    let background = (UInt32(white.r) << 16) | (UInt32(white.g) << 8) | UInt32(white.b)
    for shot in shots {
      #expect(shot.width == 640 && shot.height == 400)
      #expect(shot.pixels.count { $0 != background } > 5000, "no sprites in a screenshot")
    }
    let changed = zip(shots[0].pixels, shots[1].pixels).count { $0 != $1 }
    #expect(changed > 5000, "the sprites did not move: \(changed) pixels changed")

    // `demo: click at (X, Y): loader I in (FX, FY, FW, FH), now on|off`
    let clicks = err.split(separator: "\n").filter { $0.hasPrefix("demo: click at") }
    #expect(clicks.count == points.count, "\(err)")
    var hits = 0
    var turned: [Int: Int] = [:]
    for line in clicks where line.contains(": loader ") {
      let numbers = line.split(whereSeparator: { !"0123456789.-".contains($0) })
        .compactMap { Double($0) }
      try #require(numbers.count == 7, "\(line)")
      let (x, y, loader) = (numbers[0], numbers[1], Int(numbers[2]))
      let (fx, fy, fw, fh) = (numbers[3], numbers[4], numbers[5], numbers[6])
      #expect(x >= fx && x < fx + fw && y >= fy && y < fy + fh, "\(line)")
      turned[loader, default: 0] += 1
      let expected = turned[loader]! % 2 == 1 ? "off" : "on"
      #expect(line.hasSuffix("now \(expected)"), "\(line)")
      hits += 1
    }
    #expect(hits >= 3, "\(clicks)")
  }
}
