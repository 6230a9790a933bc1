/// The animated file formats `FrameRecorder` writes, chosen by the file name's extension.
///
/// | format | encoder | pixels |
/// |---|---|---|
/// | `.gif` | giflib, a palette per frame | exact when the frame has at most 256 colours, else median cut |
/// | `.webp` | libwebp's `WebPAnimEncoder`, lossless | exact |
/// | `.mp4` | libavcodec H.264 (libx264 when the build has it), yuv420p | lossy; even sizes only |
/// | `.webm` | libavcodec VP9 (libvpx-vp9), yuv420p | lossy |
public enum RecordingFormat: String, Sendable, Hashable, CaseIterable {
  case gif
  case webp
  case mp4
  case webm

  /// The format named by `path`'s extension (case ignored), or nil.
  public init?(path: String) {
    guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
    self.init(rawValue: path[path.index(after: dot)...].lowercased())
  }

  /// `.gif, .webp, .mp4, .webm`, for error messages.
  public static var extensionsList: String {
    allCases.map { "." + $0.rawValue }.joined(separator: ", ")
  }

  /// The highest frame rate the file plays back as written.
  ///
  /// GIF delays are whole centiseconds, and browsers play a delay of 0 or 1 cs as 10 cs, so
  /// 2 cs (50 fps) is the fastest a GIF plays everywhere. A higher `--fps` records a GIF at
  /// 50 fps; every other format keeps the rate asked for.
  public var maximumFrameRate: Int {
    switch self {
    case .gif: 50
    case .webp, .mp4, .webm: 1000
    }
  }

  /// H.264's yuv420p halves the chroma planes in both directions, and libx264 refuses odd
  /// sizes; VP9 codes odd sizes itself.
  public var needsEvenSize: Bool { self == .mp4 }
}

/// Why a recording could not be made.
public enum RecordingError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The caller asked for something no file can hold (a size, a rate, a length): a usage error.
  case invalid(String)
  /// An encoder or the file system failed while writing.
  case encode(String)

  public var description: String {
    switch self {
    case .invalid(let s), .encode(let s): s
    }
  }
}
