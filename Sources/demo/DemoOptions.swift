import LoaderCore
import LoaderSDL
import SwiftLoaderFrameRecording
import SwiftLoaderHarness
import SwiftLoaderSupport

/// A command-line mistake of the demo: one line naming the flag, exit status 2.
typealias UsageError = SwiftLoaderSupport.UsageError

extension SwiftLoaderSupport.UsageError {
  init(flag: String, problem: String) {
    self.init(program: "demo", flag: flag, problem: problem)
  }
}

/// Everything the command line can say, validated before anything is drawn or written.
///
/// Each flag is declared once in `table` (name, value, default, help, check); `helpText` and
/// every error line come from there. What one flag cannot check alone (a style whose parts
/// must fit together, the pixel sizes a container, density and style derive) is checked
/// after all flags are read, through `LoaderStyle.validate()` and `ScenePixelSizes`, with the
/// error naming the flag to change.
struct DemoOptions: Equatable {
  /// Container size in points.
  var width = 390.0
  var height = 120.0
  /// Whether `--size` was given: a window for the seed is otherwise `seedWindowHeight` tall.
  var sizeGiven = false
  /// Pixels per point of headless frames; a window's zoom (points to pixels times the window's
  /// own density).
  var zoom = 1.0
  var theme = LoaderTheme.light
  /// nil: the fastest backend at the quality bar on the renderer in use (`RingBackend.preferred`).
  var backend: RingBackend? = nil
  var scene = SceneKind.seed
  /// Loaders in the grid or on the sprites (1 for the seed).
  var count = 1
  /// Threads drawing and stepping; nil for every core.
  var threads: Int? = nil
  /// Every loader's style: the seed's, with the theme's colours unless `--colors` gave others,
  /// changed by the style flags; always valid (`LoaderStyle.validate()`).
  var style = LoaderStyle.seed
  /// The loaders' clock runs this many times as fast as the caller's.
  var speed = 1.0
  /// `--reduced-motion`'s names, and M's cycle after `.full`.
  static let reducedMotions: [(String, LoaderField.Motion)] = [
    ("pulse", .pulse), ("slow", .slow(factor: 0.25)), ("still", .still),
  ]
  /// `--reduced-motion`: the field's motion policy.
  var motion = LoaderField.Motion.full
  /// `--max-fps`: the field's `maximumFrameRate`.
  var maximumFrameRate: Double? = nil
  /// Fraction of each grid cell kept empty around its loader (0: cells packed edge to edge).
  var gutter = defaultGutter
  /// Simulated times to render headless, in output order; nil for the default set.
  var times: [Double]? = nil
  /// Times at which `isAnimating` flips; empty means on from 0.
  var toggles: [Double] = []
  /// `--toggle-random`: each loader's own seeded `ToggleSchedule.random` stream.
  var toggleRandomSeed: UInt64? = nil
  var outDirectory: String? = nil
  var tracePath: String? = nil
  var headless = false
  /// `--record FILE`: the file, its format named by its extension (`RecordingFormat`, or
  /// `VectorFormat` for `.svg` and `.json`).
  var recordPath: String? = nil
  var fps = 50
  /// Length of the recording, seconds; nil for `defaultRecordDuration` (or one period with
  /// `loop`).
  var recordDuration: Double? = nil
  var loop = false
  /// `--pixel-format`: the chroma of an MP4 or WebM recording.
  var pixelFormat = VideoPixelFormat.yuv420p
  /// `--quiet`: no progress line, even on a terminal.
  var quiet = false
  /// `--svg-animation`: how a `--record FILE.svg` animates.
  var svgAnimation = LoaderExport.SVGAnimation.smil
  /// nil: on in a window, off headless.
  var hud: Bool? = nil
  var verbose = false
  var fullscreen = false
  var vsync = true
  /// An SDL render driver's name (`LoaderWindow.renderDriverNames`); nil for SDL's choice.
  var renderer: String? = nil
  var info = false
  var help = false

