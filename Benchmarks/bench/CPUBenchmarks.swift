import Foundation
import SwiftLoaderSupport

/// `cpu/*`: what the demo's real window loop costs the machine, in percent of one core.
///
/// The built `demo` beside the bench runs as a child with a window on SDL's `offscreen`
/// video driver (a real window loop with its event waits and frame pacing, no display
/// needed), animating or stopped (`--toggle 0,0.3`: on at 0, off at 0.3 s, so every turn has
/// ended after about 0.9 s), as the seed (one loader) and as a 10k grid. After a warm-up
/// (start-up and, when stopped, the last turns) the child's CPU time is read every
/// `interval` from `/proc/PID/task/*/schedstat` (nanoseconds on a CPU, per thread), and each
/// interval is one sample:
/// ```
/// % of a core = 100 * (cpu ns at the end - cpu ns at the start) / wall ns of the interval
/// ```
/// The child is then stopped with SIGTERM and reaped with `wait4`, whose `rusage` gives the
/// whole run's figure (start-up included) as a detail.
enum CPUBenchmarks {
  static let names = [
    "cpu/seed-animating", "cpu/seed-stopped", "cpu/grid10k-animating", "cpu/grid10k-stopped",
  ]

  struct Scenario {
    var name: String
    var loaders: Int
    var arguments: [String]
    var stopped: Bool
  }

  static let scenarios: [Scenario] = [
    Scenario(name: names[0], loaders: 1, arguments: [], stopped: false),
    Scenario(name: names[1], loaders: 1, arguments: ["--toggle", "0,0.3"], stopped: true),
    Scenario(name: names[2], loaders: 10_000, arguments: ["--count", "10000"], stopped: false),
    Scenario(
      name: names[3], loaders: 10_000, arguments: ["--count", "10000", "--toggle", "0,0.3"],
      stopped: true),
  ]

  /// Seconds between samples.
  static let interval = 0.5
  /// How long the demo may take to exit after SIGTERM before it is killed.
  static let termGraceSeconds = 5.0

  static func run(_ run: BenchRun) throws {
    let selected = scenarios.filter { run.isSelected($0.name) }
    guard !selected.isEmpty else { return }
    // `swift run -c release bench` builds the bench alone: build the release demo beside it
    // when it is missing (the release relaunch has just built both). A debug bench measures
    // the debug demo that `swift build` made with it, flagged in its notes.
    if demoPath() == nil, !ReleaseRelaunch.isDebugBuild {
      _ = ReleaseRelaunch.build(product: "demo")
    }
    guard let demo = demoPath() else {
      run.note("cpu/*: skipped, no demo executable beside the bench (swift build --product demo)")
      return
    }
    let samples = run.options.quick ? 2 : 6
    for s in selected {
      // Stopped: the turns run out about 0.9 s after the window opens, start-up first.
      let warmup = (run.options.quick ? 1.0 : 1.5) + (s.stopped ? 1 : 0)
      switch measure(demo: demo, arguments: s.arguments, warmup: warmup, samples: samples) {
      case .success(let m):
        var details = [
          "demo \(s.arguments.joined(separator: " "))".trimmingCharacters(in: .whitespaces)
            + " on SDL_VIDEODRIVER=offscreen",
          "\(Format.value(m.wholeRunPercent))% over the whole run (wait4, start-up included)",
        ]
        details += m.said.map { "demo: \($0)" }
        if ReleaseRelaunch.isDebugBuild { details.append("debug demo") }
        run.record(
          BenchResult(
            name: s.name, loaders: s.loaders, rings: s.loaders * StepBenchmarks.style.ringCount,
            unit: "% core", statistics: SampleStatistics(m.percents), psnrDB: nil,
            frameMilliseconds: nil, details: details))
      case .failure(let e):
        run.note("\(s.name): skipped, \(e.description)")
      }
    }
  }

  /// `demo` in the bench's own directory (`/proc/self/exe`), where `swift build` puts both.
  static func demoPath() -> String? {
    guard let me = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    else { return nil }
    let path = URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("demo")
      .path
    return FileManager.default.isExecutableFile(atPath: path) ? path : nil
  }

