import Foundation
import Testing

@testable import LoaderSDL

@Suite struct AtomicFileTests {
  @Test func commitReplacesTheFileAndLeavesNoTemporary() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("out.txt").path
    try Data("old".utf8).write(to: URL(fileURLWithPath: path))
    let file = AtomicFile(path: path)
    #expect(file.temporaryPath.hasPrefix(path))
    try Data("new".utf8).write(to: URL(fileURLWithPath: file.temporaryPath))
    // Before the commit, readers still see the old file.
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
    try file.commit()
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.txt"])
  }

  @Test func failedCommitRemovesTheTemporaryAndNamesThePath() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("atomic2-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    // The target is a non-empty directory: rename(2) cannot replace it.
    let target = dir.appendingPathComponent("taken")
    try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
    try Data("x".utf8).write(to: target.appendingPathComponent("inside"))
    let file = AtomicFile(path: target.path)
    try Data("new".utf8).write(to: URL(fileURLWithPath: file.temporaryPath))
    let failure = #expect(throws: AtomicFile.Failure.self) { try file.commit() }
    #expect(failure?.description.contains(target.path) == true)
    #expect(!FileManager.default.fileExists(atPath: file.temporaryPath))
  }
}
