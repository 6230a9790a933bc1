import Foundation
import Testing

/// Every `swift` code block of the documentation (the doc comments in `Sources/`, the DocC
/// articles, the README) is compiled: it appears in `DocExamples.swift` as written (spacing
/// aside: the formatter owns that file's layout), or it is one of `Examples/*/main.swift`
/// whole (`ReadmeExampleTests` checks those). An example's `import` lines are left out (they
/// are the file's), and so is a manifest fragment (a block that starts `// Package.swift`).
@Suite struct DocExampleCoverageTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// A `swift` code block and where it is (`file:line`).
  struct Example: CustomStringConvertible {
    var place: String
    var lines: [String]
    var description: String { "\(place):\n" + lines.joined(separator: "\n") }
  }

  static func text(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  /// Paths under `folder` (relative to the root) whose names end in `suffix`.
  static func files(under folder: String, endingIn suffix: String) -> [String] {
    let base = root.appendingPathComponent(folder)
    guard let walk = FileManager.default.enumerator(atPath: base.path) else { return [] }
    return walk.compactMap { $0 as? String }.filter { $0.hasSuffix(suffix) }.sorted()
      .map { folder + "/" + $0 }
  }

  /// The `swift` blocks of `lines`; `prose` turns a line into its text (a doc comment's
  /// without `///`), or nil where the prose stops (code between doc comments).
  static func blocks(in path: String, prose: (Substring) -> Substring?) throws -> [Example] {
    var found: [Example] = []
    var open: Example?
    for (n, raw) in try text(path).split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      guard let line = prose(raw) else {
        open = nil
        continue
      }
      let fence = line.trimmingCharacters(in: .whitespaces)
      if var block = open {
        if fence == "```" {
          found.append(block)
          open = nil
        } else {
          block.lines.append(String(line))
          open = block
        }
      } else if fence == "```swift" {
        open = Example(place: "\(path):\(n + 1)", lines: [])
      }
    }
    return found
  }

  /// Every block of the doc comments, the articles and the README.
  static func examples() throws -> [Example] {
    var all: [Example] = []
    for path in files(under: "Sources", endingIn: ".swift") {
      all += try blocks(in: path) { line in
        let t = line.drop { $0 == " " }
        guard t.hasPrefix("///") else { return nil }
        let text = t.dropFirst(3)
        return text.first == " " ? text.dropFirst() : text
      }
    }
    for path in files(under: "Sources", endingIn: ".md") + ["README.md"] {
      all += try blocks(in: path) { $0 }
    }
    return all
  }

  /// `s` without any whitespace.
  static func squeezed<S: StringProtocol>(_ s: S) -> String {
    var kept = String.UnicodeScalarView()
    kept.append(
      contentsOf: s.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) })
    return String(kept)
  }

  @Test func everyExampleIsCompiled() throws {
    let compiled = Self.squeezed(try Self.text("Tests/DocExampleTests/DocExamples.swift"))
    let programs = try Self.files(under: "Examples", endingIn: "main.swift").map {
      Self.squeezed(try Self.text($0))
    }
    let examples = try Self.examples()
    // The scan itself: a change that found nothing would pass everything.
    #expect(examples.count >= 25, "found only \(examples.count) examples")
    for example in examples {
      if example.lines.first == "// Package.swift" { continue }
      if programs.contains(Self.squeezed(example.lines.joined(separator: "\n"))) { continue }
      let code = example.lines.filter { !$0.hasPrefix("import ") }.joined(separator: "\n")
      let found = compiled.contains(Self.squeezed(code))
      #expect(found, "not in DocExamples.swift as written: \(example)")
    }
  }
}
