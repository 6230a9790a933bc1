import Foundation
import LoaderCore
import LoaderSDL
import LoaderTestSupport
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
  /// The repository's root: three levels above this file.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The README's examples, each an executable of the consumer package (`example-<name>`: a
  /// target name may appear only once in a package graph).
  static let examples = ["hello-loader", "loader-list", "many-loaders"]

  /// Lays the consumer package out in a fresh directory outside the repository.
  static func makePackage(in dir: URL) throws {
    let sources = dir.appendingPathComponent("Sources/consumer")
    try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
    let identity = root.lastPathComponent
    let manifest = """
      // swift-tools-version:6.0
      import PackageDescription

      let package = Package(
        name: "consumer",
        dependencies: [.package(path: "\(root.path)")],
        targets: [
          .executableTarget(
            name: "consumer",
            dependencies: [.product(name: "LoaderSDL", package: "\(identity)")]),
        ] + \(examples).map {
          .executableTarget(
            name: "example-" + $0, dependencies: [.product(name: "LoaderSDL", package: "\(identity)")])
        }
      )

      """
    try manifest.write(
      to: dir.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
    for (from, to) in [
      ("Tests/HostConsumer/main.swift", "main.swift"),
      ("Tests/LoaderTestSupport/HostRenderStates.swift", "HostRenderStates.swift"),
    ] {
      try FileManager.default.copyItem(
        at: root.appendingPathComponent(from), to: sources.appendingPathComponent(to))
    }
    for example in examples {
      let dest = dir.appendingPathComponent("Sources/example-\(example)")
      try FileManager.default.createDirectory(at: dest, withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        at: root.appendingPathComponent("Examples/\(example)/main.swift"),
        to: dest.appendingPathComponent("main.swift"))
    }
  }

  @Test func aPackageOutsideTheRepositoryDrawsEveryStateRight() throws {
    let work = try ScratchDirectory("consumer")
    defer { work.remove() }
    let package = work.url.appendingPathComponent("consumer")
    try Self.makePackage(in: package)
    // A build directory of its own per checkout that outlives the run, so a second run is
    // incremental.
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swiftloader-consumer-build" + Self.root.path.replacingOccurrences(of: "/", with: "-"))
    let swift = URL(fileURLWithPath: "/usr/bin/env")
    let build = try BuiltProduct.run(
      executable: swift,
      [
        "swift", "build", "--package-path", package.path, "--scratch-path", scratch.path,
      ])
    try #require(build.status == 0, "swift build failed:\n\(build.stdout)\n\(build.stderr)")
    #expect(
      !build.stdout.contains("warning:"), "the consumer and the examples build without warnings")
    let pictures = work.url.appendingPathComponent("pictures")
    try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
    let run = try BuiltProduct.run(
      executable: scratch.appendingPathComponent("debug/consumer"), [pictures.path])
    try #require(run.status == 0, "consumer failed: \(run.stderr)")

    let lines = run.stdout.split(separator: "\n").filter { !$0.hasPrefix("no OpenGL") }
    let hosts = run.stdout.contains("no OpenGL") ? 2 : 3
    let backendsPerState = hosts == 3 ? 2 + 2 + 3 : 2 + 2
    #expect(lines.count == HostRenderStateCase.allCases.count * backendsPerState)
    var checks: [HostRenderStateCase: HostDrawingCheck] = [:]
    for line in lines {
      let words = line.split(separator: " ").map(String.init)
      try #require(words.count >= 4, "\(line)")
      #expect(words[3] == "kept", "\(line)")
      let state = try #require(HostRenderStateCase(rawValue: words[2]))
      let check = try checks[state] ?? HostDrawingCheck(state)
      checks[state] = check
      let image = try PNGImage(
        path: pictures.appendingPathComponent("\(words[0])-\(words[1])-\(words[2]).png").path)
      let problems = check.problems(in: image.pixels.map { $0 | 0xFF00_0000 })
      #expect(problems.isEmpty, "\(words[0]) \(words[1]) \(state): \(problems)")
    }
  }
}
