/// The animated file formats `FrameRecorder` writes, chosen by the file name's extension.
///
/// | format | encoder | pixels |
/// |---|---|---|
/// | `.gif` | giflib, a palette per frame | exact when the frame has at most 256 colours, else median cut |
/// | `.webp` | libwebp's `WebPAnimEncoder`, lossless | exact |
/// | `.mp4` | libavcodec H.264 (libx264 when the build has it), `VideoPixelFormat` | lossy; even sizes at yuv420p |
/// | `.webm` | libavcodec VP9 (libvpx-vp9), `VideoPixelFormat` | lossy |
///
/// `init?(path:)` and `extensionsList` (`.gif, .webp, .mp4, .webm`) come from
/// `ExtensionNamedFormat`.
package enum RecordingFormat: String, Sendable, Hashable, CaseIterable, ExtensionNamedFormat {
  case gif
  case webp
  case mp4
  case webm

  /// The highest frame rate the file plays back as written.
  ///
  /// GIF delays are whole centiseconds, and browsers play a delay of 0 or 1 cs as 10 cs, so
  /// 2 cs (50 fps) is the fastest a GIF plays everywhere. A higher `--fps` records a GIF at
  /// 50 fps; every other format keeps the rate asked for.
  package var maximumFrameRate: Int {
    switch self {
    case .gif: 50
    case .webp, .mp4, .webm: 1000
    }
  }

  /// The rate a recording asked for at `fps` frames a second is written at: `fps`, lowered to
  /// `maximumFrameRate`.
  package func frameRate(asking fps: Int) -> Int { min(fps, maximumFrameRate) }

  /// Ticks a second of the grid the container stores times on: a GIF's delays are whole
  /// centiseconds, an animated WebP's timestamps whole milliseconds, and so are a WebM's
  /// (Matroska's default `TimestampScale` of 1 ms, the one libavformat writes). nil for MP4,
  /// whose stream declares its own time base.
  package var ticksPerSecond: Int? {
    switch self {
    case .gif: 100
    case .webp, .webm: 1000
    case .mp4: nil
    }
  }

  /// Whether the format codes video in YUV and takes a `VideoPixelFormat`.
  package var isVideo: Bool { self == .mp4 || self == .webm }

  /// Whether a frame's width and height must be even at `pixelFormat`: H.264's yuv420p
  /// halves the chroma planes in both directions, and libx264 refuses odd sizes; VP9 codes
  /// odd sizes itself, and yuv444p keeps every chroma sample.
  package func needsEvenSize(at pixelFormat: VideoPixelFormat) -> Bool {
    self == .mp4 && pixelFormat == .yuv420p
  }
}

/// How an MP4 or WebM stores colour: the chroma (colour difference) planes at half the
/// resolution in both directions, or at full resolution.
///
/// A ring's stroke is 4 pixels wide at scale 1, two chroma samples at yuv420p, so its colour
/// bleeds into the background at every edge; yuv444p keeps it. yuv420p is what every player
/// decodes; yuv444p (H.264's High 4:4:4 Predictive profile, VP9's profile 1) plays in
/// FFmpeg-based players, but many hardware decoders and some browsers refuse it.
package enum VideoPixelFormat: String, Sendable, Hashable, CaseIterable {
  case yuv420p
  case yuv444p
}

/// Why a recording could not be made.
package enum RecordingError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The caller asked for something no file can hold (a size, a rate, a length): a usage error.
  case invalid(String)
  /// An encoder or the file system failed while writing.
  case encode(String)

  package var description: String {
    switch self {
    case .invalid(let s), .encode(let s): s
    }
  }
}
