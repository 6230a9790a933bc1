import Foundation
import LoaderSDL
import SwiftLoaderSupport

/// The command line, validated before anything is measured or rebuilt.
///
/// Each flag is declared once in `table`; `usage` (the help) and every error line come from
/// there, with the rules the demo's flags follow too (`FlagTable`).
struct BenchOptions: Equatable {
  var jsonPath: String?
  var chartPath: String?
  var filter: String?
  var quick = false
  /// Threads for the entries that can use several; nil for every core.
  var threads: Int?
  var help = false

  static let maximumThreads = LoaderField.maximumThreads

  private static let table = FlagTable<BenchOptions>(
    program: "bench",
    usage: "bench [--quick] [--filter SUBSTRING] [--json FILE] [--chart FILE.png] [--threads N]",
    summary: """
      Measures the rotation engine's step, every ring rasterizer, whole frames and the \
      machine's limits, each at several sizes, and prints a table (min, p50, p90, p99 per entry).
      """,
    flags: [
      .switch("--quick", help: "a smoke run: fewer sizes and samples (under 60 s)") {
        $0.quick = true
      },
      .value(
        "--filter", "SUBSTRING",
        help:
          "run only the entries whose name contains SUBSTRING (names: \(BenchCatalogue.names.joined(separator: ", ")))",
        default: "every entry"
      ) { o, v in
        guard BenchCatalogue.names.contains(where: { $0.contains(v) }) else {
          throw FlagProblem("\(ErrorLine.quote(String(v))) matches no entry")
        }
        o.filter = v
      },
      .value("--json", "FILE", help: "also write the results as JSON to FILE", default: "none") {
        o, v in o.jsonPath = v
      },
      .value(
        "--chart", "FILE.png", help: "also draw the scaling curves (log-log) into FILE.png",
        default: "none"
      ) { o, v in
        guard v.lowercased().hasSuffix(".png") else {
          throw FlagProblem("\(ErrorLine.quote(String(v))) must end in .png")
        }
        o.chartPath = v
      },
      .value(
        "--threads", "N", help: "threads for the entries that use several, 1...\(maximumThreads)",
        default: "all cores"
      ) { o, v in o.threads = try FlagValue.integer(v, in: 1...maximumThreads) },
      .switch("--help", aliases: ["-h"], help: "print this help and exit", default: nil) {
        $0.help = true
      },
    ],
    notes: """
      A debug build rebuilds itself in release (swift build -c release --product bench, then \
      --product demo for cpu/*) and re-runs; set BENCH_NO_RELAUNCH=1 to measure the debug build \
      anyway (numbers flagged). \
      BENCH_SAVE_FRAMES=DIR writes the raster frames that PSNR compares into DIR as PNGs. \
      BENCH_RENDERER=opengl draws raster/<backend> and frame/<backend> on OpenGL (EGL, SDL's \
      offscreen driver) instead of the software renderer (Benchmarks/gpu.sh).
      """)

  /// The help.
  static var usage: String { table.helpText }

  /// Parses `arguments` (without the program name).
  static func parse(_ arguments: [String]) throws(UsageError) -> BenchOptions {
    let o = try table.parse(arguments, into: BenchOptions()).options
    if let a = o.jsonPath, a == o.chartPath {
      throw table.error("--chart", "names the same file as --json, \(ErrorLine.quote(String(a)))")
    }
    return o
  }
}
