import Foundation
import LoaderSDL
import SwiftLoaderSupport

/// `host/<renderer>/<drawer>`: what `LoaderView`s cost a program that owns its window.
///
/// Each entry is a child process (`HostChild`: this executable again, with `BENCH_HOST_CHILD`
/// set), an SDL program with a 1920x1080 window on SDL's offscreen video driver, drawing
/// `HostScene`'s frame (clear, ten row stripes of its own, N views at `HostLayout`'s list
/// places, present, a one-pixel read back) with N = 0, 1, 10, 40, 100 views added in that
/// order (`--quick`: 0, 1, 10), every view its own object, all animating, the time moving on
/// by 1/60 s a frame. Renderers: `opengl` (SDL's OpenGL renderer; Mesa's llvmpipe where there
/// is no GPU, which rasterizes on threads of its own; skipped with a note where none comes up)
/// and `software` (SDL's software renderer on the window's surface). Drawers: every
/// `RingBackend` (but `gpu` on `software`, which SDL's software renderer cannot run), `preferred` (`LoaderView(backend: nil)`, the renderer's
/// `LoaderRenderer.defaultBackend(rings:)`; its notes say which), and `sprite`, the peer
/// (`SpriteContent`). `--quick` runs `preferred`, `sprite` and `opengl/gpu` only, unless
/// `--filter` names others.
///
/// Each row is one count: the frame's wall time (percentiles over single frames), and in the
/// notes the process's CPU time per frame as a share of a core at 60 fps, the marginal cost
/// of a view over the same child's empty frame, and resident memory:
/// ```
/// % core at 60 fps     = 100 * mean CPU ms per frame / 16.67
/// marginal ms per view = (t_N - t_0) / N      (wall: p50s; CPU: means)
/// resident per view    = (RSS_N - RSS_0) / N
/// ```
/// where `t_0` is the same host frame with the views left out, timed in blocks interleaved
/// with the frames that draw them (`HostChild`), so that both see the same load, and `RSS_0`
/// the resident memory before any view was made.
/// The child's CPU time covers every thread (llvmpipe's too); wall time is what the host's
/// frame rate sees. On a shared machine compare entries of one run, as ratios.
enum HostBenchmarks {
  static let drawers = ["preferred"] + RingBackend.allCases.map(\.rawValue) + ["sprite"]
  static let quickDrawers = ["preferred", "sprite"]

  static var names: [String] {
    HostRendererKind.allCases.flatMap { r in drawers(on: r).map { "host/\(r.rawValue)/\($0)" } }
  }

  /// The drawers measured on `renderer`: `gpu` on OpenGL alone.
  static func drawers(on renderer: HostRendererKind, quick: Bool = false) -> [String] {
    if quick { return quickDrawers + (renderer == .opengl ? [RingBackend.gpu.rawValue] : []) }
    return drawers.filter { renderer == .opengl || $0 != RingBackend.gpu.rawValue }
  }

  /// A child that runs longer than this is killed and its entry skipped.
  static func timeoutSeconds(_ run: BenchRun) -> Double { run.options.quick ? 40 : 150 }

  static func run(_ run: BenchRun) throws {
    let quickOnly = run.options.quick && run.options.filter == nil
    let selected = HostRendererKind.allCases.flatMap { r in
      drawers(on: r, quick: quickOnly).map { (r, $0) }
    }.filter { run.isSelected("host/\($0.0.rawValue)/\($0.1)") }
    guard !selected.isEmpty else { return }
    guard let me = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    else {
      run.note("host/*: skipped, /proc/self/exe cannot be read")
      return
    }
    var noOpenGL: String?
    for (renderer, drawer) in selected {
      let name = "host/\(renderer.rawValue)/\(drawer)"
      if renderer == .opengl, let why = noOpenGL {
        run.note("\(name): skipped, \(why)")
        continue
      }
      switch measure(me, entry: "\(renderer.rawValue)/\(drawer)", run: run) {
      case .success(let reading):
        record(name, reading, run: run)
      case .failure(let f):
        if renderer == .opengl, f.description.contains("SDL_CreateRenderer") {
          noOpenGL = "no OpenGL renderer (\(f.description))"
        }
        run.note("\(name): skipped, \(f.description)")
      }
    }
  }

  struct Reading {
    var renderer: String
    var preferred: String
    var counts: [(views: Int, drawnWith: String, report: HostChild.Report)]
  }

