import Foundation
import SwiftLoaderTestSupport

/// The built `demo` run headless (dummy video driver) in `directory` (`DemoProcess`), and its
/// PNG frames read back (`PNGImage`) as `0xAARRGGBB` pixels, the decoders' form.
enum DemoBinary {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  static func run(_ arguments: [String], in directory: String) throws -> BuiltProduct {
    try DemoProcess.run(arguments, directory: URL(fileURLWithPath: directory))
  }

  /// The demo's headless frames at `times` (given as Swift prints them, so `--at` reads the
  /// same doubles back), in order, opaque.
  static func frames(at times: [Double], extra: [String] = [], in directory: String) throws
    -> [[UInt32]]
  {
    let r = try run(
      ["--at", times.map { "\($0)" }.joined(separator: ","), "--out", "png"] + extra,
      in: directory)
    guard r.status == 0 else { throw Failure(description: "demo --at: \(r.stderr)") }
    let names = try FileManager.default.contentsOfDirectory(atPath: directory + "/png")
      .filter { $0.hasPrefix("frame-") }.sorted()
    guard names.count == times.count else {
      throw Failure(description: "\(names.count) frames for \(times.count) times")
    }
    return try names.map {
      try PNGImage(path: directory + "/png/" + $0).pixels.map { $0 | 0xFF00_0000 }
    }
  }
}
