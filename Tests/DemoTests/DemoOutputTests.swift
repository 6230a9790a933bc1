import Foundation
import SwiftLoaderTestSupport
import Testing

/// Where the demo's files go: through links, to stdout, never over a device or a directory,
/// never half written (full disk, signals), and nothing left behind by a failure.
@Suite struct DemoOutputTests {
  static func oneLine(_ stderr: String) -> Bool {
    stderr.hasSuffix("\n") && stderr.dropLast().split(separator: "\n").count == 1
  }

  @Test func aTraceSymlinkIsWrittenThroughAndKept() throws {
    let dir = try ScratchDirectory("link")
    defer { dir.remove() }
    try Data("old".utf8).write(to: URL(fileURLWithPath: dir.file("real.json")))
    #expect(symlink("real.json", dir.file("t.json")) == 0)
    let r = try DemoProcess.run([
      "--at", "0.1", "--out", dir.file("f"), "--trace", dir.file("t.json"),
    ])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      (try? FileManager.default.destinationOfSymbolicLink(atPath: dir.file("t.json")))
        == "real.json")
    let trace = try DemoTrace(path: dir.file("real.json"))
    #expect(trace.frames.count == 1)
    #expect(dir.contents() == ["f", "real.json", "t.json"])
  }

  @Test(arguments: ["/dev/null", "/dev/full", "/dev/stderr"])
  func aDeviceTraceIsRefused(_ device: String) throws {
    let dir = try ScratchDirectory("device")
    defer { dir.remove() }
    let r = try DemoProcess.run(["--at", "0", "--out", dir.file("f"), "--trace", device])
    #expect(r.status == 2)
    #expect(Self.oneLine(r.stderr) && r.stderr.hasPrefix("demo: --trace: "), "\(r.stderr)")
    #expect(r.stderr.contains("not a regular file"))
    #expect(dir.contents().isEmpty)
    var info = stat()
    #expect(lstat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
  }

  @Test(arguments: ["-", "/dev/stdout"])
  func aTraceOnStdoutIsTheWholeOfStdout(_ name: String) throws {
    let dir = try ScratchDirectory("stdout")
    defer { dir.remove() }
    let r = try DemoProcess.run(["--at", "0,0.35", "--out", dir.path, "--trace", name])
    #expect(r.status == 0, "\(r.stderr)")
    // Status lines went to stderr; stdout parses as the trace.
    #expect(r.stderr.contains("demo: wrote 2 PNG frame(s)"))
    let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
    #expect((object?["frames"] as? [Any])?.count == 2)
    var info = stat()
    #expect(lstat("/dev/stdout", &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
  }

  @Test func collisionsWithTheFramesAreUsageErrorsAndCreateNothing() throws {
    let dir = try ScratchDirectory("collide")
    defer { dir.remove() }
    for (out, trace, words) in [
      ("o2", "o2/frame-0000-t0.000.png", "one of the frames"), ("new", "new", "a directory"),
      ("a/b", "a", "a directory"),
    ] {
      let r = try DemoProcess.run(
        ["--at", "0", "--out", out, "--trace", trace], directory: dir.url)
      #expect(r.status == 2, "\(out) \(trace): \(r.stderr)")
      #expect(Self.oneLine(r.stderr) && r.stderr.contains(words), "\(r.stderr)")
      #expect(dir.contents().isEmpty, "\(out) \(trace)")
    }
  }

  /// A bare name (no directory part) once trapped in the parent-directory check.
  @Test func aOneCharacterTraceNameInTheWorkingDirectory() throws {
    let dir = try ScratchDirectory("short")
    defer { dir.remove() }
    let r = try DemoProcess.run(["--at", "0", "--out", "f", "--trace", "t"], directory: dir.url)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try DemoTrace(path: dir.file("t")).frames.count == 1)
    #expect(dir.contents() == ["f", "t"])
  }

  @Test func aTraceNameOf255BytesWorksAnd256IsAUsageError() throws {
    let dir = try ScratchDirectory("long")
    defer { dir.remove() }
    let name = String(repeating: "t", count: 255)
    let ok = try DemoProcess.run(["--at", "0", "--out", dir.file("f"), "--trace", dir.file(name)])
    #expect(ok.status == 0, "\(ok.stderr)")
    #expect(try DemoTrace(path: dir.file(name)).frames.count == 1)
    let r = try DemoProcess.run([
      "--at", "0", "--out", dir.file("g"), "--trace", dir.file(name + "t"),
    ])
    #expect(r.status == 2)
    #expect(Self.oneLine(r.stderr) && r.stderr.contains("at most 255 bytes"), "\(r.stderr)")
    #expect(r.stderr.count < 300)
    #expect(dir.contents() == ["f", name])
  }

  @Test func hugeAndMultiLineValuesGiveOneShortLine() throws {
    let dir = try ScratchDirectory("values")
    defer { dir.remove() }
    let huge = String(repeating: "d", count: 100_000)
    for trace in [dir.file(huge), dir.file("no\nsuch/t.json"), "/nonexistent\r\n/x"] {
      let r = try DemoProcess.run(["--at", "0", "--out", dir.file("f"), "--trace", trace])
      #expect(r.status == 2)
      #expect(Self.oneLine(r.stderr), "\(r.stderr.prefix(200))")
      #expect(r.stderr.count < 700)
    }
    let r = try DemoProcess.run(["--at", "0", "--out", dir.file(huge)])
    #expect(r.status == 2 && Self.oneLine(r.stderr) && r.stderr.count < 700)
    #expect(dir.contents().isEmpty)
  }

  @Test func staleTemporariesInTheOutputDirectoryAreRemoved() throws {
    let dir = try ScratchDirectory("stale")
    defer { dir.remove() }
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/bin/true")
    try child.run()
    child.waitUntilExit()
    let stale = ".swiftloader-\(child.processIdentifier)-3.partial"
    try Data("half".utf8).write(to: URL(fileURLWithPath: dir.file(stale)))
    let r = try DemoProcess.run(["--at", "0", "--out", dir.path, "--trace", dir.file("t.json")])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(dir.contents() == ["frame-0000-t0.000.png", "t.json"])
  }

  /// Enough frames of a big grid that the run is still going when the signal comes.
  @Test(arguments: [SIGTERM, SIGINT])
  func aSignalRemovesEveryTemporaryAndExitsWithItsStatus(signal: Int32) throws {
    let status = 128 + signal  // 143, 130
    let dir = try ScratchDirectory("signal")
    defer { dir.remove() }
    // Small frames (each well inside the grace period even in a debug build), many of them.
    let times = stride(from: 0.0, through: 40, by: 0.05).map { String($0) }.joined(separator: ",")
    let p = Process()
    p.executableURL = BuiltProduct.executable(named: "demo")
    p.arguments = [
      "--scene", "grid", "--count", "500", "--at", times, "--out", dir.file("o"),
      "--trace", dir.file("t.json"),
    ]
    var environment = ProcessInfo.processInfo.environment
    environment["SDL_VIDEODRIVER"] = "dummy"
    p.environment = environment
    p.standardOutput = FileHandle.nullDevice
    let err = Pipe()
    p.standardError = err
    try p.run()
    // Wait for a few frames: the run is now writing. They are temporaries until the whole set
    // is on disk (`OutputFile.commit(_:)`), so count those.
    func temporaries() -> Int {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.file("o"))) ?? []
      return names.filter { $0.hasPrefix(".swiftloader-") }.count
    }
    let deadline = Date().addingTimeInterval(120)
    while p.isRunning, Date() < deadline, temporaries() < 4 {
      usleep(20_000)
    }
    #expect(p.isRunning, "the run ended before it could be interrupted")
    let sent = Date()
    kill(p.processIdentifier, signal)
    // A demo that ignores the signal (SDL's own handlers only queue an SDL_QUIT event that a
    // headless run never reads) would run for minutes: give it ten seconds.
    while p.isRunning, Date().timeIntervalSince(sent) < 10 { usleep(10_000) }
    if p.isRunning {
      kill(p.processIdentifier, SIGKILL)
      Issue.record("the demo ignored signal \(signal)")
    }
    p.waitUntilExit()
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    print(
      "signal \(signal): exited \(p.terminationStatus) after \(Date().timeIntervalSince(sent)) s")
    #expect(p.terminationReason == .exit)
    #expect(p.terminationStatus == status, "\(stderr)")
    // Through the loop's check, not the handler's last resort after the grace period.
    #expect(Date().timeIntervalSince(sent) < 2.5)
    #expect(stderr.contains("interrupted by SIG"), "\(stderr)")
    #expect(dir.contents().isEmpty, "left: \(dir.contents())")
  }

  @Test(.enabled(if: FullDisk.canMount, Comment(rawValue: FullDisk.needs)))
  func aFullDiskIsAnIOErrorThatLeavesNothing() throws {
    let disk = try FullDisk.mount(leaving: 12 * 1024)
    defer { disk.unmount() }
    for out in ["o", "o/p/q"] {
      let r = try DemoProcess.run(["--at", "0,0.1", "--out", disk.path + "/" + out])
      #expect(r.status == 1, "\(r.stderr)")
      #expect(Self.oneLine(r.stderr) && r.stderr.contains("No space left on device"), "\(r.stderr)")
      #expect(disk.leftovers().isEmpty, "left: \(disk.leftovers())")
    }
    let r = try DemoProcess.run([
      "--scene", "grid", "--count", "500", "--at", "0", "--out", disk.scratch.file("frames"),
      "--trace", disk.path + "/t.json",
    ])
    #expect(r.status == 1, "\(r.stderr)")
    #expect(Self.oneLine(r.stderr) && r.stderr.contains("No space left on device"), "\(r.stderr)")
    #expect(disk.leftovers().isEmpty)
    #expect(!FileManager.default.fileExists(atPath: disk.scratch.file("frames")))
  }
}
