import CSwiftLoaderGIF
import Foundation

/// GIF89a through giflib, streamed: each frame is written as it arrives.
///
/// - Each frame stores only the rectangle that changed since the previous one (disposal "do
///   not dispose": the rest stays on screen), and inside it the pixels that did not change are
///   transparent, so they too stay exactly as shown.
/// - Each frame has its own colour table (`FramePalette`) for the pixels it changes: exact when
///   they hold at most 255 colours (256 for the first frame, which has no transparency), median
///   cut otherwise. A whole seed frame holds more (five rings of many coverage levels), so the
///   first frame is quantized; later frames change only the turning rings and are exact
///   whenever those fit.
/// - Frame `k`'s delay is `clock.shownTicks(ofFrame: k)` in centiseconds: the recording drew
///   it at the centisecond it starts at (`RecordingSchedule.Clock`), so the file's length is
///   exact and no frame is shown at a time it was not drawn for.
/// - A NETSCAPE2.0 block makes players repeat the file forever.
final class GIFEncoder: FrameEncoder {
  private var gif: UnsafeMutablePointer<GifFileType>?
  private let width: Int
  private let height: Int
  private let clock: RecordingSchedule.Clock
  /// Centiseconds per tick of `clock` (`FrameRecorder.validate` checked that it is whole).
  private let centisecondsPerTick: Int
  /// The previous frame, `0x00RRGGBB`, to find what changed.
  private var previous: [UInt32] = []
  private var line: [GifPixelType]

  init(width: Int, height: Int, clock: RecordingSchedule.Clock, path: String)
    throws(RecordingError)
  {
    self.width = width
    self.height = height
    self.clock = clock
    centisecondsPerTick = 100 / clock.ticksPerSecond
    line = [GifPixelType](repeating: 0, count: width)
    // Opened here rather than by EGifOpenFileName, which creates files readable by the owner
    // only; this way the file gets the same permissions as every other the demo writes.
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o666)
    guard fd >= 0 else {
      throw .encode("gif: cannot create '\(path)': \(String(cString: strerror(errno)))")
    }
    var error: Int32 = 0
    guard let g = EGifOpenFileHandle(fd, &error) else {
      close(fd)
      throw .encode("gif: cannot start '\(path)': \(Self.message(error))")
    }
    gif = g
    EGifSetGifVersion(g, true)
    try check(EGifPutScreenDesc(g, Int32(width), Int32(height), 8, 0, nil), "screen descriptor")
    var loop: [GifByteType] = [1, 0, 0]  // sub-block 1: repeat count 0, forever
    try check(EGifPutExtensionLeader(g, APPLICATION_EXT_FUNC_CODE), "loop extension")
    try check(EGifPutExtensionBlock(g, 11, "NETSCAPE2.0"), "loop extension")
    try check(EGifPutExtensionBlock(g, 3, &loop), "loop extension")
    try check(EGifPutExtensionTrailer(g), "loop extension")
  }

  private static func message(_ code: Int32) -> String {
    GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
  }

  private func check(_ result: Int32, _ what: String) throws(RecordingError) {
    guard result == GIF_OK else {
      throw .encode("gif: writing the \(what) failed: \(Self.message(gif?.pointee.Error ?? 0))")
    }
  }

  func append(_ frame: Frame) throws(RecordingError) {
    guard let gif else { throw .encode("gif: the file is closed") }
    var current = [UInt32](repeating: 0, count: width * height)
    for y in 0..<height {
      let row = frame.row(y)
      for x in 0..<width { current[y * width + x] = row[x] & 0xFF_FFFF }
    }
    let box = changedRectangle(current)
    // Pixels left as they are shown: all of them when nothing changed (a frame needs an image).
    let keeps = previous.count == current.count
    func changed(_ i: Int) -> Bool { !keeps || current[i] != previous[i] }
    var histogram: [UInt32: Int] = [:]
    for y in box.y..<(box.y + box.height) {
      for x in box.x..<(box.x + box.width) where changed(y * width + x) {
        histogram[current[y * width + x], default: 0] += 1
      }
    }
    let palette = FramePalette(histogram: histogram, capacity: keeps ? 255 : 256)
    let transparent = palette.colors.count

    let delay = clock.shownTicks(ofFrame: frame.index) * centisecondsPerTick
    var gcb = GraphicsControlBlock(
      DisposalMode: DISPOSE_DO_NOT, UserInputFlag: false, DelayTime: Int32(delay),
      TransparentColor: keeps ? Int32(transparent) : NO_TRANSPARENT_COLOR)
    var gce = [GifByteType](repeating: 0, count: 4)
    let n = EGifGCBToExtension(&gcb, &gce)
    try check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(n), gce), "frame delay")

    var size = 2
    while size < palette.colors.count + (keeps ? 1 : 0) { size *= 2 }
    var table = [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: size)
    for (i, c) in palette.colors.enumerated() {
      table[i] = GifColorType(
        Red: GifByteType(c >> 16 & 0xFF), Green: GifByteType(c >> 8 & 0xFF),
        Blue: GifByteType(c & 0xFF))
    }
    guard let map = GifMakeMapObject(Int32(size), table) else {
      throw .encode("gif: cannot make a colour table of \(size)")
    }
    defer { GifFreeMapObject(map) }
    try check(
      EGifPutImageDesc(
        gif, Int32(box.x), Int32(box.y), Int32(box.width), Int32(box.height), false, map),
      "frame \(frame.index)'s descriptor")
    for y in box.y..<(box.y + box.height) {
      for x in 0..<box.width {
        let i = y * width + box.x + x
        line[x] = changed(i) ? palette.index(of: current[i]) : GifPixelType(transparent)
      }
      try check(EGifPutLine(gif, &line, Int32(box.width)), "frame \(frame.index)")
    }
    previous = current
  }

  /// The smallest rectangle holding every pixel that differs from the previous frame: the
  /// whole frame first, a single pixel when nothing changed (a frame needs an image).
  private func changedRectangle(_ current: [UInt32]) -> (x: Int, y: Int, width: Int, height: Int) {
    guard previous.count == current.count else { return (0, 0, width, height) }
    var x0 = width
    var y0 = height
    var x1 = -1
    var y1 = -1
    for y in 0..<height {
      let base = y * width
      for x in 0..<width where current[base + x] != previous[base + x] {
        x0 = min(x0, x)
        x1 = max(x1, x)
        y0 = min(y0, y)
        y1 = max(y1, y)
      }
    }
    guard x1 >= 0 else { return (0, 0, 1, 1) }
    return (x0, y0, x1 - x0 + 1, y1 - y0 + 1)
  }

  func finish(frameCount: Int) throws(RecordingError) {
    guard let g = gif else { throw .encode("gif: the file is closed") }
    gif = nil
    var error: Int32 = 0
    guard EGifCloseFile(g, &error) == GIF_OK else {
      throw .encode("gif: closing the file failed: \(Self.message(error))")
    }
  }

  func cancel() {
    if let g = gif {
      var error: Int32 = 0
      EGifCloseFile(g, &error)
    }
    gif = nil
  }
}
