// A program outside the repository that knows no SDL (`PixelsConsumerTests` copies it into a
// package that depends on SwiftLoader's LoaderPixels product alone): the seed row at 1.3 s
// (one of SPEC's worked times) drawn at density 2 into plain buffers of opaque white, one a pixel format, each written raw (its
// 32-bit words, little-endian) to `<format>.raw` in the directory given, with a line
// `<format> <width> <height>` on stdout.
import Foundation
import LoaderPixels

let directory = CommandLine.arguments.dropFirst().first ?? "."
let density = 2.0
let (width, height) = (780, 240)
for format in PixelBuffer.Format.allCases {
  let view = LoaderView(isAnimating: true)
  var words = [UInt32](repeating: 0xFFFF_FFFF, count: width * height)
  do {
    // The pixels the draw changed: what a host would upload to its texture.
    let changed = try words.withUnsafeMutableBytes { raw in
      try view.draw(
        into: PixelBuffer(
          bytes: raw, width: width, height: height, format: format, density: density),
        in: LoaderRect(x: 0, y: 0, width: 390, height: 120), at: 1.3)
    }
    guard let changed, changed.width > 0, changed.height > 0 else {
      FileHandle.standardError.write(Data("pixels-consumer: \(format): nothing drawn\n".utf8))
      exit(1)
    }
    let data = words.withUnsafeBytes { Data($0) }
    try data.write(to: URL(fileURLWithPath: "\(directory)/\(format).raw"), options: .atomic)
  } catch {
    FileHandle.standardError.write(Data("pixels-consumer: \(format): \(error)\n".utf8))
    exit(1)
  }
  print("\(format) \(width) \(height)")
}
