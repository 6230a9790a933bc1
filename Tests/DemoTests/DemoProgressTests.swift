import Foundation
import SwiftLoaderTestSupport
import Testing

/// The progress line of long headless runs: on a terminal (a pseudo-terminal from util-linux's
/// `script`) one line rewritten in place and ended; with standard error to a pipe, or with
/// `--quiet`, nothing.
@Suite struct DemoProgressTests {
  /// A recording that takes a few seconds in a debug build: 150 GIF frames.
  static let longRecording = ["--record", "p.gif", "--duration", "3"]
  static let script = "/usr/bin/script"

  /// Runs the demo with `arguments` in `dir` on a pseudo-terminal: stdout and stderr both go
  /// to the terminal, whose output (`\n` written as `\r\n`) is returned.
  static func onTerminal(_ arguments: [String], in dir: ScratchDirectory) throws -> BuiltProduct {
    let demo = BuiltProduct.executable(named: "demo").path
    let command = ([demo] + arguments).map(quoted).joined(separator: " ")
    // `script` copies its own stdin to the terminal: /dev/null, so a test run from a terminal
    // does not hand its keyboard over.
    return try BuiltProduct.run(
      executable: URL(fileURLWithPath: "/bin/sh"),
      ["-c", "exec \(script) -qec \"$1\" /dev/null < /dev/null", "sh", command],
      environment: ["SDL_VIDEODRIVER": "dummy"], directory: dir.url)
  }

  static func quoted(_ s: String) -> String {
    "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  @Test func aLongRecordingOnATerminalShowsOneLineRewrittenInPlace() throws {
    try #require(FileManager.default.isExecutableFile(atPath: Self.script))
    let dir = try ScratchDirectory("progress-tty")
    defer { dir.remove() }
    let r = try Self.onTerminal(Self.longRecording, in: dir)
    try #require(r.status == 0, "\(r.stdout)")
    // Everything before the final newline is one terminal line: carriage returns only.
    let lines = r.stdout.components(separatedBy: "\r\n")
    #expect(lines.count == 3 && lines[2].isEmpty, "\(lines)")
    let progress = lines[0].split(separator: "\r").map(String.init)
    #expect(r.stdout.hasPrefix("\rdemo: p.gif: "), "\(r.stdout)")
    #expect(progress.count >= 2, "\(progress)")
    // Frames done, elapsed and (until the last frame) an estimate; the line's end is padded
    // with spaces over a longer line before it.
    for update in progress.dropLast() {
      #expect(
        update.wholeMatch(of: /demo: p\.gif: \d+\/150 frames, [^,]+ s(, about [^,]+ s left)? */)
          != nil, "\(update)")
    }
    #expect(
      progress.last?.wholeMatch(of: /demo: p\.gif: 150\/150 frames in [^,]+ s */) != nil,
      "\(progress)")
    #expect(lines[1] == "demo: wrote 150 frames, 3 s at 50 fps to p.gif")
    #expect(dir.contents() == ["p.gif"])
  }

  @Test func nothingWithStandardErrorToAPipe() throws {
    let dir = try ScratchDirectory("progress-pipe")
    defer { dir.remove() }
    let r = try DemoProcess.run(Self.longRecording, directory: dir.url)
    #expect(r.status == 0)
    #expect(r.stderr.isEmpty, "\(r.stderr)")
    #expect(r.stdout == "demo: wrote 150 frames, 3 s at 50 fps to p.gif\n")
  }

  @Test func quietSilencesItOnATerminal() throws {
    try #require(FileManager.default.isExecutableFile(atPath: Self.script))
    let dir = try ScratchDirectory("progress-quiet")
    defer { dir.remove() }
    let r = try Self.onTerminal(Self.longRecording + ["--quiet"], in: dir)
    #expect(r.status == 0)
    #expect(r.stdout == "demo: wrote 150 frames, 3 s at 50 fps to p.gif\r\n")
  }

  /// Headless PNG frames count too: a grid slow enough to take over a second. (Twelve frames
  /// of 20000 loaders, about 3 s in a debug build: four, about 1 s, sometimes ended before the
  /// line's first second.)
  @Test func headlessFramesShowTheLine() throws {
    try #require(FileManager.default.isExecutableFile(atPath: Self.script))
    let dir = try ScratchDirectory("progress-frames")
    defer { dir.remove() }
    let times = (0..<12).map { String(format: "%.1f", Double($0) / 10) }.joined(separator: ",")
    let r = try Self.onTerminal(["--count", "20000", "--at", times, "--out", "f"], in: dir)
    try #require(r.status == 0, "\(r.stdout)")
    let lines = r.stdout.components(separatedBy: "\r\n")
    #expect(lines.count == 3, "\(lines)")
    #expect(lines[0].hasPrefix("\rdemo: f/: "), "\(lines[0])")
    #expect(
      lines[0].split(separator: "\r").last?.wholeMatch(of: /demo: f\/: 12\/12 frames in [^,]+ s */)
        != nil, "\(lines[0])")
    #expect(lines[1].hasPrefix("demo: wrote 12 PNG frame(s)"))
  }
}
