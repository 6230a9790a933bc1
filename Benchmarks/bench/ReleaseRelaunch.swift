import Foundation
import SwiftLoaderSupport

/// Makes sure the numbers come from optimized code: a debug build rebuilds the bench in
/// release and replaces itself with it (same arguments), so `swift run bench` works as is.
enum ReleaseRelaunch {
  /// The package root, from this file's compile-time path: `<root>/Benchmarks/bench/<file>`.
  static var packageRoot: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().path
  }

  static let warning = "WARNING: debug build, numbers are not meaningful"

  static var isDebugBuild: Bool { _isDebugAssertConfiguration() }

  /// In a debug build: builds the release bench and demo and `exec`s the bench, which never returns; if that
  /// cannot be done (no sources beside the binary, the build fails, or `BENCH_NO_RELAUNCH=1`)
  /// says why on stderr and returns, and the caller must print `warning` first.
  /// In a release build: returns at once.
  static func relaunchInReleaseIfNeeded(arguments: [String]) {
    guard isDebugBuild else { return }
    if ProcessInfo.processInfo.environment["BENCH_NO_RELAUNCH"] == "1" {
      printError("bench: BENCH_NO_RELAUNCH=1: measuring this debug build")
      return
    }
    let root = packageRoot
    guard FileManager.default.fileExists(atPath: root + "/Package.swift") else {
      printError("bench: debug build and no package at \(root) to build a release from")
      return
    }
    // `cpu/*` runs the demo found beside the bench, so it is built in release too.
    printError(
      "bench: debug build; running swift build -c release --product bench (then demo) in \(root)")
    let started = Stopwatch.now()
    for product in ["bench", "demo"] {
      guard
        run(["swift", "build", "-c", "release", "--product", product, "--package-path", root])
      else {
        printError("bench: the release build of \(product) failed")
        return
      }
    }
    let binPath = capture([
      "swift", "build", "-c", "release", "--show-bin-path", "--package-path", root,
    ])
    guard let bin = binPath?.trimmingCharacters(in: .whitespacesAndNewlines), !bin.isEmpty else {
      printError("bench: could not find the release build directory")
      return
    }
    let binary = bin + "/bench"
    printError(
      "bench: release build took \(String(format: "%.1f", Double(Stopwatch.now() - started) / 1e9)) s; "
        + "running \(binary)")
    var argv: [UnsafeMutablePointer<CChar>?] = ([binary] + arguments).map { strdup($0) }
    argv.append(nil)
    execv(binary, argv)
    printError("bench: could not run \(binary): \(String(cString: strerror(errno)))")
  }

  /// Runs a command with its output on our stderr (stdout stays the table's).
  /// Builds `product` in this build's configuration from the package beside the sources,
  /// its output on stderr; false when there is no package or the build fails.
  static func build(product: String) -> Bool {
    let root = packageRoot
    guard FileManager.default.fileExists(atPath: root + "/Package.swift") else { return false }
    let configuration = isDebugBuild ? "debug" : "release"
    printError("bench: running swift build -c \(configuration) --product \(product) in \(root)")
    return run([
      "swift", "build", "-c", configuration, "--product", product, "--package-path", root,
    ])
  }

  private static func run(_ command: [String]) -> Bool {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = command
    p.standardOutput = FileHandle.standardError
    p.standardError = FileHandle.standardError
    do { try p.run() } catch { return false }
    p.waitUntilExit()
    return p.terminationReason == .exit && p.terminationStatus == 0
  }

  private static func capture(_ command: [String]) -> String? {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = command
    let pipe = Pipe()
    p.standardOutput = pipe
    p.standardError = FileHandle.standardError
    do { try p.run() } catch { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    guard p.terminationReason == .exit, p.terminationStatus == 0 else { return nil }
    return String(decoding: data, as: UTF8.self)
  }
}

/// One error line on stderr, in the format both executables share.
func printError(_ line: String) {
  ErrorLine.print(line)
}
