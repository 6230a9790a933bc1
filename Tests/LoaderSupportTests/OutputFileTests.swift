import Foundation
import Testing

@testable import SwiftLoaderSupport

/// A fresh directory, removed when the test ends.
final class Scratch {
  let path: String
  init(_ label: String) throws {
    path =
      FileManager.default.temporaryDirectory.appendingPathComponent(
        "output-\(label)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
      ).path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }
  deinit { try? FileManager.default.removeItem(atPath: path) }
  func file(_ name: String) -> String { path + "/" + name }
  /// Every entry, hidden ones included (temporaries start with a dot).
  func contents() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
  }
  func read(_ name: String) -> String? { try? String(contentsOfFile: file(name), encoding: .utf8) }
}

@Suite struct OutputFileTests {
  @Test func commitReplacesTheFileAndLeavesNoTemporary() throws {
    let dir = try Scratch("commit")
    try Data("old".utf8).write(to: URL(fileURLWithPath: dir.file("out.txt")))
    let file = try OutputFile(path: dir.file("out.txt"))
    try file.write("new")
    // Before the commit, readers still see the old file, and the temporary is hidden beside it.
    #expect(dir.read("out.txt") == "old")
    #expect(dir.contents().count == 2)
    try file.commit()
    #expect(dir.read("out.txt") == "new")
    #expect(dir.contents() == ["out.txt"])
  }

  @Test func discardAndDeinitLeaveNothing() throws {
    let dir = try Scratch("discard")
    let file = try OutputFile(path: dir.file("a"))
    try file.write("x")
    file.discard()
    do {
      let dropped = try OutputFile(path: dir.file("b"))
      try dropped.write("y")
    }
    #expect(dir.contents().isEmpty)
  }

  @Test func aSymlinkIsWrittenThroughToItsTarget() throws {
    let dir = try Scratch("link")
    try FileManager.default.createDirectory(
      atPath: dir.file("real"), withIntermediateDirectories: true)
    try Data("old".utf8).write(to: URL(fileURLWithPath: dir.file("real/target.json")))
    #expect(symlink("real/target.json", dir.file("link.json")) == 0)
    try OutputFile.write(Array("new".utf8), to: dir.file("link.json"))
    let attributes = try FileManager.default.attributesOfItem(atPath: dir.file("link.json"))
    #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
    #expect(dir.read("real/target.json") == "new")
    #expect(dir.contents() == ["link.json", "real"])
    // A dangling link creates its target.
    #expect(symlink("real/fresh", dir.file("dangling")) == 0)
    try OutputFile.write(Array("made".utf8), to: dir.file("dangling"))
    #expect(dir.read("real/fresh") == "made")
  }

  @Test(arguments: ["/dev/null", "/dev/full", "/dev/zero", "DIR", "FIFO", "LINK-TO-DEVICE"])
  func nonRegularTargetsAreUsageErrors(_ which: String) throws {
    let dir = try Scratch("refuse")
    var path = which
    switch which {
    case "DIR": path = dir.path
    case "FIFO":
      path = dir.file("fifo")
      #expect(mkfifo(path, 0o600) == 0)
    case "LINK-TO-DEVICE":
      path = dir.file("null-link")
      #expect(symlink("/dev/null", path) == 0)
    default: break
    }
    let error = #expect(throws: OutputError.self) { try OutputFile.check(path) }
    #expect(error?.kind == .usage)
    #expect(error?.description.contains("not a regular file") == true)
    #expect(#expect(throws: OutputError.self) { try OutputFile(path: path) }?.kind == .usage)
    // Nothing was replaced: the device and the link are still what they were.
    if which == "LINK-TO-DEVICE" {
      #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == "/dev/null")
    }
    var info = stat()
    #expect(stat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
  }

  @Test func aNameOf255BytesWorksAnd256IsRefused() throws {
    let dir = try Scratch("long")
    let longest = String(repeating: "n", count: 255)
    try OutputFile.write(Array("ok".utf8), to: dir.file(longest))
    #expect(dir.read(longest) == "ok")
    let error = #expect(throws: OutputError.self) {
      try OutputFile.check(dir.file(longest + "x"))
    }
    #expect(error?.kind == .usage)
    #expect(error?.description.contains("at most 255 bytes") == true)
  }

  @Test func missingDirectoryAndEmptyPathAreUsageErrors() throws {
    for path in ["", "/nonexistent-dir/x.json", "/etc/passwd/x"] {
      let error = #expect(throws: OutputError.self, "\(path)") { try OutputFile.check(path) }
      #expect(error?.kind == .usage, "\(path)")
    }
  }

  @Test func staleTemporariesOfDeadProcessesAreRemovedByTheNextRun() throws {
    let dir = try Scratch("stale")
    // A pid that surely has no process: a child that has exited and been reaped.
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/bin/true")
    try child.run()
    child.waitUntilExit()
    let dead = child.processIdentifier
    let stale = ".swiftloader-\(dead)-7.partial"
    let live = ".swiftloader-\(getppid())-7.partial"
    let foreign = ".swiftloader-notes.partial"
    for name in [stale, live, foreign] {
      try Data("x".utf8).write(to: URL(fileURLWithPath: dir.file(name)))
    }
    try OutputFile.write(Array("new".utf8), to: dir.file("out"))
    #expect(dir.contents() == [foreign, live, "out"].sorted())
  }

  @Test func temporaryNamesParse() {
    #expect(TemporaryFiles.owner(ofTemporaryNamed: ".swiftloader-123-4.partial") == 123)
    for name in [
      ".swiftloader-123.partial", ".swiftloader--4.partial", "swiftloader-1-2.partial",
      ".swiftloader-1-2.partialx", ".swiftloader-x-2.partial", "frame-0000.png",
    ] {
      #expect(TemporaryFiles.owner(ofTemporaryNamed: name) == nil, "\(name)")
    }
  }

  @Test func outputDirectoryRemovesOnlyWhatItCreated() throws {
    let dir = try Scratch("dirs")
    try FileManager.default.createDirectory(
      atPath: dir.file("kept"), withIntermediateDirectories: true)
    let made = try OutputDirectory(creating: dir.file("kept/a/b/c"))
    #expect(made.created == ["a", "a/b", "a/b/c"].map { dir.file("kept/" + $0) })
    made.removeCreated()
    #expect(dir.contents() == ["kept"])
    #expect((try? FileManager.default.contentsOfDirectory(atPath: dir.file("kept"))) == [])
    let long = String(repeating: "d", count: 256)
    let error = #expect(throws: OutputError.self) { try OutputDirectory.check(dir.file(long)) }
    #expect(error?.kind == .usage)
    #expect(dir.contents() == ["kept"])
  }
}

@Suite struct ErrorLineTests {
  @Test func longValuesAreCutAndControlCharactersEscaped() {
    let huge = String(repeating: "9", count: 100_000)
    let quoted = ErrorLine.quote(huge)
    #expect(quoted.count == ErrorLine.valueLimit + 2)
    #expect(quoted.hasSuffix("...'"))
    #expect(ErrorLine.quote("a\nb\tc\u{1B}") == "'a\\nb\\tc\\u{1B}'")
    #expect(ErrorLine.quote("short") == "'short'")
    let line = ErrorLine.format("bad\nvalue " + huge)
    #expect(!line.contains("\n"))
    #expect(line.count == ErrorLine.lineLimit)
    #expect(ErrorLine.format("héllo ✓") == "héllo ✓")
  }
}