  /// The frames a headless run renders when `--at` is not given: each differs visibly from
  /// the one before. A turn of 60 degrees is almost one dash period (59.8 degrees for the
  /// seed) and looks like none, so every step turns some ring by about half a period more
  /// than whole ones: at 0.35 s ring 0 is at 210, at 0.7 ring 1 at 270, at 1.3 ring 3 at 330.
  static let defaultTimes = [0, 0.35, 0.7, 1.3]
  /// The grid's gutter when `--gutter` is not given.
  static let defaultGutter = 0.25
  static let defaultOutDirectory = "out"
  static let defaultGridSize = (width: 1280.0, height: 720.0)
  /// The seed's window without `--size`: the row, centred, clear of the HUD's panel above it.
  static let seedWindowHeight = 320.0
  static let defaultGridCount = 1000
  static let defaultSpriteCount = 100
  static let defaultRecordDuration = 2.5
  static let maximumThreads = LoaderField.maximumThreads
  static let maximumRecordDuration = 600.0
  static let speedRange = LoaderField.speedRange
  /// Headless frames step the engine from 0 to each `--at` time (from 0 again when a time
  /// goes back), firing one trigger per loader every `stagger` of engine time: at most this
  /// many triggers in all (10^8 loader-seconds at the seed's stagger).
  static let maximumTriggers = 4e8
  /// Latest simulated time, seconds, engine time (`--at` times `--speed`): one day. The engine
  /// steps 120 times a second, so the work grows with the time asked for.
  static let maximumTime = 86_400.0

  /// What the table fills in: the options, and the dash flags until the pattern is built.
  struct Parsed {
    var options = DemoOptions()
    var dash: [Double]? = nil
    var dashPhase = 0.0
    var colors: [RGBAColor]? = nil
  }

  static var helpText: String { table.helpText }

  /// Parses `arguments` (without the program name).
  static func parse(_ arguments: [String]) throws(UsageError) -> DemoOptions {
    let (parsed, given) = try table.parse(arguments, into: Parsed())
    var o = parsed.options
    if o.help { return o }
    if given.contains("--count") {
      guard !given.contains("--scene") || o.scene != .seed else {
        throw UsageError(flag: "--count", problem: "only for --scene grid or sprites")
      }
      if !given.contains("--scene") { o.scene = .grid }
    } else if o.scene == .grid {
      o.count = defaultGridCount
    } else if o.scene == .sprites {
      o.count = defaultSpriteCount
    }
    o.sizeGiven = given.contains("--size")
    if o.scene != .seed, !o.sizeGiven { (o.width, o.height) = defaultGridSize }
    if o.toggleRandomSeed != nil, !o.toggles.isEmpty {
      throw UsageError(flag: "--toggle-random", problem: "cannot be combined with --toggle")
    }
    try VectorRecording.check(path: o.recordPath, given: given)
    for flag in ["--fps", "--duration", "--loop", "--pixel-format"]
    where given.contains(flag) && o.recordPath == nil {
      throw UsageError(flag: flag, problem: "only with --record")
    }
    if given.contains("--pixel-format"), let path = o.recordPath,
      let format = RecordingFormat(path: path), !format.isVideo
    {
      throw UsageError(
        flag: "--pixel-format",
        problem: "only for .mp4 and .webm recordings: .\(format.rawValue) stores RGB")
    }
    if o.loop, o.recordDuration != nil {
      throw UsageError(
        flag: "--duration", problem: "cannot be combined with --loop (which records one period)")
    }
    // A recording draws its own times into one file: these would be read and then ignored.
    for flag in ["--at", "--out", "--trace"] where given.contains(flag) && o.recordPath != nil {
      throw UsageError(
        flag: flag, problem: "cannot be combined with --record (its times come from --fps)")
    }
    o.style.colors = parsed.colors ?? o.theme.palette.ringColors
    if parsed.dash != nil || given.contains("--dash-phase") {
      do {
        o.style.dash = try DashPattern(
          parsed.dash ?? DashPattern.seed.intervals, phase: parsed.dashPhase)
      } catch {
        throw UsageError(flag: "--dash", problem: error.description)
      }
    }
    do {
      try o.style.validate()
    } catch {
      throw UsageError(flag: styleFlags[error.field] ?? error.field, problem: error.reason)
    }
    try o.checkWork()
    try o.checkPixelSizes()
    return o
  }

  /// The flag that sets each `LoaderStyle` field, for its validation errors.
  static let styleFlags = [
    "ringCount": "--rings", "colors": "--colors", "frameSize": "--frame-size",
    "lineWidth": "--line-width", "dash": "--dash", "turnDuration": "--turn", "stagger": "--stagger",
  ]

