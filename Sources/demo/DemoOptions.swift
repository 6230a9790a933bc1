import LoaderCore
import LoaderSDL

/// A command-line mistake: which flag, and what is wrong with it. Exit status 2.
struct UsageError: Error, CustomStringConvertible {
  var flag: String
  var problem: String
  var description: String { "demo: \(flag): \(problem)" }
}

/// Everything the command line can say, validated before anything is drawn or written.
struct DemoOptions: Equatable {
  /// Container size in points.
  var width = 390.0
  var height = 120.0
  /// Pixel density of headless frames (a window uses its own).
  var scale = 1.0
  var theme = LoaderTheme.light
  /// nil: the fastest backend at the quality bar on the renderer in use (`RingBackend.preferred`).
  var backend: RingBackend? = nil
  var scene = SceneKind.seed
  /// Loaders in the grid (1 for the seed).
  var count = 1
  /// Simulated times to render headless, in output order; nil for the default set.
  var times: [Double]? = nil
  /// Times at which `isAnimating` flips; empty means on from 0.
  var toggles: [Double] = []
  /// `--toggle-random`: each loader's own seeded `ToggleSchedule.random` stream.
  var toggleRandomSeed: UInt64? = nil
  var outDirectory: String? = nil
  var tracePath: String? = nil
  var headless = false
  var help = false

  /// The frames a headless run renders when `--at` is not given.
  static let defaultTimes = [0, 0.1, 0.35, 1.3]
  static let defaultOutDirectory = "out"
  static let defaultGridSize = (width: 1280.0, height: 720.0)
  static let defaultGridCount = 1000
  /// Headless frames step the engine from 0 to each `--at` time (from 0 again when a time
  /// goes back): at most this many loader-seconds in all, about four times as many triggers.
  static let maximumLoaderSeconds = 1e8

  /// Headless frames can be at most this many pixels on a side (the offscreen canvas's limit).
  static let maximumPixels = 16384.0
  /// Latest simulated time, seconds: one day. A headless run steps the engine from 0 to each
  /// time (120 steps a second), so the work grows with the time asked for.
  static let maximumTime = 86_400.0

  static let helpText = """
    usage: demo [options]

    Shows SwiftUI's LoaderView (five dashed rings spinning in turn) in a window, or renders
    frames headless (with --headless, with SDL_VIDEODRIVER=dummy, with --at/--out/--trace,
    or when no display can be opened).

    options:
      --scene NAME         seed (one LoaderView) or grid (--count loaders) (default seed)
      --count N            loaders in the grid, 1...1000000; implies --scene grid (default 1000)
      --size WxH           container size in points (default 390x120; 1280x720 for the grid)
      --scale S            pixel density of headless frames (default 1; a window uses its own)
      --theme NAME         light, dark, light26 or dark26 (default light)
      --backend NAME       ring rasterizer: \(RingBackend.namesList) (default: spans when the
                           renderer runs on the CPU, geometry on a GPU)
      --at T1,T2,...       simulated times in seconds to render headless (default 0,0.1,0.35,1.3)
      --toggle T1,T2,...   times at which every loader's isAnimating flips; starts off, the first
                           turns it on (default: none, animating from 0)
      --toggle-random SEED each loader flips on its own random schedule in the first 10 s, seeded
                           by SEED (0...2^64-1) and its number; the trace lists it (default none)
      --out DIR            where headless frames go: frame-0000.png, ... in --at order (default out)
      --trace FILE         also write each frame's rings (loader, ring, centre, radius, angle)
                           and any --toggle-random schedule as JSON (default none)
      --headless           render offscreen instead of opening a window (default off)
      --help               show this help

    The grid cuts the container into equal cells, one loader row each, filled row by row,
    with the column count that lets the rows be largest; every loader is scaled by that one
    factor (at most 1), so all are visible at once.

    window keys: Space toggles the seed's loader (grid: all), A toggles all (all off if any
    animates, else all on), a click toggles the loader under the pointer, + and - double and
    halve the grid (1...1000000), B switches to the next backend, Esc quits. Any of these but
    B and Esc drops what is left of --toggle or --toggle-random.

    """

