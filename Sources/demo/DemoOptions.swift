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
  static let maximumThreads = 256
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

  static let table = FlagTable<Parsed>(
    program: "demo", usage: "demo [options]",
    summary: """
      Shows SwiftUI's LoaderView (five dashed rings spinning in turn) in a window, or renders \
      frames headless (with --headless, with SDL_VIDEODRIVER=dummy, with --at/--out/--trace/--record, \
      or when no display can be opened).
      """,
    flags: [
      .value(
        "--scene", "NAME",
        help: "seed (one LoaderView), grid (--count loaders) or sprites (--count loaders riding"
          + " bouncing sprites of random sizes and colours, SDL's testsprite2 scene)",
        default: "seed"
      ) { p, v in
        p.options.scene = try FlagValue.choice(v, "scene", of: SceneKind.self)
      },
      .value(
        "--count", "N",
        help:
          "loaders in the grid or on the sprites, 1...\(LoaderScene.maximumCount); implies"
          + " --scene grid unless --scene sprites is given",
        default: "\(defaultGridCount), \(defaultSpriteCount) sprites"
      ) { p, v in p.options.count = try FlagValue.integer(v, in: 1...LoaderScene.maximumCount) },
      .value(
        "--size", "WxH",
        help: "container size in points, at most \(ScenePixelSizes.maximumSide) a side",
        default:
          "390x120, a window 390x\(FlagValue.text(seedWindowHeight)); 1280x720 for the grid and"
          + " the sprites"
      ) { p, v in (p.options.width, p.options.height) = try FlagValue.size(v) },
      .value(
        "--zoom", "Z",
        help: "draw everything Z times larger: headless frames at Z pixels per point, a window Z"
          + " times larger at the display's own density",
        default: "1"
      ) { p, v in p.options.zoom = try FlagValue.positive(v) },
      .value(
        "--theme", "NAME",
        help:
          "\(FlagValue.list(LoaderTheme.allCases.map(\.rawValue))): background and ring colours",
        default: "light"
      ) { p, v in
        p.options.theme = try FlagValue.choice(v, "theme", of: LoaderTheme.self)
      },
      .value(
        "--backend", "NAME",
        help: "ring rasterizer: \(FlagValue.list(RingBackend.allCases.map(\.rawValue)))",
        default: "spans on SDL's software renderer, gfx on an accelerated one"
      ) { p, v in
        p.options.backend = try FlagValue.choice(v, "backend", of: RingBackend.self)
      },
      .value(
        "--threads", "N", help: "threads that draw and step, 1...\(maximumThreads)",
        default: "all cores"
      ) { p, v in p.options.threads = try FlagValue.integer(v, in: 1...maximumThreads) },
      .value(
        "--rings", "N", help: "rings in each loader, 1...\(LoaderStyle.maximumRingCount)",
        default: "5"
      ) { p, v in
        p.options.style.ringCount = try FlagValue.integer(v, in: 1...LoaderStyle.maximumRingCount)
      },
      .value(
        "--colors", "HEX,...",
        help: "ring colours as RRGGBB or RRGGBBAA, ring i taking colour i mod the count",
        default: "the theme's"
      ) { p, v in p.colors = try parseColors(v) },
      .value("--frame-size", "PT", help: "side of each ring's square frame, points", default: "50")
      { p, v in
        p.options.style.frameSize = try FlagValue.positive(v, atMost: LoaderStyle.maximumFrameSize)
      },
      .value(
        "--line-width", "PT", help: "stroke width, points, at most half the frame size",
        default: "4"
      ) { p, v in
        p.options.style.lineWidth = try FlagValue.positive(
          v, atMost: LoaderStyle.maximumFrameSize / 2)
      },
      .value(
        "--dash", "A,B,...",
        help:
          "dash lengths along the centreline, points, on and off alternating (an odd count repeats)",
        default: "2,4,6"
      ) { p, v in
        p.dash = try FlagValue.numbers(
          v, in: 0...LoaderStyle.maximumFrameSize * 4, what: "a length in points",
          maximumCount: DashPattern.maximumCount)
      },
      .value("--dash-phase", "PT", help: "offset into the dash pattern, points", default: "0") {
        p, v in
        p.dashPhase = try FlagValue.number(v, in: -1e9...1e9, what: "a length in points")
      },
      .value("--cap", "round|butt", help: "how each dash ends", default: "round") { p, v in
        p.options.style.lineCap = try FlagValue.choice(v, "cap", of: LineCap.self)
      },
      .value(
        "--turn", "S", help: "seconds one turn of a ring takes (SwiftUI's .linear(duration:))",
        default: "0.6"
      ) { p, v in p.options.style.turnDuration = try seconds(v) },
      .value(
        "--stagger", "S", help: "seconds between one ring's trigger and the next's", default: "0.25"
      ) {
        p, v in p.options.style.stagger = try seconds(v)
      },
      .value(
        "--speed", "X",
        help:
          "the loaders' clock against the wall clock, \(FlagValue.text(speedRange.lowerBound))...\(FlagValue.text(speedRange.upperBound)); [ and ] halve and double it in a window",
        default: "1"
      ) { p, v in p.options.speed = try FlagValue.number(v, in: speedRange, what: "a speed") },
      .value(
        "--reduced-motion", "NAME",
        help: "a reduced-motion policy: pulse (no rotation, each ring's opacity pulses on the"
          + " same schedule), slow (each turn a quarter as far) or still (rings at rest, nothing"
          + " moves); M cycles through them in a window",
        default: "off"
      ) { p, v in
        p.options.motion = try FlagValue.choice(v, "reduced motion", from: reducedMotions)
      },
      .value(
        "--max-fps", "N",
        help: "the most frames a second a window draws while the rings move (a status-bar"
          + " spinner's 20 saves power); frames still show exact times",
        default: "none"
      ) { p, v in
        p.options.maximumFrameRate = try FlagValue.number(v, in: 1...240, what: "a frame rate")
      },
      .value(
        "--gutter", "FRACTION",
        help:
          "fraction of each grid cell kept empty around its loader, 0...0.9 (0: edge to edge)",
        default: "\(FlagValue.text(defaultGutter))"
      ) {
        p, v in p.options.gutter = try FlagValue.number(v, in: 0...0.9, what: "a fraction")
      },
      .value(
        "--at", "T1,T2,...", help: "simulated times in seconds to render headless",
        default: defaultTimes.map { FlagValue.text($0) }.joined(separator: ",")
      ) { p, v in p.options.times = try times(v) },
      .value(
        "--toggle", "T1,T2,...",
        help: "times at which every loader's isAnimating flips; starts off, the first turns it on",
        default: "none, animating from 0"
      ) { p, v in
        let t = try times(v)
        for k in t.indices.dropFirst() where t[k] <= t[k - 1] {
          throw FlagProblem("times must increase, got \(t[k]) after \(t[k - 1])")
        }
        p.options.toggles = t
      },
      .value(
        "--toggle-random", "SEED",
        help:
          "each loader flips on its own random schedule in the first 10 s, seeded by SEED (0...2^64-1) and its number; the trace lists it",
        default: "none"
      ) { p, v in p.options.toggleRandomSeed = try FlagValue.unsigned64(v) },
      .value(
        "--out", "DIR",
        help:
          "where headless frames go: frame-0000-t0.000.png, ... in --at order, each named with its time; earlier frames of that pattern are removed first",
        default: defaultOutDirectory
      ) { p, v in p.options.outDirectory = v },
      .value(
        "--trace", "FILE",
        help:
          "also write each frame's rings (loader, ring, centre, radius, angle) and any --toggle-random schedule as JSON",
        default: "none"
      ) { p, v in p.options.tracePath = v },
      .switch(
        "--headless", help: "render offscreen instead of opening a window (--record implies it)"
      ) {
        $0.options.headless = true
      },
      .value(
        "--record", "FILE",
        help:
          "record the animation headless at exact times, format by extension: \(RecordingFormat.extensionsList); R records in a window; \(VectorFormat.extensionsList) write one steady period as an animated SVG or a Lottie file",
        default: "none"
      ) { p, v in
        // A bare extension (`.gif`, `dir/.gif`) is a name with nothing before its dot.
        let name = v.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let ext = RecordingFormat(path: v)?.rawValue ?? VectorFormat(path: v)?.rawValue else {
          throw FlagProblem(
            "\(ErrorLine.quote(v)) does not end in one of \(RecordingFormat.extensionsList), "
              + VectorFormat.extensionsList)
        }
        guard name.count > ext.count + 1 else {
          throw FlagProblem("\(ErrorLine.quote(v)) has no file name before its .\(ext)")
        }
        p.options.recordPath = v
      },
      .value(
        "--fps", "N", help: "frames a second of --record, \(RecordingSchedule.frameRates)",
        default: "50"
      ) {
        p, v in
        p.options.fps = try FlagValue.integer(v, in: RecordingSchedule.frameRates)
      },
      .value(
        "--duration", "S",
        help: "seconds of --record, at most \(FlagValue.text(maximumRecordDuration))",
        default: "\(FlagValue.text(defaultRecordDuration))"
      ) { p, v in
        p.options.recordDuration = try FlagValue.positive(
          v, atMost: maximumRecordDuration, what: "seconds")
      },
      .switch(
        "--loop",
        help:
          "record exactly one steady-state period (rings x stagger, from that time on), so the file loops without a seam"
      ) { $0.options.loop = true },
      .value(
        "--pixel-format", "NAME",
        help: "chroma of an .mp4 or .webm --record: yuv420p (every player decodes it, but at"
          + " --zoom 1 a ring's 4-pixel stroke loses colour: 28-32 dB a ring against the"
          + " headless frame) or yuv444p (full colour, 36-42 dB a ring; not every player decodes"
          + " it)",
        default: VideoPixelFormat.yuv420p.rawValue
      ) { p, v in
        p.options.pixelFormat = try FlagValue.choice(v, "pixel format", of: VideoPixelFormat.self)
      },
      .value(
        "--svg-animation", "NAME",
        help:
          "how --record FILE.svg animates: smil (<animateTransform>) or css (@keyframes, which Chromium turns as a bitmap, slightly blurred)",
        default: "smil"
      ) { p, v in
        p.options.svgAnimation = try FlagValue.choice(
          v, "SVG animation", of: LoaderExport.SVGAnimation.self)
      },
      .value(
        "--hud", "on|off",
        help:
          "frame times, counts and backend over the scene (H toggles); on draws it into headless frames too",
        default: "on in a window, off headless"
      ) {
        p, v in p.options.hud = try FlagValue.onOff(v)
      },
      .switch("--verbose", help: "print the frame rate to stderr once a second") {
        $0.options.verbose = true
      },
      .switch(
        "--quiet",
        help:
          "no progress line: headless runs over a second otherwise show frames done, time and an estimate on stderr when it is a terminal"
      ) { $0.options.quiet = true },
      .switch("--fullscreen", help: "open the window full screen (the desktop's resolution)") {
        $0.options.fullscreen = true
      },
      .value(
        "--vsync", "on|off", help: "wait for the display's refresh when presenting", default: "on"
      ) { p, v in
        p.options.vsync = try FlagValue.onOff(v)
      },
      .value(
        "--renderer", "NAME",
        help: "SDL render driver: \(FlagValue.list(LoaderWindow.renderDriverNames))",
        default: "accelerated if any, else software"
      ) { p, v in
        p.options.renderer = try FlagValue.choice(
          v, "renderer", from: LoaderWindow.renderDriverNames.map { ($0, $0) })
      },
      .switch(
        "--info",
        help:
          "print the video driver, the render drivers and the renderer the window would use, then exit",
        default: nil
      ) {
        $0.options.info = true
      },
      .switch("--help", aliases: ["-h"], help: "show this help", default: nil) {
        $0.options.help = true
      },
    ],
    notes: """
      The grid cuts the container into equal cells, one loader row each, filled row by row, \
      with the column count that lets the rows be largest; every loader is scaled by that one \
      factor (at most 1), so all are visible at once, then shrunk by 1 - --gutter about its \
      cell's centre, so neighbours stay apart.

      Pixel sizes are checked before anything is drawn: a frame is 1...\(ScenePixelSizes.maximumSide) \
      px a side, a ring's radius (--frame-size / 2 x grid fit x --zoom) at most \
      \(Int(ScenePixelSizes.maximumRingRadius)) px.

      window keys: Space toggles the seed's loader (grid and sprites: all), A toggles all (all off if any \
      animates, else all on), a click toggles the loader under the pointer, + and - double and \
      halve the grid (1...\(LoaderScene.maximumCount)), B switches to the next backend, [ and ] \
      halve and double the speed, M cycles the reduced-motion policies, H the HUD, ? or F1 the keys panel, \
      S or PrintScreen saves a screenshot (screenshot-*.png here), R starts and stops a recording \
      (recording-*.gif here), Esc quits. Space, A, a click and + / - drop what is left of \
      --toggle or --toggle-random.
      """)

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
  private static let styleFlags = [
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
  private static func times(_ s: String) throws(FlagProblem) -> [Double] {
    try FlagValue.numbers(s, in: 0...maximumTime, what: "a number of seconds")
  }

  private static func seconds(_ s: String) throws(FlagProblem) -> Double {
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
