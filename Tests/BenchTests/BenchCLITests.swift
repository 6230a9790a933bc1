import Foundation
import LoaderCore
import SwiftLoaderTestSupport
import Testing

/// Runs the built `bench` executable (beside the test bundle, a debug build): flags are
/// validated before the bench would rebuild itself in release, so these runs never build or
/// measure anything.
private enum BenchProcess {
  static func run(_ arguments: [String]) throws -> BuiltProduct {
    // If a flag were wrongly accepted, measure (quickly, in debug) rather than build release.
    try BuiltProduct.run("bench", arguments, environment: ["BENCH_NO_RELAUNCH": "1"])
  }
}

@Suite struct BenchCLITests {
  /// The help is generated from the flag table (the same rules and layout as the demo's);
  /// the snapshot is what a user reads.
  @Test func helpPrintsUsageAndExitsZero() throws {
    let r = try BenchProcess.run(["--help"])
    #expect(r.status == 0)
    #expect(r.stderr.isEmpty)
    #expect(
      r.stdout == """
        usage: bench [--quick] [--filter SUBSTRING] [--json FILE] [--chart FILE.png] [--threads N]

        Measures the rotation engine's step, every ring rasterizer, whole frames and the machine's limits,
        each at several sizes, and prints a table (min, p50, p90, p99 per entry).

        options:
          --quick              a smoke run: fewer sizes and samples (under 60 s) (default off)
          --filter SUBSTRING   run only the entries whose name contains SUBSTRING (names: limit/bandwidth,
                               limit/fill, limit/memset, limit/raster, step/soa, step/naive, jump/100y,
                               raster/gfx, raster/spans, raster/gpu, raster/buffer, raster/cairo,
                               raster/sprite, raster/sprite-gl, frame/gfx, frame/spans, frame/gpu,
                               frame/sprites, edit/sprites, frame/churn, frame/churn-1s, cpu/seed-animating,
                               cpu/seed-stopped, cpu/grid10k-animating, cpu/grid10k-stopped,
                               host/opengl/preferred, host/opengl/gfx, host/opengl/spans, host/opengl/gpu,
                               host/opengl/sprite, host/software/preferred, host/software/gfx,
                               host/software/spans, host/software/sprite) (default every entry)
          --json FILE          also write the results as JSON to FILE (default none)
          --chart FILE.png     also draw the scaling curves (log-log) into FILE.png (default none)
          --threads N          threads for the entries that use several, 1...256 (default all cores)
          --help               print this help and exit

        A debug build rebuilds itself in release (swift build -c release --product bench, then --product
        demo for cpu/*) and re-runs; set BENCH_NO_RELAUNCH=1 to measure the debug build anyway (numbers
        flagged). BENCH_SAVE_FRAMES=DIR writes the raster frames that PSNR compares into DIR as PNGs.
        BENCH_RENDERER=opengl draws raster/<backend> and frame/<backend> on OpenGL (EGL, SDL's offscreen
        driver) instead of the software renderer (Benchmarks/gpu.sh).

        """)
    #expect(try BenchProcess.run(["-h"]).stdout == r.stdout)
  }

  @Test(arguments: [
    (["--bogus"], "bench: --bogus: unknown option (see --help)"),
    (["--json"], "bench: --json: needs a value"),
    (["--json", "--quick"], "bench: --json: needs a value"),
    (["--filter="], "bench: --filter: needs a value"),
    (["--filter", ""], "bench: --filter: needs a value"),
    (["--quick=yes"], "bench: --quick: takes no value"),
    (["--quick", "--quick"], "bench: --quick: given twice"),
    (["--json", "a.json", "--json=b.json"], "bench: --json: given twice"),
    (["--chart", "out.jpg"], "bench: --chart: 'out.jpg' must end in .png"),
    (["stray"], "bench: stray: unexpected argument (see --help)"),
    (["-q"], "bench: -q: unknown option (see --help)"),
    (
      ["--json", "same.png", "--chart", "same.png"],
      "bench: --chart: names the same file as --json, 'same.png'"
    ),
    (["--filter", "no-such-entry"], "bench: --filter: 'no-such-entry' matches no entry"),
    (["--filter", "a\nb"], "bench: --filter: 'a\\nb' matches no entry"),
    (["--threads", "0"], "bench: --threads: expected an integer in 1...256, got '0'"),
    (["--threads", "257"], "bench: --threads: expected an integer in 1...256, got '257'"),
    (["--threads", "two"], "bench: --threads: expected an integer in 1...256, got 'two'"),
    (["--threads", "--quick"], "bench: --threads: needs a value"),
    (
      ["--json", "/nonexistent-bench-dir/r.json"],
      "bench: --json: directory '/nonexistent-bench-dir' does not exist"
    ),
    (
      ["--chart", "/nonexistent-bench-dir/c.png"],
      "bench: --chart: directory '/nonexistent-bench-dir' does not exist"
    ),
  ])
  func badUsageExitsTwoWithOneLine(arguments: [String], message: String) throws {
    let r = try BenchProcess.run(arguments)
    #expect(r.status == 2)
    #expect(r.stderr == message + "\n")
    #expect(r.stdout.isEmpty)
  }

  @Test func anUnknownRendererIsAUsageError() throws {
    let r = try BuiltProduct.run(
      "bench", ["--quick"], environment: ["BENCH_NO_RELAUNCH": "1", "BENCH_RENDERER": "vulkan"])
    #expect(r.status == 2)
    #expect(r.stderr == "bench: BENCH_RENDERER: unknown renderer 'vulkan' (software or opengl)\n")
    #expect(r.stdout.isEmpty)
  }

  @Test func aDirectoryIsNotAnOutputFile() throws {
    let dir = FileManager.default.temporaryDirectory.path
    let r = try BenchProcess.run(["--json", dir])
    #expect(r.status == 2)
    #expect(r.stderr == "bench: --json: '\(dir)' is a directory, not a regular file\n")
  }

  /// The debug path end to end: no relaunch allowed, so the numbers must be flagged on the
  /// first line; the JSON has exactly `BenchResult`'s keys and ordered percentiles; the chart is
  /// a PNG; nothing is left beside them.
  @Test func debugRunIsFlaggedAndWritesJSONAndChart() throws {
    let dir = try ScratchDirectory("bench-test")
    defer { dir.remove() }
    let json = dir.file("r.json")
    let chart = dir.file("c.png")
    let r = try BenchProcess.run([
      "--quick", "--filter", "limit/fill", "--json", json, "--chart", chart,
    ])
    #expect(r.status == 0, "stderr: \(r.stderr)")
    #expect(
      r.stdout.split(separator: "\n").first == "WARNING: debug build, numbers are not meaningful")
    #expect(r.stdout.contains("\nlimit/fill "))

    let object = try JSONSerialization.jsonObject(
      with: Data(contentsOf: URL(fileURLWithPath: json)))
    let results = try #require((object as? [String: Any])?["results"] as? [[String: Any]])
    #expect(results.count == 1)
    let entry = try #require(results.first)
    #expect(Set(entry.keys) == ["name", "loaders", "rings", "unit", "min", "p50", "p90", "p99"])
    #expect(entry["name"] as? String == "limit/fill")
    #expect(entry["unit"] as? String == "ms/frame")
    let stats = ["min", "p50", "p90", "p99"].compactMap { (entry[$0] as? NSNumber)?.doubleValue }
    #expect(stats.count == 4)
    #expect(stats.allSatisfy { $0.isFinite && $0 > 0 })
    #expect(stats == stats.sorted())

    let png = try Data(contentsOf: URL(fileURLWithPath: chart))
    #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["c.png", "r.json"])
  }

  /// The rows of `stdout` for entry `name`, split into columns (name, loaders, rings,
  /// threads, unit, min, p50, ...).
  static func rows(_ name: String, in stdout: String) -> [[Substring]] {
    stdout.split(separator: "\n").filter { $0.hasPrefix(name + " ") }.map {
      $0.split(separator: " ", omittingEmptySubsequences: true)
    }
  }

  /// A threaded entry: one row at 1 thread and one at every core with its speed-up, in the
  /// table and in the JSON.
  @Test func framesAreMeasuredAtOneAndAllThreads() throws {
    let dir = try ScratchDirectory("bench-threads")
    defer { dir.remove() }
    let json = dir.file("r.json")
    let r = try BenchProcess.run(["--quick", "--filter", "frame/spans", "--json", json])
    #expect(r.status == 0, "stderr: \(r.stderr)")
    let header = try #require(r.stdout.split(separator: "\n").first { $0.hasPrefix("name ") })
    #expect(
      header.split(separator: " ", omittingEmptySubsequences: true).prefix(5) == [
        "name", "loaders", "rings", "threads", "unit",
      ])
    let cores = RotationEngine.availableCores
    let rows = Self.rows("frame/spans", in: r.stdout)
    #expect(rows.map { $0[3] } == (cores > 1 ? ["1", "\(cores)"] : ["1"]))
    #expect(rows.allSatisfy { $0[1] == "100" && $0[2] == "500" && $0[4] == "ms/frame" })
    if cores > 1 {
      #expect(rows.last?.joined(separator: " ").hasSuffix("x of 1 thread") == true)
      #expect(r.stdout.contains("frame/spans @ 500 rings, \(cores) threads vs 1 thread: "))
    }

    let object = try JSONSerialization.jsonObject(
      with: Data(contentsOf: URL(fileURLWithPath: json)))
    let results = try #require((object as? [String: Any])?["results"] as? [[String: Any]])
    let frames = results.filter { $0["name"] as? String == "frame/spans" }
    #expect(
      frames.compactMap { ($0["threads"] as? NSNumber)?.intValue } == rows.map { Int($0[3]) ?? 0 })
    #expect(frames.first?["speedup"] == nil)
    if cores > 1 {
      let x = try #require((frames.last?["speedup"] as? NSNumber)?.doubleValue)
      #expect(x.isFinite && x > 0)
    }
  }

  /// `host/*` runs each entry in a child (the bench itself on SDL's offscreen driver): a row
  /// per view count, the empty host first, with the host's figures in the notes and the JSON,
  /// and the targets that read them reported.
  @Test func hostEntriesRunAHostInAChild() throws {
    let dir = try ScratchDirectory("bench-host")
    defer { dir.remove() }
    let json = dir.file("r.json")
    let r = try BenchProcess.run(["--quick", "--filter", "host/software/preferred", "--json", json])
    #expect(r.status == 0, "stderr: \(r.stderr)")
    let rows = Self.rows("host/software/preferred", in: r.stdout)
    #expect(rows.map { $0[1] } == ["-", "1", "10"], "\(r.stdout)")
    #expect(rows.allSatisfy { $0[4] == "ms/frame" && $0.joined(separator: " ").contains("% core") })
    // Which backend the renderer prefers is the library's choice; the notes name it.
    #expect(rows.dropFirst().allSatisfy { $0.joined(separator: " ").contains("preferred: ") })
    let target = r.stdout.split(separator: "\n").first {
      $0.hasPrefix("  host/software/preferred marginal CPU per view <= 0.200 ms/frame")
    }
    #expect(target?.hasSuffix(" -> met") == true || target?.hasSuffix(" -> MISSED") == true)
    #expect(Self.rows("host/software/sprite", in: r.stdout).isEmpty)

    let object = try JSONSerialization.jsonObject(
      with: Data(contentsOf: URL(fileURLWithPath: json)))
    let results = try #require((object as? [String: Any])?["results"] as? [[String: Any]])
    #expect(results.count == 3)
    #expect(results.allSatisfy { ($0["rss_bytes"] as? NSNumber)?.intValue ?? 0 > 0 })
    #expect(results.first?["marginal_cpu_ms"] == nil)
    #expect(results.dropFirst().allSatisfy { $0["marginal_cpu_ms"] is NSNumber })
    // The backend the views drew with, as the notes name it; none at 0 views.
    #expect(results.first?["drawn_with"] == nil)
    for (row, result) in zip(rows.dropFirst(), results.dropFirst()) {
      let drawn = try #require(result["drawn_with"] as? String, "\(result)")
      #expect(row.joined(separator: " ").contains("preferred: \(drawn)"), "\(row)")
    }
  }

  /// `cpu/seed-*` runs the demo's window loop (the demo beside the bench) and reports a
  /// share of a core for each state, which the targets read.
  @Test func cpuEntriesRunTheDemo() throws {
    let r = try BenchProcess.run(["--quick", "--filter", "cpu/seed"])
    #expect(r.status == 0, "stderr: \(r.stderr)")
    for name in ["cpu/seed-animating", "cpu/seed-stopped"] {
      let rows = Self.rows(name, in: r.stdout)
      #expect(rows.count == 1, "\(name): \(r.stdout)")
      guard let row = rows.first else { continue }
      #expect(row[1] == "1" && row[2] == "5" && row[3] == "-" && row[4] == "%")
      let p50 = try #require(Double(row[7]), "\(name) p50 '\(row[7])'")
      #expect(p50 >= 0 && p50 <= 100 * Double(RotationEngine.availableCores))
      #expect(
        r.stdout.contains("\n  \(name) <= "), "its target is reported: \(r.stdout)")
    }
    #expect(Self.rows("cpu/grid10k-animating", in: r.stdout).isEmpty)
    // Animating draws every frame; stopped only waits for events.
    if let a = Self.rows("cpu/seed-animating", in: r.stdout).first.flatMap({ Double($0[7]) }),
      let s = Self.rows("cpu/seed-stopped", in: r.stdout).first.flatMap({ Double($0[7]) })
    {
      #expect(s < a, "stopped \(s) % vs animating \(a) %")
    }
  }
}
