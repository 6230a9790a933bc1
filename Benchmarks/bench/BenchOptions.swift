import Foundation

/// The command line, validated before anything is measured or rebuilt.
struct BenchOptions: Equatable {
  var jsonPath: String?
  var chartPath: String?
  var filter: String?
  var quick = false
  var help = false

  /// A usage error: one line for stderr, exit status 2.
  struct UsageError: Error, Equatable, CustomStringConvertible {
    var description: String
  }

  static let usage = """
    usage: bench [--quick] [--filter SUBSTRING] [--json FILE] [--chart FILE.png]

    Measures the rotation engine's step, every ring rasterizer, whole frames and the machine's
    limits, each at several sizes, and prints a table (min, p50, p90, p99 per entry).

    options:
      --quick               a smoke run: fewer sizes and samples (under 60 s)
      --filter SUBSTRING    run only the entries whose name contains SUBSTRING
                            (names: limit/bandwidth, limit/fill, limit/memset, step/soa,
                            step/naive, raster/<backend>, raster/cairo, raster/sprite,
                            raster/sprite-gl, frame/<backend>, cpu/seed-animating,
                            cpu/seed-stopped, cpu/grid10k-animating, cpu/grid10k-stopped)
      --json FILE           also write the results as JSON to FILE
      --chart FILE.png      also draw the scaling curves (log-log) into FILE.png
      --help                print this help and exit

    A debug build rebuilds itself in release (swift build -c release --product bench) and
    re-runs; set BENCH_NO_RELAUNCH=1 to measure the debug build anyway (numbers flagged).
    BENCH_SAVE_FRAMES=DIR writes the raster frames that PSNR compares into DIR as PNGs.
    BENCH_RENDERER=opengl draws raster/<backend> and frame/<backend> on OpenGL (EGL, SDL's
    offscreen driver) instead of the software renderer (Benchmarks/gpu.sh).
    """

  /// Parses `arguments` (without the program name). Accepts `--flag VALUE` and `--flag=VALUE`.
  static func parse(_ arguments: [String]) throws(UsageError) -> BenchOptions {
    var o = BenchOptions()
    var seen = Set<String>()
    var i = 0
    func once(_ flag: String) throws(UsageError) {
      guard seen.insert(flag).inserted else { throw UsageError(description: "\(flag) given twice") }
    }
    while i < arguments.count {
      let arg = arguments[i]
      var flag = arg
      var inlineValue: String?
      if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
        flag = String(arg[..<eq])
        inlineValue = String(arg[arg.index(after: eq)...])
      }
      func value() throws(UsageError) -> String {
        if let v = inlineValue {
          guard !v.isEmpty else { throw UsageError(description: "\(flag) needs a value") }
          return v
        }
        guard i + 1 < arguments.count, !arguments[i + 1].hasPrefix("--") else {
          throw UsageError(description: "\(flag) needs a value")
        }
        i += 1
        return arguments[i]
      }
      func noValue() throws(UsageError) {
        if inlineValue != nil { throw UsageError(description: "\(flag) takes no value") }
      }
      switch flag {
      case "--help", "-h":
        try noValue()
        o.help = true
      case "--quick":
        try noValue()
        try once(flag)
        o.quick = true
      case "--json":
        try once(flag)
        o.jsonPath = try value()
      case "--chart":
        try once(flag)
        let path = try value()
        guard path.lowercased().hasSuffix(".png") else {
          throw UsageError(description: "--chart: '\(path)' must end in .png")
        }
        o.chartPath = path
      case "--filter":
        try once(flag)
        o.filter = try value()
      default:
        if arg.hasPrefix("-") {
          throw UsageError(description: "unknown option '\(flag)' (see --help)")
        }
        throw UsageError(description: "unexpected argument '\(arg)' (see --help)")
      }
      i += 1
    }
    if let a = o.jsonPath, a == o.chartPath {
      throw UsageError(description: "--json and --chart name the same file '\(a)'")
    }
    return o
  }
}
