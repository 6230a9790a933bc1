import CSwiftLoaderRenderCallCounter
import CSwiftLoaderSDL2
import Foundation
import LoaderCore
import LoaderSDL
import SwiftLoaderSupport

/// The `host/*` child: the bench started again by `HostBenchmarks` with `BENCH_HOST_CHILD` set,
/// so that each entry has a process of its own (its resident memory is the host's alone, and
/// its SDL video is the offscreen driver's whatever the parent brought up).
///
/// It makes one `HostScene`, then for each count of `BENCH_HOST_VIEWS` (ascending) adds views
/// up to that count (views accumulate), runs a cycle of frames (at most `settleSeconds`: the
/// lazily built masks and atlas cells the timed frames need are in place), and times frames
/// one by one, in blocks of 8 with the views and 8 without them in turn (the same host frame
/// with its views left out: the baseline of the marginal cost, measured under the same load):
/// wall time (`Stopwatch`) and the process's CPU time over all its threads
/// (`CLOCK_PROCESS_CPUTIME_ID`: llvmpipe rasterizes on threads of its own). Then it reads its
/// resident memory (`/proc/self/statm`). It writes one line per count on standard output
/// (`HostChild.Report`); errors go to standard error, exit status 1.
enum HostChild {
  static let entryVariable = "BENCH_HOST_CHILD"
  static let viewsVariable = "BENCH_HOST_VIEWS"
  static let quickVariable = "BENCH_HOST_QUICK"

  /// Runs the child and exits when `BENCH_HOST_CHILD` is set; returns at once otherwise.
  static func runIfRequested() {
    let environment = ProcessInfo.processInfo.environment
    guard let entry = environment[entryVariable] else { return }
    let counts = (environment[viewsVariable] ?? "0").split(separator: ",").compactMap {
      Int($0)
    }
    let quick = environment[quickVariable] == "1"
    do {
      try run(entry: entry, counts: counts, quick: quick)
      fflush(nil)
      exit(0)
    } catch {
      printError("bench: \(entry): \(error)")
      exit(1)
    }
  }

  /// Frames timed per count, with the views and (interleaved) without: at least
  /// `minimumFrames` of each, then until `targetSeconds` per set went by or `maximumFrames`
  /// (frames so slow that the minimum would take over four times the target stop at 5).
  struct Plan {
    var minimumFrames: Int
    var maximumFrames: Int
    var targetSeconds: Double
    var settleSeconds: Double

    static let full = Plan(
      minimumFrames: 30, maximumFrames: 600, targetSeconds: 0.75, settleSeconds: 1.5)
    static let quick = Plan(
      minimumFrames: 8, maximumFrames: 120, targetSeconds: 0.1, settleSeconds: 0.15)
  }

  static func run(entry: String, counts: [Int], quick: Bool) throws {
    let parts = entry.split(separator: "/").map(String.init)
    guard parts.count == 2, let kind = HostRendererKind(rawValue: parts[0]) else {
      throw ChildProcess.Failure(description: "unknown host entry \(ErrorLine.quote(entry))")
    }
    let drawer = parts[1]
    let scene = try HostScene(renderer: kind) { p in
      switch drawer {
      case "sprite": return SpriteContent(renderer: p.renderer)
      case "preferred": return LoaderViewContent(loaders: p.loaders, backend: nil)
      default:
        guard let b = RingBackend(rawValue: drawer) else {
          throw ChildProcess.Failure(description: "unknown host drawer \(ErrorLine.quote(drawer))")
        }
        return LoaderViewContent(loaders: p.loaders, backend: b)
      }
    }
    print("renderer \(scene.description)")
    print("preferred \(scene.loaders.defaultBackend(rings: 5).rawValue)")
    let plan = quick ? Plan.quick : Plan.full
    var random = SplitMix64(seed: BenchRun.seed)
    let cycle = LoaderStyle.seed.stagger * Double(LoaderStyle.seed.ringCount)
    for n in counts.sorted() {
      while scene.content.count < n {
        try scene.content.addView(at: scene.time, offset: random.nextUnit() * cycle)
      }
      var report = try measure(scene, plan: plan)
      if n == 1 { report.resizeCPU = try afterResize(scene) }
      print(report.line(views: n, drawnWith: scene.content.drawnWith))
      fflush(nil)
    }
  }