  struct Reading {
    var percents: [Double]
    var wholeRunPercent: Double
    /// The demo's own last status line (its frame rate, or that it stopped) and the line that
    /// names its renderer: what the share of a core was spent on.
    var said: [String]
  }

  /// Runs `demo arguments` and samples its CPU time (see the type's doc).
  static func measure(demo: String, arguments: [String], warmup: Double, samples: Int)
    -> Result<Reading, ChildProcess.Failure>
  {
    let log = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bench-cpu-\(getpid()).log"
    ).path
    defer { unlink(log) }
    let pid: pid_t
    switch ChildProcess.spawn(
      demo, arguments, environment: ["SDL_VIDEODRIVER": "offscreen"], stdout: nil, stderr: log)
    {
    case .success(let p): pid = p
    case .failure(let f): return .failure(f)
    }
    let started = Stopwatch.now()
    var status: Int32 = 0
    var usage = rusage()

    func exitedEarly() -> ChildProcess.Failure? {
      guard wait4(pid, &status, WNOHANG, &usage) == pid else { return nil }
      let last =
        (try? String(contentsOfFile: log, encoding: .utf8))?
        .split(separator: "\n").last.map(String.init) ?? "no message"
      return ChildProcess.Failure(
        description: "the demo exited (\(ChildProcess.describe(status))) while measured: \(last)")
    }

    ChildProcess.sleep(warmup, watching: pid)
    var percents: [Double] = []
    var lastCPU = cpuNanoseconds(of: pid)
    var lastWall = Stopwatch.now()
    while percents.count < samples {
      if let e = exitedEarly() { return .failure(e) }
      ChildProcess.sleep(interval, watching: pid)
      let cpu = cpuNanoseconds(of: pid)
      let wall = Stopwatch.now()
      percents.append(100 * Double(cpu - lastCPU) / Double(wall - lastWall))
      lastCPU = cpu
      lastWall = wall
    }
    if let e = exitedEarly() { return .failure(e) }
    kill(pid, SIGTERM)
    let termSent = Stopwatch.now()
    while wait4(pid, &status, WNOHANG, &usage) != pid {
      guard Double(Stopwatch.now() - termSent) < termGraceSeconds * 1e9 else {
        kill(pid, SIGKILL)
        while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
        return .failure(
          ChildProcess.Failure(
            description: "the demo was still running \(Format.value(termGraceSeconds)) s after"
              + " SIGTERM (killed)"))
      }
      usleep(10_000)
    }
    let wall = Double(Stopwatch.now() - started) * 1e-9
    // 143 is the demo's own exit on SIGTERM; an older demo dies of the signal.
    let stoppedCleanly =
      (status & 0x7F == 0 && (status >> 8) & 0xFF == 143)
      || (status & 0x7F == 0 && (status >> 8) & 0xFF == 0) || status & 0x7F == SIGTERM
    guard stoppedCleanly else {
      return .failure(
        ChildProcess.Failure(
          description: "the demo ended with \(ChildProcess.describe(status)) on SIGTERM"))
    }
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) * 1e-6 }
    let cpu = seconds(usage.ru_utime) + seconds(usage.ru_stime)
    let lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
    let said = [
      lines.first { $0.contains(" renderer (") }, lines.last { $0.contains("LoaderView: ") },
    ].compactMap { $0.map { String($0.trimmingPrefix("demo: ")) } }
    return .success(Reading(percents: percents, wholeRunPercent: 100 * cpu / wall, said: said))
  }

  /// The CPU time of every thread of `pid`, nanoseconds (first field of each thread's
  /// `schedstat`: time spent running).
  static func cpuNanoseconds(of pid: pid_t) -> UInt64 {
    let dir = "/proc/\(pid)/task"
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
    return tasks.reduce(0) { sum, tid in
      let text = (try? String(contentsOfFile: "\(dir)/\(tid)/schedstat", encoding: .utf8)) ?? ""
      return sum + (text.split(separator: " ").first.flatMap { UInt64($0) } ?? 0)
    }
  }
}
