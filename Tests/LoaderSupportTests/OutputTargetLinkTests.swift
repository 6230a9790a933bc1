import Foundation
import Testing

@testable import SwiftLoaderSupport

@Suite struct OutputTargetLinkTests {
  /// `a -> b -> a` resolves to nothing: refused, and both links are still links afterwards
  /// (a rename over the last link followed would have replaced it with a file).
  @Test(arguments: [1, 2, 3]) func aLoopOfLinksIsRefusedAndKept(_ length: Int) throws {
    let dir = try Scratch("loop")
    let names = (0..<length).map { "l\($0)" }
    for (k, name) in names.enumerated() {
      #expect(symlink(names[(k + 1) % length], dir.file(name)) == 0)
    }
    let error = #expect(throws: OutputError.self) { try OutputFile.check(dir.file("l0")) }
    #expect(error?.kind == .usage)
    #expect(
      error?.description.contains("too many symbolic links") == true, "\(String(describing: error))"
    )
    #expect(throws: OutputError.self) { try OutputFile.write(Array("x".utf8), to: dir.file("l0")) }
    for name in names {
      let type = try FileManager.default.attributesOfItem(atPath: dir.file(name))[.type]
      #expect(type as? FileAttributeType == .typeSymbolicLink, "\(name)")
    }
    #expect(dir.contents() == names)
  }

  /// A chain of 40 links is followed (the kernel's own limit); 41 is too many.
  @Test func fortyLinksAreFollowedAndFortyOneAreNot() throws {
    let dir = try Scratch("chain")
    for n in [40, 41] {
      for k in 0..<n {
        #expect(symlink("c\(n)-\(k + 1)", dir.file("c\(n)-\(k)")) == 0)
      }
      let start = dir.file("c\(n)-0")
      if n == 40 {
        try OutputFile.write(Array("end".utf8), to: start)
        #expect(dir.read("c40-40") == "end")
      } else {
        #expect(throws: OutputError.self) { try OutputFile.check(start) }
      }
    }
  }

  /// Files committed together are finished first; a finished file takes no more writes.
  @Test func filesCommittedTogetherAllAppear() throws {
    let dir = try Scratch("together")
    let files = try ["a", "b", "c"].map { name in
      let f = try OutputFile(path: dir.file(name))
      try f.write(name)
      return f
    }
    try files[1].finish()
    #expect(throws: OutputError.self) { try files[1].write("more") }
    #expect(dir.contents().count == 3 && !dir.contents().contains("a"))
    try OutputFile.commit(files)
    #expect(dir.contents() == ["a", "b", "c"])
    #expect(dir.read("b") == "b")
  }
}
