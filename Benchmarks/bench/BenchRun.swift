import Foundation
import LoaderCore
import LoaderSDL
import SwiftLoaderSupport

/// Which sizes each entry is measured at.
struct BenchSizes {
  var stepLoaders: [Int]
  var naiveLoaders: [Int]
  /// `jump/100y`: sizes where one jump is far above the clock's resolution.
  var jumpLoaders: [Int]
  var rasterRings: [Int]
  var frameLoaders: [Int]
  /// `frame/gpu`: up to a million loaders, the scale its one instanced draw is for.
  var gpuFrameLoaders: [Int]
  /// `host/*`: views in the host's window, ascending (they accumulate).
  var hostViews: [Int]
  var spriteLoaders: [Int]
  var editLoaders: [Int]

  static let full = BenchSizes(
    stepLoaders: [1000, 10_000, 100_000, 1_000_000],
    naiveLoaders: [1000, 10_000, 100_000, 1_000_000], jumpLoaders: [100_000, 1_000_000],
    rasterRings: [100, 1000, 10_000], frameLoaders: [100, 1000, 10_000, 100_000],
    gpuFrameLoaders: [1000, 10_000, 100_000, 1_000_000],
    hostViews: [0, 1, 10, 40, 100], spriteLoaders: [1000, 10_000, 100_000],
    editLoaders: [1000, 10_000, 100_000])
  static let quick = BenchSizes(
    stepLoaders: [1000, 100_000], naiveLoaders: [1000, 100_000], jumpLoaders: [100_000],
    rasterRings: [100, 1000], frameLoaders: [100], gpuFrameLoaders: [100], hostViews: [0, 1, 10],
    spriteLoaders: [1000],
    editLoaders: [1000, 100_000])
}

/// Every entry name a run can produce, for `--filter` and `--help`.
enum BenchCatalogue {
  static var backendNames: [String] { RasterBenchmarks.backendNames }

  static var names: [String] {
    [
      "limit/bandwidth", "limit/fill", "limit/memset", "limit/raster", "step/soa", "step/naive",
      "jump/100y",
    ]
      + backendNames.map { "raster/\($0)" } + ["raster/buffer", "raster/cairo"]
      + SpriteBenchmarks.names
      + backendNames.map { "frame/\($0)" } + FreePlacementBenchmarks.names + ChurnBenchmarks.names
      + CPUBenchmarks.names
      + HostBenchmarks.names
  }
}

/// One run of the bench: measures the selected entries, printing each row as it lands.
final class BenchRun {
  let options: BenchOptions
  let plan: SamplingPlan
  let sizes: BenchSizes
  /// Where `raster/<backend>` and `frame/<backend>` draw (`BENCH_RENDERER`).
  let renderer: BenchRenderer
  /// Every scene is built from this seed.
  static let seed: UInt64 = 0x5EED_0001
  private(set) var results: [BenchResult] = []
  /// `BENCH_SAVE_FRAMES=DIR`: where to write the frames PSNR compares, to look at them.
  let framesDirectory = ProcessInfo.processInfo.environment["BENCH_SAVE_FRAMES"]

  init(options: BenchOptions, renderer: BenchRenderer = .software) {
    self.options = options
    self.renderer = renderer
    plan = options.quick ? .quick : .full
    sizes = options.quick ? .quick : .full
  }

  /// The longest one measured call may be predicted to take: at least 10 samples plus a
  /// warm-up call of it must keep the whole run within a few minutes (`--quick`: a minute).
  var callBudgetSeconds: Double { options.quick ? 1 : 4 }
  /// Per entry, its last size and p50 seconds per call, to predict the next size.
  private var lastCall: [String: (size: Int, seconds: Double)] = [:]

  /// Remembers what one call of `name` at `size` cost.
  func noteCallCost(_ name: String, size: Int, seconds: Double) {
    lastCall[name] = (size, seconds)
  }

  /// Whether `name` at `size` must be skipped because its previous size, scaled linearly,
  /// predicts a call over `callBudgetSeconds`; says so in the table when it is.
  func exceedsBudget(_ name: String, size: Int) -> Bool {
    guard let last = lastCall[name], last.size > 0 else { return false }
    let predicted = last.seconds * Double(size) / Double(last.size)
    guard predicted > callBudgetSeconds else { return false }
    note(
      "\(name) @ \(Format.count(size)): skipped, \(Format.value(predicted)) s per call predicted "
        + "(\(Format.value(last.seconds)) s @ \(Format.count(last.size))) is over the "
        + "\(Format.value(callBudgetSeconds)) s budget")
    return true
  }

  func isSelected(_ name: String) -> Bool {
    guard let f = options.filter else { return true }
    return name.contains(f)
  }

  /// Records a row. Between rows is where SIGINT / SIGTERM end the run: nothing is written
  /// until every row is in, so there is no temporary to remove and the run exits here.
  func record(_ r: BenchResult) {
    do {
      try Cancellation.check()
    } catch {
      printError("bench: \(error)")
      exit(error.exitStatus)
    }
    results.append(r)
    print(ResultTable.row(r, after: results))
    fflush(nil)
  }

  func note(_ line: String) {
    print("# " + line)
    fflush(nil)
  }

  func run() throws {
    print(ResultTable.header)
    try LimitBenchmarks.run(self)
    try StepBenchmarks.run(self)
    try JumpBenchmarks.run(self)
    try RasterBenchmarks.run(self)
    try SpriteBenchmarks.run(self)
    try FrameBenchmarks.run(self)
    try FreePlacementBenchmarks.run(self)
    try ChurnBenchmarks.run(self)
    try CPUBenchmarks.run(self)
    try HostBenchmarks.run(self)
    let ratios = ResultTable.ratios(results)
    if !ratios.isEmpty {
      print("\nratios (p50):")
      for l in ratios { print("  " + l) }
    }
    let targets = ResultTable.targets(results)
    if !targets.isEmpty {
      print("\ntargets:")
      for l in targets { print("  " + l) }
    }
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    print("\npeak resident memory: \(Format.value(Double(usage.ru_maxrss) / 1024)) MiB")
    fflush(nil)
  }
}

/// What the numbers came from, for the first lines of the report and the chart's footer.
enum MachineDescription {
  static var cpuModel: String {
    let text = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    for line in text.split(separator: "\n") where line.hasPrefix("model name") {
      if let colon = line.firstIndex(of: ":") {
        return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      }
    }
    return "unknown CPU"
  }

  static var summary: String {
    let cores = RotationEngine.availableCores
    let build = ReleaseRelaunch.isDebugBuild ? "DEBUG build" : "release build"
    let date = ISO8601DateFormatter().string(from: Date())
    return "\(cpuModel), \(cores) cores, \(build), \(date)"
  }
}
