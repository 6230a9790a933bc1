import Foundation

/// A package outside the repository that depends on this one by path, as a user's would: one
/// executable target a `Target`, each on one product of ours, its sources copied from the
/// repository. Built with a scratch directory of its own per checkout and package name that
/// outlives the run, so a second run is incremental.
package struct ConsumerPackage {
  /// An executable of the package: its name, the product it depends on, and its files
  /// (repository paths, copied under `Sources/<name>/` with their last path component).
  package struct Target {
    package var name: String
    package var product: String
    package var files: [String]
    package init(name: String, product: String, files: [String]) {
      self.name = name
      self.product = product
      self.files = files
    }
  }

  /// The repository's root: two levels above this file's directory.
  package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  package let name: String
  package let targets: [Target]
  /// Where its package is laid out.
  package let directory: URL
  /// Its build directory; `binaries` holds the debug executables.
  package let scratch: URL
  package var binaries: URL { scratch.appendingPathComponent("debug") }

  /// Lays the package out in `parent/name`.
  package init(name: String, targets: [Target], in parent: URL) throws {
    self.name = name
    self.targets = targets
    directory = parent.appendingPathComponent(name)
    scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swiftloader-\(name)-build" + Self.root.path.replacingOccurrences(of: "/", with: "-"))
    let identity = Self.root.lastPathComponent
    let entries = targets.map {
      """
          .executableTarget(
            name: "\($0.name)",
            dependencies: [.product(name: "\($0.product)", package: "\(identity)")]),
      """
    }
    let manifest = """
      // swift-tools-version:6.0
      import PackageDescription

      let package = Package(
        name: "\(name)",
        dependencies: [.package(path: "\(Self.root.path)")],
        targets: [
      \(entries.joined(separator: "\n"))
        ]
      )

      """
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try manifest.write(
      to: directory.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
    for target in targets {
      let sources = directory.appendingPathComponent("Sources/\(target.name)")
      try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
      for file in target.files {
        let from = Self.root.appendingPathComponent(file)
        try FileManager.default.copyItem(
          at: from, to: sources.appendingPathComponent(from.lastPathComponent))
      }
    }
  }

  /// `swift build` of the package.
  package func build() throws -> BuiltProduct {
    try BuiltProduct.run(
      executable: URL(fileURLWithPath: "/usr/bin/env"),
      ["swift", "build", "--package-path", directory.path, "--scratch-path", scratch.path])
  }

  /// The shared libraries `ldd` lists for the executable `target`, one a line.
  package func linkedLibraries(of target: String) throws -> String {
    try BuiltProduct.run(
      executable: URL(fileURLWithPath: "/usr/bin/env"),
      ["ldd", binaries.appendingPathComponent(target).path]
    ).stdout
  }
}