  /// What one count measured: frames with the views, and as many without them (the host's
  /// frame alone) interleaved in blocks, so that the machine's load drifts over both alike.
  struct Report {
    var frames: Frames
    /// The interleaved frames without the views; empty at 0 views.
    var baseline: Frames
    var residentBytes: Int
    /// `HostContent.cachedBytes` after the frames.
    var cachedBytes: Int
    var allocationsPerFrame: Double
    /// Whether a whole cycle of the schedule was drawn before the timing began.
    var settled: Bool
    /// CPU nanoseconds of each of the first frames after the count's new views were added
    /// (`firstSecondFrames` of them, a second at 60 fps: atlas cells, masks and textures
    /// made on first use are in these).
    var firstSecondCPU: [UInt64] = []
    /// At 1 view only: CPU nanoseconds of each of the first `firstSecondFrames` frames after
    /// the host changed its render scale (to `resizeScale`: the views' density changes, as
    /// when a window moves to another display), then back.
    var resizeCPU: [UInt64] = []
    /// SDL render calls per frame (draws, the rest: `CSwiftLoaderRenderCallCounter`), with
    /// the views and in the interleaved frames without them.
    var calls = RenderCalls()
    var baselineCalls = RenderCalls()

    struct RenderCalls {
      var draws = 0.0
      var others = 0.0
      var text: String { "\(draws)/\(others)" }
      init(draws: Double = 0, others: Double = 0) {
        self.draws = draws
        self.others = others
      }
      init?(_ text: Substring) {
        let f = text.split(separator: "/")
        guard f.count == 2, let d = Double(f[0]), let o = Double(f[1]) else { return nil }
        self.init(draws: d, others: o)
      }
    }

    /// One frame each: wall and CPU nanoseconds.
    struct Frames {
      var wall: [UInt64] = []
      var cpu: [UInt64] = []
    }

    /// `views N drawn B rss BYTES cached BYTES allocs A settled 0|1 wall NS,... cpu NS,...
    /// base_wall NS,... base_cpu NS,... first_cpu NS,... calls D/O base_calls D/O` (`-` for
    /// no baseline).
    func line(views: Int, drawnWith: String) -> String {
      func list(_ v: [UInt64]) -> String {
        v.isEmpty ? "-" : v.map(String.init).joined(separator: ",")
      }
      return
        "views \(views) drawn \(drawnWith) rss \(residentBytes) cached \(cachedBytes) allocs \(allocationsPerFrame)"
        + " settled \(settled ? 1 : 0) wall \(list(frames.wall)) cpu \(list(frames.cpu))"
        + " base_wall \(list(baseline.wall)) base_cpu \(list(baseline.cpu))"
        + " first_cpu \(list(firstSecondCPU)) calls \(calls.text) base_calls \(baselineCalls.text)"
        + " resize_cpu \(list(resizeCPU))"
    }

    /// Parses `line`; nil when it is not one.
    static func parse(_ line: Substring) -> (views: Int, drawnWith: String, report: Report)? {
      let f = line.split(separator: " ")
      guard f.count == 28, f[0] == "views", let views = Int(f[1]), f[2] == "drawn",
        f[4] == "rss", let rss = Int(f[5]), f[6] == "cached", let cached = Int(f[7]),
        f[8] == "allocs", let allocs = Double(f[9]), f[10] == "settled", f[12] == "wall",
        f[14] == "cpu", f[16] == "base_wall", f[18] == "base_cpu", f[20] == "first_cpu",
        f[22] == "calls", let calls = RenderCalls(f[23]), f[24] == "base_calls",
        let baseCalls = RenderCalls(f[25]), f[26] == "resize_cpu"
      else { return nil }
      func list(_ s: Substring) -> [UInt64] { s.split(separator: ",").compactMap { UInt64($0) } }
      let frames = Frames(wall: list(f[13]), cpu: list(f[15]))
      let baseline = Frames(wall: list(f[17]), cpu: list(f[19]))
      guard !frames.wall.isEmpty, frames.wall.count == frames.cpu.count,
        baseline.wall.count == baseline.cpu.count
      else { return nil }
      return (
        views, String(f[3]),
        Report(
          frames: frames, baseline: baseline, residentBytes: rss, cachedBytes: cached,
          allocationsPerFrame: allocs, settled: f[11] == "1", firstSecondCPU: list(f[21]),
          resizeCPU: list(f[27]), calls: calls, baselineCalls: baseCalls)
      )
    }
  }

  /// Frames per block of the interleaving.
  static let block = 8

