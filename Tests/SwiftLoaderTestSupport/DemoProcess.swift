import CSwiftLoaderSDL2
import Foundation
import LoaderCore

/// Runs the built `demo` executable with the dummy video driver.
package enum DemoProcess {
  /// Runs the demo with the dummy video driver, or, with `withoutDisplay`, with no video
  /// driver and no display variables at all (as on a server); `directory` is its working
  /// directory.
  package static func run(
    _ arguments: [String], withoutDisplay: Bool = false, directory: URL? = nil
  )
    throws -> BuiltProduct
  {
    let environment: [String: String?] =
      withoutDisplay
      ? ["SDL_VIDEODRIVER": nil, "DISPLAY": nil, "WAYLAND_DISPLAY": nil]
      : ["SDL_VIDEODRIVER": "dummy"]
    return try BuiltProduct.run("demo", arguments, environment: environment, directory: directory)
  }
}

/// A fresh directory under the system temporary directory, removed by `remove()`.
package struct ScratchDirectory {
  package let url: URL
  package init(_ label: String) throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "demo-test-\(label)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }
  package var path: String { url.path }
  package func file(_ name: String) -> String { url.appendingPathComponent(name).path }
  package func contents() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
  }
  package func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A PNG read back through SDL2_image, as opaque RGB pixels.
package struct PNGImage {
  package let width: Int
  package let height: Int
  package let pixels: [UInt32]  // 0xRRGGBB, row-major

  package struct LoadError: Error, CustomStringConvertible {
    package var description: String
  }

  package init(path: String) throws {
    guard let loaded = IMG_Load(path) else {
      throw LoadError(description: "IMG_Load(\(path)): \(String(cString: SDL_GetError()))")
    }
    defer { SDL_FreeSurface(loaded) }
    guard let s = SDL_ConvertSurfaceFormat(loaded, SDL_PIXELFORMAT_ARGB8888.rawValue, 0) else {
      throw LoadError(description: "SDL_ConvertSurfaceFormat: \(String(cString: SDL_GetError()))")
    }
    defer { SDL_FreeSurface(s) }
    width = Int(s.pointee.w)
    height = Int(s.pointee.h)
    guard let base = s.pointee.pixels else { throw LoadError(description: "no pixels in \(path)") }
    var out = [UInt32](repeating: 0, count: width * height)
    for y in 0..<height {
      let row = base.advanced(by: y * Int(s.pointee.pitch)).assumingMemoryBound(to: UInt32.self)
      for x in 0..<width { out[y * width + x] = row[x] & 0xFF_FFFF }
    }
    pixels = out
  }

  package func color(x: Int, y: Int) -> RGBAColor { RGBAColor(hex: pixels[y * width + x]) }

  /// Bilinear sample at a continuous point (pixel centres at `i + 0.5`), per channel 0...255.
  package func sample(x: Double, y: Double) -> (Double, Double, Double) {
    let fx = x - 0.5
    let fy = y - 0.5
    let x0 = Int(fx.rounded(.down))
    let y0 = Int(fy.rounded(.down))
    let ax = fx - Double(x0)
    let ay = fy - Double(y0)
    func at(_ i: Int, _ j: Int) -> (Double, Double, Double) {
      let c = color(x: min(max(i, 0), width - 1), y: min(max(j, 0), height - 1))
      return (Double(c.r), Double(c.g), Double(c.b))
    }
    let p = [at(x0, y0), at(x0 + 1, y0), at(x0, y0 + 1), at(x0 + 1, y0 + 1)]
    let w = [(1 - ax) * (1 - ay), ax * (1 - ay), (1 - ax) * ay, ax * ay]
    var r = (0.0, 0.0, 0.0)
    for k in 0..<4 {
      r.0 += w[k] * p[k].0
      r.1 += w[k] * p[k].1
      r.2 += w[k] * p[k].2
    }
    return r
  }
}
