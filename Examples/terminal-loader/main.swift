import Foundation
import LoaderPixels

// The seed row in a terminal, no SDL: drawn into a plain RGBA buffer, shown with 24-bit colour
// half blocks (each character two pixels, its top one the foreground of "▀", its bottom one
// the background). Ctrl-C quits; `COLUMNS` sets the width. When stdout is not a terminal it
// prints one frame (at 0.35 s, SPEC's worked example) and exits 0.
let columns = Int(ProcessInfo.processInfo.environment["COLUMNS"] ?? "") ?? 80
guard (16...1000).contains(columns) else {
  FileHandle.standardError.write(Data("terminal-loader: COLUMNS must be 16...1000\n".utf8))
  exit(2)
}
let density = Double(columns) / 290  // the row's 290 points across the terminal
let (width, height) = (columns, Int((50 * density / 2).rounded(.up)) * 2)
var pixels = [UInt32](repeating: 0, count: width * height)
let view = LoaderView(isAnimating: true)

/// One frame at `time` as text: a line per two pixel rows.
@MainActor func frame(at time: Double) throws -> String {
  pixels.withUnsafeMutableBufferPointer { $0.update(repeating: 0xFFFF_FFFF) }  // white, opaque
  try pixels.withUnsafeMutableBytes { raw in
    let buffer = PixelBuffer(
      base: raw.baseAddress, width: width, height: height, bytesPerRow: width * 4,
      format: .rgbaStraight, density: density)
    try view.draw(into: buffer, in: LoaderRect(x: 0, y: 0, width: 290, height: 50), at: time)
  }
  // R, G, B, A bytes: red is the low byte of each little-endian word.
  func rgb(_ w: UInt32) -> String { "\(w & 0xFF);\(w >> 8 & 0xFF);\(w >> 16 & 0xFF)" }
  var text = ""
  for y in stride(from: 0, to: height, by: 2) {
    for x in 0..<width {
      text += "\u{1B}[38;2;\(rgb(pixels[y * width + x]))m\u{1B}[48;2;"
      text += "\(rgb(pixels[(y + 1) * width + x]))m▀"
    }
    text += "\u{1B}[0m\n"
  }
  return text
}

do {
  guard isatty(STDOUT_FILENO) == 1 else {
    FileHandle.standardOutput.write(Data(try frame(at: 0.35).utf8))
    exit(0)
  }
  // Hide the cursor; Ctrl-C shows it again and leaves the colours as they were.
  FileHandle.standardOutput.write(Data("\u{1B}[?25l".utf8))
  signal(SIGINT) { _ in
    let bye = "\u{1B}[0m\u{1B}[?25h\n"
    _ = bye.withCString { write(STDOUT_FILENO, $0, strlen($0)) }
    _exit(0)
  }
  let start = Date()
  while true {
    let t = Date().timeIntervalSince(start)
    FileHandle.standardOutput.write(Data(("\u{1B}[H" + (try frame(at: t))).utf8))
    usleep(33_000)  // about 30 frames a second
  }
} catch {
  FileHandle.standardError.write(Data("terminal-loader: \(error)\n".utf8))
  exit(1)
}
