import Foundation
import LoaderCore
import SwiftLoaderTestSupport
import Testing

/// A `--trace` document read back: frames of rings, and the `--toggle-random` schedule.
struct DemoTrace {
  struct Ring: Equatable {
    var loader: Int
    var ring: Int
    var cx: Double
    var cy: Double
    var radius: Double
    var angle: Double
    /// `#RRGGBBAA` read back.
    var color: RGBAColor
  }

  struct Toggle: Equatable {
    var time: Double
    var isAnimating: Bool
  }

  var frames: [(t: Double, rings: [Ring])]
  /// Per loader number, its toggles in order (empty without `--toggle-random`).
  var toggles: [Int: [Toggle]]

  init(path: String) throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    frames = try #require(root["frames"] as? [[String: Any]]).map { f in
      let t = try #require((f["t"] as? NSNumber)?.doubleValue)
      let rings = try #require(f["rings"] as? [[String: Any]]).map { r in
        func number(_ key: String) throws -> Double {
          try #require((r[key] as? NSNumber)?.doubleValue, "ring field \(key)")
        }
        let hex = try #require(r["color"] as? String, "ring field color")
        let value = try #require(UInt32(hex.dropFirst(), radix: 16), "color \(hex)")
        try #require(hex.count == 9 && hex.hasPrefix("#"), "color \(hex)")
        var color = RGBAColor(hex: value >> 8)
        color.a = UInt8(value & 0xFF)
        return Ring(
          loader: try #require(r["loader"] as? Int), ring: try #require(r["ring"] as? Int),
          cx: try number("cx"), cy: try number("cy"), radius: try number("radius"),
          angle: try number("angle"), color: color)
      }
      return (t, rings)
    }
    var toggles: [Int: [Toggle]] = [:]
    if let table = root["toggles"] {
      let loaders = try #require(table as? [String: [[String: Any]]])
      for (key, events) in loaders {
        let loader = try #require(Int(key), "toggles key \(key)")
        toggles[loader] = try events.map { e in
          Toggle(
            time: try #require((e["t"] as? NSNumber)?.doubleValue),
            isAnimating: try #require(e["on"] as? Bool))
        }
      }
    }
    self.toggles = toggles
  }

  /// Runs the built demo headless with `arguments` plus `--out` and `--trace` in a scratch
  /// directory and reads the trace; `frames` is how many PNGs it wrote.
  static func render(_ arguments: [String]) throws -> (trace: DemoTrace, frames: Int) {
    let (trace, images) = try renderWithImages(arguments)
    return (trace, images.count)
  }

  /// `render(_:)`, and the frames it wrote, in `--at` order.
  static func renderWithImages(_ arguments: [String]) throws -> (
    trace: DemoTrace, images: [PNGImage]
  ) {
    let dir = try ScratchDirectory("trace")
    defer { dir.remove() }
    let r = try DemoProcess.run(arguments + ["--out", dir.path, "--trace", dir.file("t.json")])
    try #require(r.status == 0, "stderr: \(r.stderr)")
    let pngs = dir.contents().filter { $0.hasSuffix(".png") }.sorted()
    return (
      try DemoTrace(path: dir.file("t.json")), try pngs.map { try PNGImage(path: dir.file($0)) }
    )
  }
}