  /// Parses `arguments` (without the program name).
  static func parse(_ arguments: [String]) throws(UsageError) -> DemoOptions {
    var o = DemoOptions()
    var i = 0
    var sizeGiven = false
    var sceneGiven = false
    var countGiven = false
    func value(_ flag: String) throws(UsageError) -> String {
      i += 1
      guard i < arguments.count else { throw UsageError(flag: flag, problem: "needs a value") }
      return arguments[i]
    }
    while i < arguments.count {
      let arg = arguments[i]
      // `--flag=value` reads the same as `--flag value`.
      var flag = arg
      var inline: String? = nil
      if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
        flag = String(arg[..<eq])
        inline = String(arg[arg.index(after: eq)...])
      }
      func v() throws(UsageError) -> String {
        if let inline { return inline }
        return try value(flag)
      }
      switch flag {
      case "--size":
        (o.width, o.height) = try parseSize(try v())
        sizeGiven = true
      case "--scene":
        let s = try v()
        guard let k = SceneKind(rawValue: s) else {
          throw UsageError(flag: flag, problem: "unknown scene '\(s)' (expected seed or grid)")
        }
        o.scene = k
        sceneGiven = true
      case "--count":
        let s = try v()
        guard let n = Int(s), (1...LoaderScene.maximumCount).contains(n) else {
          throw UsageError(
            flag: flag,
            problem: "expected an integer in 1...\(LoaderScene.maximumCount), got '\(s)'")
        }
        o.count = n
        countGiven = true
      case "--toggle-random":
        let s = try v()
        guard let seed = UInt64(s) else {
          throw UsageError(
            flag: flag, problem: "expected an integer seed in 0...\(UInt64.max), got '\(s)'")
        }
        o.toggleRandomSeed = seed
      case "--scale":
        let s = try v()
        guard let x = Double(s), x.isFinite, x > 0 else {
          throw UsageError(flag: flag, problem: "expected a finite number > 0, got '\(s)'")
        }
        o.scale = x
      case "--theme":
        let s = try v()
        guard let t = LoaderTheme(rawValue: s) else {
          let names = LoaderTheme.allCases.map(\.rawValue).joined(separator: ", ")
          throw UsageError(flag: flag, problem: "unknown theme '\(s)' (expected \(names))")
        }
        o.theme = t
      case "--backend":
        let s = try v()
        guard let b = RingBackend(rawValue: s) else {
          throw UsageError(
            flag: flag, problem: "unknown backend '\(s)' (expected one of \(RingBackend.namesList))"
          )
        }
        o.backend = b
      case "--at": o.times = try parseTimes(try v(), flag: flag)
      case "--toggle":
        let t = try parseTimes(try v(), flag: flag)
        for k in t.indices.dropFirst() where t[k] <= t[k - 1] {
          throw UsageError(
            flag: flag, problem: "times must increase, got \(t[k]) after \(t[k - 1])")
        }
        o.toggles = t
      case "--out":
        let s = try v()
        guard !s.isEmpty else { throw UsageError(flag: flag, problem: "empty directory name") }
        o.outDirectory = s
      case "--trace":
        let s = try v()
        guard !s.isEmpty else { throw UsageError(flag: flag, problem: "empty file name") }
        o.tracePath = s
      case "--headless":
        guard inline == nil else { throw UsageError(flag: flag, problem: "takes no value") }
        o.headless = true
      case "--help", "-h":
        o.help = true
      default:
        throw UsageError(flag: arg, problem: "unknown option (see --help)")
      }
      i += 1
    }
    if countGiven {
      guard !sceneGiven || o.scene == .grid else {
        throw UsageError(flag: "--count", problem: "only for --scene grid")
      }
      o.scene = .grid
    } else if o.scene == .grid {
      o.count = defaultGridCount
    }
    if o.scene == .grid, !sizeGiven { (o.width, o.height) = defaultGridSize }
    if o.toggleRandomSeed != nil, !o.toggles.isEmpty {
      throw UsageError(flag: "--toggle-random", problem: "cannot be combined with --toggle")
    }
    let stepped = Double(o.count) * steppedSeconds(o.times ?? defaultTimes)
    guard stepped <= maximumLoaderSeconds else {
      throw UsageError(
        flag: "--at",
        problem: "\(o.count) loaders up to these times is \(stepped) loader-seconds to simulate"
          + "; at most \(Int(maximumLoaderSeconds))")
    }
    let wide = o.width * o.scale
    let high = o.height * o.scale
    guard wide.rounded(.up) <= maximumPixels, high.rounded(.up) <= maximumPixels else {
      throw UsageError(
        flag: "--size",
        problem: "\(wide)x\(high) pixels at this --scale; at most \(Int(maximumPixels)) a side")
    }
    guard wide.rounded() >= 1, high.rounded() >= 1 else {
      throw UsageError(flag: "--size", problem: "less than one pixel at this --scale")
    }
    return o
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

  /// `WxH`, both finite and > 0.
  static func parseSize(_ s: String) throws(UsageError) -> (Double, Double) {
    let parts = s.split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]) else {
      throw UsageError(flag: "--size", problem: "expected WxH in points, e.g. 390x120, got '\(s)'")
    }
    guard w.isFinite, h.isFinite, w > 0, h > 0 else {
      throw UsageError(
        flag: "--size", problem: "width and height must be finite and > 0, got '\(s)'")
    }
    return (w, h)
  }

  /// A comma-separated list of times in `0...maximumTime`.
  static func parseTimes(_ s: String, flag: String) throws(UsageError) -> [Double] {
    var out: [Double] = []
    for part in s.split(separator: ",", omittingEmptySubsequences: false) {
      guard let t = Double(part) else {
        throw UsageError(flag: flag, problem: "'\(part)' is not a number of seconds")
      }
      guard t.isFinite, t >= 0 else {
        throw UsageError(flag: flag, problem: "times must be finite and >= 0, got '\(part)'")
      }
      guard t <= maximumTime else {
        throw UsageError(
          flag: flag, problem: "times must be at most \(Int(maximumTime)) seconds, got '\(part)'")
      }
      out.append(t)
    }
    return out
  }
}