  /// Engine time the run simulates, and the triggers it fires, are bounded.
  private func checkWork() throws(UsageError) {
    let frames = times ?? Self.defaultTimes
    let latest = (frames.max() ?? 0) * speed
    guard latest <= Self.maximumTime else {
      throw UsageError(
        flag: speed != 1 ? "--speed" : "--at",
        problem: "the latest --at time is \(FlagValue.text(latest)) s of loader time at --speed "
          + "\(FlagValue.text(speed))"
          + "; at most \(Int(Self.maximumTime)) s")
    }
    var seconds = Self.steppedSeconds(frames)
    if recordPath != nil {
      seconds += loop ? 2 * style.period : recordDuration ?? Self.defaultRecordDuration
    }
    let triggers = Double(count) * seconds * speed / style.stagger
    guard triggers <= Self.maximumTriggers else {
      throw UsageError(
        flag: recordPath == nil ? "--at" : "--duration",
        problem: "\(count) loaders up to these times fire \(FlagValue.text(triggers.rounded()))"
          + " triggers (one per loader every --stagger \(FlagValue.text(style.stagger)) s at --speed"
          + " \(FlagValue.text(speed))); at most \(FlagValue.text(Self.maximumTriggers))")
    }
  }

  /// Headless frames at `scale`, and the window's size in points, fit every backend.
  private func checkPixelSizes() throws(UsageError) {
    let limit = Double(ScenePixelSizes.maximumSide)
    guard width <= limit, height <= limit else {
      throw UsageError(
        flag: "--size",
        problem: "\(FlagValue.text(width)) x \(FlagValue.text(height)) points; at most"
          + " \(ScenePixelSizes.maximumSide) a side")
    }
    do {
      _ = try ScenePixelSizes(
        width: width, height: height, density: zoom, style: style,
        gridCount: scene == .grid ? count : nil)
    } catch {
      switch error {
      case .ringRadius:
        throw UsageError(flag: zoom != 1 ? "--zoom" : "--frame-size", problem: error.description)
      default:
        // Blame the flag that was given: the default size is not the user's mistake.
        guard sizeGiven || zoom == 1 else {
          throw UsageError(
            flag: "--zoom",
            problem: "\(error) for --size \(FlagValue.text(width))x\(FlagValue.text(height))")
        }
        throw UsageError(flag: "--size", problem: "\(error) at --zoom \(FlagValue.text(zoom))")
      }
    }
  }

  /// Seconds of engine time a headless run steps through for `times` in this order: on to each
  /// time, or from 0 again when a time is before the previous one.
  static func steppedSeconds(_ times: [Double]) -> Double {
    var now = 0.0
    var total = 0.0
    for t in times {
      total += t >= now ? t - now : t
      now = t
    }
    return total
  }

  /// A comma-separated list of times in `0...maximumTime`.
  static func times(_ s: String) throws(FlagProblem) -> [Double] {
    try FlagValue.numbers(s, in: 0...maximumTime, what: "a number of seconds")
  }

  static func seconds(_ s: String) throws(FlagProblem) -> Double {
    try FlagValue.number(
      s, in: LoaderStyle.minimumDuration...LoaderStyle.maximumDuration, what: "seconds")
  }

  /// `RRGGBB` or `RRGGBBAA` (an optional `#` each), comma-separated.
  static func parseColors(_ s: String) throws(FlagProblem) -> [RGBAColor] {
    let parts = s.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count <= LoaderStyle.maximumColorCount else {
      throw FlagProblem("\(parts.count) colours; at most \(LoaderStyle.maximumColorCount)")
    }
    var out: [RGBAColor] = []
    for part in parts {
      let digits = part.hasPrefix("#") ? part.dropFirst() : part[...]
      let rgb = digits.prefix(6)
      let alpha = digits.dropFirst(6)
      guard digits.count == 6 || digits.count == 8, var color = RGBAColor(hexString: String(rgb)),
        alpha.allSatisfy(\.isHexDigit), let a = alpha.isEmpty ? 255 : UInt8(alpha, radix: 16)
      else {
        throw FlagProblem(
          "expected RRGGBB or RRGGBBAA in hex, got \(ErrorLine.quote(String(part)))")
      }
      color.a = a
      out.append(color)
    }
    return out
  }
}