  static func measure(_ scene: HostScene, plan: Plan) throws -> Report {
    // Every angle a view shows recurs after one cycle of its schedule (75 frames for the
    // seed): a cycle and a few frames more draw every mask and atlas cell the timed frames
    // need, unless that takes over `settleSeconds`.
    // The first `firstSecondFrames` of them are timed: the cost of the count's new views'
    // first second.
    let settleStart = Stopwatch.now()
    var settleFrames = 0
    var firstSecond: [UInt64] = []
    while settleFrames < firstSecondFrames
      || (settleFrames < cycleFrames + 5
        && Double(Stopwatch.now() - settleStart) < plan.settleSeconds * 1e9)
    {
      let c0 = processCPUNanoseconds()
      try scene.frame()
      if settleFrames < firstSecondFrames { firstSecond.append(processCPUNanoseconds() - c0) }
      settleFrames += 1
    }
    let interleaved = scene.content.count > 0
    var frames = Report.Frames()
    var baseline = Report.Frames()
    var allocations: UInt64 = 0
    var calls = (draws: UInt64(0), others: UInt64(0))
    var baselineCalls = (draws: UInt64(0), others: UInt64(0))
    let start = Stopwatch.now()
    var k = 0
    while frames.wall.count < plan.maximumFrames, Cancellation.signal == nil || k == 0 {
      let drawing = !interleaved || (k / block) % 2 == 0
      let a0 = AllocationCounter.count
      let (d0, o0) = (crendercalls_draws(), crendercalls_others())
      let c0 = processCPUNanoseconds()
      let t0 = Stopwatch.now()
      try scene.frame(drawingViews: drawing)
      let t1 = Stopwatch.now()
      let c1 = processCPUNanoseconds()
      let (d1, o1) = (crendercalls_draws() - d0, crendercalls_others() - o0)
      if drawing {
        calls = (calls.draws + d1, calls.others + o1)
      } else {
        baselineCalls = (baselineCalls.draws + d1, baselineCalls.others + o1)
      }
      if drawing {
        allocations += AllocationCounter.count - a0
        frames.wall.append(t1 - t0)
        frames.cpu.append(c1 - c0)
      } else {
        baseline.wall.append(t1 - t0)
        baseline.cpu.append(c1 - c0)
      }
      k += 1
      // Both sets are complete at a block's end; slow frames (seconds each) stop at 5 once
      // four times the target went by.
      guard k % block == 0 || !interleaved else { continue }
      let n = min(frames.wall.count, interleaved ? baseline.wall.count : .max)
      let elapsed = Double(t1 - start)
      let target = plan.targetSeconds * (interleaved ? 2 : 1) * 1e9
      if n >= plan.minimumFrames, elapsed >= target { break }
      if n >= 5, elapsed >= 4 * target { break }
    }
    return Report(
      frames: frames, baseline: baseline, residentBytes: residentBytes(),
      cachedBytes: scene.content.cachedBytes,
      allocationsPerFrame: Double(allocations) / Double(frames.wall.count),
      settled: settleFrames >= cycleFrames, firstSecondCPU: firstSecond,
      calls: .init(
        draws: Double(calls.draws) / Double(max(1, frames.wall.count)),
        others: Double(calls.others) / Double(max(1, frames.wall.count))),
      baselineCalls: .init(
        draws: Double(baselineCalls.draws) / Double(max(1, baseline.wall.count)),
        others: Double(baselineCalls.others) / Double(max(1, baseline.wall.count))))
  }

  /// The render scale `afterResize` sets: a density the views have not drawn at.
  static let resizeScale: Float = 1.25

  /// Sets the render scale to `resizeScale` and times the CPU of each of the first
  /// `firstSecondFrames` frames at it, then puts the scale back and draws a frame.
  static func afterResize(_ scene: HostScene) throws -> [UInt64] {
    SDL_RenderSetScale(scene.renderer, resizeScale, resizeScale)
    var cpu: [UInt64] = []
    for _ in 0..<firstSecondFrames {
      let c0 = processCPUNanoseconds()
      try scene.frame()
      cpu.append(processCPUNanoseconds() - c0)
    }
    SDL_RenderSetScale(scene.renderer, 1, 1)
    try scene.frame()
    return cpu
  }

  /// Frames of a second at 60 fps: the first ones after a count's views were added are
  /// timed apart (`Report.firstSecondCPU`).
  static let firstSecondFrames = 60

  /// Frames of one cycle of the seed's schedule (its rings' turns start `stagger` apart and
  /// the cycle repeats after `ringCount` of them).
  static let cycleFrames = Int(
    (LoaderStyle.seed.stagger * Double(LoaderStyle.seed.ringCount) / HostScene.dt).rounded(.up))

  /// CPU time of every thread of the process, nanoseconds.
  static func processCPUNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
  }

  /// Resident memory now: `/proc/self/statm`'s second field, in pages.
  static func residentBytes() -> Int {
    let text = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }
}
