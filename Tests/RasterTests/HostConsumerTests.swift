import Foundation
import LoaderCore
import LoaderSDL
import SwiftLoaderCanvas
import SwiftLoaderTestSupport
import Testing

/// A package outside the repository, depending on this one by path as a user's would, draws
/// the seed row under every render state of `HostRenderStateCase` with every backend, on the
/// software and the OpenGL renderer (`Tests/HostConsumer/main.swift`, with the very
/// `HostRenderStates.swift` the in-process test runs). Each of its PNGs must match Cairo at the
/// expected place and each of its lines say the renderer's state was kept. The package also
/// builds the README's examples (`Examples/*/main.swift`) as its own executables, so they use
/// nothing but the products' public API (inside this package they could reach `package`
/// symbols).
@Suite struct HostConsumerTests {
  /// The README's SDL examples, each an executable of the consumer package (`example-<name>`:
  /// a target name may appear only once in a package graph).
  static let examples = ["hello-loader", "loader-list", "many-loaders"]

  /// What the consumer package did: its build's and its run's output, and every picture it
  /// wrote (by file name, `0xRRGGBB`), read back before its directory went away.
  struct Outcome: Sendable {
    var buildStatus: Int32
    var buildStdout: String
    var buildStderr: String
    var runStatus: Int32 = -1
    var runStdout = ""
    var runStderr = ""
    var pictures: [String: [UInt32]] = [:]
  }

  /// Builds and runs the consumer once for both tests (the build takes minutes): a task, so
  /// that the test waiting for another's build suspends rather than holds one of the test
  /// pool's threads (two on a 2-core machine) for minutes.
  static let outcome = Task<Outcome, any Error> { try consume() }

  static func consume() throws -> Outcome {
    let work = try ScratchDirectory("consumer")
    defer { work.remove() }
    let package = try ConsumerPackage(
      name: "consumer",
      targets: [
        .init(
          name: "consumer", product: "LoaderSDL",
          files: [
            "Tests/HostConsumer/main.swift", "Tests/SwiftLoaderTestSupport/HostRenderStates.swift",
          ])
      ]
        + examples.map {
          .init(name: "example-" + $0, product: "LoaderSDL", files: ["Examples/\($0)/main.swift"])
        }, in: work.url)
    let build = try package.build()
    var outcome = Outcome(
      buildStatus: build.status, buildStdout: build.stdout, buildStderr: build.stderr)
    guard build.status == 0 else { return outcome }
    let pictures = work.url.appendingPathComponent("pictures")
    try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
    let run = try BuiltProduct.run(
      executable: package.binaries.appendingPathComponent("consumer"), [pictures.path])
    outcome.runStatus = run.status
    outcome.runStdout = run.stdout
    outcome.runStderr = run.stderr
    guard run.status == 0 else { return outcome }
    for name in try FileManager.default.contentsOfDirectory(atPath: pictures.path) {
      outcome.pictures[name] = try PNGImage(path: pictures.appendingPathComponent(name).path)
        .pixels
    }
    return outcome
  }

  /// The consumer's outcome, built and run without failing.
  static func ranCleanly() async throws -> Outcome {
    let outcome = try await outcome.value
    try #require(
      outcome.buildStatus == 0,
      "swift build failed:\n\(outcome.buildStdout)\n\(outcome.buildStderr)")
    try #require(outcome.runStatus == 0, "consumer failed: \(outcome.runStderr)")
    return outcome
  }

  /// The consumer's lines for `hosts`, `backendsPerState` a state: each says the renderer's
  /// state was kept, and each picture matches Cairo at the expected place.
  static func check(_ outcome: Outcome, hosts: Set<String>, backendsPerState: Int) throws {
    let lines = outcome.runStdout.split(separator: "\n").filter {
      hosts.contains(String($0.prefix { $0 != " " }))
    }
    #expect(lines.count == HostRenderStateCase.allCases.count * backendsPerState)
    var checks: [HostRenderStateCase: HostDrawingCheck] = [:]
    for line in lines {
      let words = line.split(separator: " ").map(String.init)
      try #require(words.count >= 4, "\(line)")
      #expect(words[3] == "kept", "\(line)")
      let state = try #require(HostRenderStateCase(rawValue: words[2]))
      let check = try checks[state] ?? HostDrawingCheck(state)
      checks[state] = check
      let pixels = try #require(
        outcome.pictures["\(words[0])-\(words[1])-\(words[2]).png"], "no picture for \(line)")
      let problems = check.problems(in: pixels.map { $0 | 0xFF00_0000 })
      #expect(problems.isEmpty, "\(words[0]) \(words[1]) \(state): \(problems)")
    }
  }

  /// SDL's software renderer, its surface given to the loaders and not: `spans` and `gfx`.
  @Test func aPackageOutsideTheRepositoryDrawsEveryStateRight() async throws {
    let outcome = try await Self.ranCleanly()
    #expect(
      !outcome.buildStdout.contains("warning:"),
      "the consumer and the examples build without warnings")
    try Self.check(outcome, hosts: ["softwareSurface", "software"], backendsPerState: 2 + 2)
  }

  /// OpenGL on SDL's offscreen driver, every backend: wherever this process has an OpenGL
  /// renderer, the consumer must have one too.
  @Test(
    .enabled(
      if: OffscreenCanvas.openGLAvailable, "no OpenGL renderer on SDL's offscreen driver here"))
  func aPackageOutsideTheRepositoryDrawsEveryStateRightOnOpenGL() async throws {
    let outcome = try await Self.ranCleanly()
    let none = outcome.runStdout.split(separator: "\n").first { $0.hasPrefix("no OpenGL") }
    #expect(none == nil, "OpenGL works in this process, not in the consumer: \(none ?? "")")
    try Self.check(outcome, hosts: ["openGL"], backendsPerState: 3)
  }
}
