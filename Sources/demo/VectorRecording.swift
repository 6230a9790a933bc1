import Foundation
import LoaderCore
import SwiftLoaderFrameRecording
import SwiftLoaderSupport

/// `--record FILE.svg` and `--record FILE.json`: the row as a vector animation
/// (`LoaderExport`), one steady period in points, written through `OutputFile`. No SDL, no
/// frames: the style flags, `--size`, `--theme` and `--svg-animation` are all it reads.
///
/// `init?(path:)` and `extensionsList` (`.svg, .json`) come from `ExtensionNamedFormat`, as
/// `RecordingFormat`'s do.
enum VectorFormat: String, CaseIterable, ExtensionNamedFormat {
  /// An animated SVG.
  case svg
  /// A Lottie animation.
  case json
}

enum VectorRecording {
  /// Flags that choose frames, times, pixels or what a frame shows: a vector file has none of
  /// these (it is one steady period in points, and a player picks its own frame rate and
  /// size), so each is refused when given rather than silently dropped.
  static let inapplicableFlags = [
    "--fps", "--duration", "--loop", "--pixel-format", "--zoom", "--scene", "--count", "--speed",
    "--reduced-motion", "--toggle", "--toggle-random", "--gutter", "--hud", "--backend",
    "--threads", "--at", "--out", "--trace",
  ]

  /// Refuses `inapplicableFlags` with a vector `--record`, and `--svg-animation` without an
  /// SVG one.
  static func check(path: String?, given: Set<String>) throws(UsageError) {
    guard let path, let format = VectorFormat(path: path) else {
      if given.contains("--svg-animation") {
        throw UsageError(flag: "--svg-animation", problem: "only with --record FILE.svg")
      }
      return
    }
    for flag in inapplicableFlags where given.contains(flag) {
      throw UsageError(
        flag: flag,
        problem: "does not apply to vector output (\(VectorFormat.extensionsList)), which is "
          + "one steady period in points")
    }
    if format != .svg, given.contains("--svg-animation") {
      throw UsageError(flag: "--svg-animation", problem: "only with --record FILE.svg")
    }
  }

  /// Writes the file (complete or absent) and returns the line the demo prints.
  static func write(_ options: DemoOptions, to path: String, format: VectorFormat)
    throws(HeadlessRun.Failure) -> String
  {
    do {
      try OutputFile.check(path)
    } catch {
      throw error.kind == .usage
        ? .usage(UsageError(flag: "--record", problem: error.description))
        : .render("--record: \(error)")
    }
    let background = options.theme.palette.background
    let bytes: [UInt8]
    do {
      switch format {
      case .svg:
        bytes = Array(
          try LoaderExport.svg(
            style: options.style, width: options.width, height: options.height,
            background: background, animation: options.svgAnimation
          ).utf8)
      case .json:
        bytes = Array(
          try LoaderExport.lottie(
            style: options.style, width: options.width, height: options.height,
            background: background))
      }
    } catch {
      // The options are validated; what is left is the export's own limits.
      throw .usage(UsageError(flag: "--record", problem: error.description))
    }
    do {
      try OutputFile.write(bytes, to: path)
    } catch {
      throw .render("\(path): \(error)")
    }
    let period = options.style.period
    let what =
      format == .svg
      ? "an animated SVG (\(options.svgAnimation.rawValue))"
      : "a Lottie animation (\(LoaderExport.lottieFrameCount(of: options.style)) frames at "
        + String(format: "%g", LoaderExport.lottieFrameRate(of: options.style)) + " fps)"
    return "demo: wrote \(what), one \(String(format: "%g", period)) s loop, "
      + "\(bytes.count) bytes, to \(path)"
  }
}