  /// Runs the child for `entry` and reads its report.
  static func measure(_ executable: String, entry: String, run: BenchRun) -> Result<
    Reading, ChildProcess.Failure
  > {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bench-host-\(getpid())"
    ).path
    let (out, err) = (base + ".out", base + ".err")
    defer {
      unlink(out)
      unlink(err)
    }
    let counts = run.sizes.hostViews.map(String.init).joined(separator: ",")
    let pid: pid_t
    switch ChildProcess.spawn(
      executable, [],
      environment: [
        HostChild.entryVariable: entry, HostChild.viewsVariable: counts,
        HostChild.quickVariable: run.options.quick ? "1" : "0",
        "SDL_VIDEODRIVER": "offscreen",
      ], stdout: out, stderr: err)
    {
    case .success(let p): pid = p
    case .failure(let f): return .failure(f)
    }
    let started = Stopwatch.now()
    var status: Int32 = 0
    while wait4(pid, &status, WNOHANG, nil) != pid {
      guard Double(Stopwatch.now() - started) < timeoutSeconds(run) * 1e9 else {
        ChildProcess.kill(pid)
        return .failure(
          .init(description: "still running after \(Format.value(timeoutSeconds(run))) s (killed)"))
      }
      ChildProcess.sleep(0.02, watching: pid)
    }
    let said = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
    guard status == 0 else {
      let last = said.split(separator: "\n").last.map(String.init) ?? "no message"
      return .failure(
        .init(description: "the child ended with \(ChildProcess.describe(status)): \(last)"))
    }
    let lines = ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").split(separator: "\n")
    var reading = Reading(renderer: "?", preferred: "?", counts: [])
    for line in lines {
      if line.hasPrefix("renderer ") { reading.renderer = String(line.dropFirst(9)) }
      if line.hasPrefix("preferred ") { reading.preferred = String(line.dropFirst(10)) }
      if let r = HostChild.Report.parse(line) { reading.counts.append(r) }
    }
    guard reading.counts.map(\.views) == run.sizes.hostViews.sorted() else {
      return .failure(.init(description: "the child reported \(reading.counts.map(\.views)) views"))
    }
    return .success(reading)
  }

  static func record(_ name: String, _ reading: Reading, run: BenchRun) {
    let frame = 1000 / 60.0
    guard let empty = reading.counts.first(where: { $0.views == 0 })?.report else { return }
    for (n, drawnWith, report) in reading.counts {
      let wall = milliseconds(report.frames.wall)
      let cpu = mean(report.frames.cpu) * 1e-6
      var figures = BenchResult.HostFigures(
        cpuMilliseconds: cpu, residentBytes: report.residentBytes,
        drawnWith: n > 0 ? drawnWith : nil)
      var details = [
        "\(Format.value(100 * cpu / frame))% core at 60 fps (cpu \(Format.value(cpu)) ms/frame)"
      ]
      if n > 0, !report.baseline.wall.isEmpty {
        let baseCPU = mean(report.baseline.cpu) * 1e-6
        let perWall = (wall.p50 - milliseconds(report.baseline.wall).p50) / Double(n)
        let perCPU = (cpu - baseCPU) / Double(n)
        let growth = report.residentBytes - empty.residentBytes
        figures.marginalWallMilliseconds = perWall
        figures.marginalCPUMilliseconds = perCPU
        figures.residentGrowthBytes = growth
        let firstSecond = mean(report.firstSecondCPU) * 1e-6 - baseCPU
        figures.firstSecondAddedCPUMilliseconds = firstSecond
        figures.steadyAddedCPUMilliseconds = perCPU * Double(n)
        if !report.resizeCPU.isEmpty {
          let resize = mean(report.resizeCPU) * 1e-6 - baseCPU
          figures.afterResizeAddedCPUMilliseconds = resize
          details.append(
            "\(Format.value(100 * resize / frame)) pts in the first second after a density change")
        }
        let callsPerView =
          (report.calls.draws + report.calls.others - report.baselineCalls.draws
            - report.baselineCalls.others) / Double(n)
        let drawsPerView = (report.calls.draws - report.baselineCalls.draws) / Double(n)
        figures.renderCallsPerView = callsPerView
        figures.renderDrawsPerView = drawsPerView
        details.append(
          "added \(Format.value(100 * perCPU * Double(n) / frame)) pts steady,"
            + " \(Format.value(100 * firstSecond / frame)) pts in its first second")
        details.append(
          "\(Format.value(callsPerView)) SDL render calls/view/frame"
            + " (\(Format.value(drawsPerView)) draws)")
        details.append(
          "+\(Format.value(perCPU)) ms cpu/view (\(Format.value(100 * perCPU / frame)) pts)"
            + " over its interleaved empty frame (\(Format.value(100 * baseCPU / frame))%),"
            + " +\(Format.value(perWall)) ms wall/view")
        details.append(
          "RSS +\(Format.value(Double(growth) / 1e6)) MB"
            + " (\(Format.value(Double(growth) / 1e6 / Double(n))) MB/view,"
            + " caches \(Format.value(Double(report.cachedBytes) / 1e6)) MB)")
      } else {
        details.append("RSS \(Format.value(Double(report.residentBytes) / 1e6)) MB")
      }
      details.append("\(Format.value(1000 / wall.p50)) frames/s")
      details.append(
        "\(Format.value(report.allocationsPerFrame)) allocs/frame"
          + (report.settled ? "" : " (timed before a whole cycle was drawn)"))
      if n > 0 {
        details.append(name.hasSuffix("/preferred") ? "preferred: \(drawnWith)" : drawnWith)
      }
      details.append(reading.renderer)
      run.record(
        BenchResult(
          name: name, loaders: n, rings: n * LoaderStyle.seed.ringCount, unit: "ms/frame",
          statistics: wall, psnrDB: nil, frameMilliseconds: wall.p50, details: details,
          host: figures))
    }
  }

  /// Percentiles of per-frame nanoseconds, in milliseconds.
  static func milliseconds(_ ns: [UInt64]) -> SampleStatistics {
    SampleStatistics(ns.map { Double($0) * 1e-6 })
  }

  static func mean(_ values: [UInt64]) -> Double {
    values.isEmpty ? 0 : Double(values.reduce(0, +)) / Double(values.count)
  }
}
