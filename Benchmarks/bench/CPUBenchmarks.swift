import Foundation
import LoaderSupport

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

  /// util-linux's `setpriv`, which the demo is started through with `--pdeathsig KILL`: the
  /// kernel kills the demo when the bench dies, by SIGKILL or a crash too, where no handler of
  /// the bench runs (the demo's window loop would otherwise run on for ever, and load every
  /// later measurement). `setpriv` execs the demo in its own process, so `pid` is the demo's.
  /// Only a death in the instant between the spawn and `setpriv`'s `prctl` escapes it; without
  /// `setpriv` the demo is spawned directly.
  static let parentDeathLauncher = ["/usr/bin/setpriv", "/bin/setpriv"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
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
    -> Result<Reading, Failure>
  {
    let log = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bench-cpu-\(getpid()).log"
    ).path
    defer { unlink(log) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    // The child starts with no signal blocked or ignored, whatever this process inherited
    // (a test runner blocks most signals): otherwise SIGTERM would stay pending for ever.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    var all = sigset_t()
    sigemptyset(&none)
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var environment = ProcessInfo.processInfo.environment
    environment["SDL_VIDEODRIVER"] = "offscreen"
    let launcher = parentDeathLauncher.map { [$0, "--pdeathsig", "KILL", "--"] } ?? []
    let argv = (launcher + [demo] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for p in argv { free(p) }
      for p in envp { free(p) }
    }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, parentDeathLauncher ?? demo, &actions, &attributes, argv, envp)
    guard spawned == 0 else {
      return .failure(
        Failure(description: "cannot run \(demo): \(String(cString: strerror(spawned)))"))
    }
    let started = Stopwatch.now()
    var status: Int32 = 0
    var usage = rusage()

    func exitedEarly() -> Failure? {
      guard wait4(pid, &status, WNOHANG, &usage) == pid else { return nil }
      let last =
        (try? String(contentsOfFile: log, encoding: .utf8))?
        .split(separator: "\n").last.map(String.init) ?? "no message"
      return Failure(description: "the demo exited (\(describe(status))) while measured: \(last)")
    }

    // Sleeps in short slices: SIGINT or SIGTERM to the bench stops the child and the run
    // well within `Cancellation.graceSeconds`, so no demo is left running.
    func sleep(_ seconds: Double) {
      let end = Stopwatch.now() + UInt64(seconds * 1e9)
      while case let now = Stopwatch.now(), now < end {
        if let signal = Cancellation.signal {
          kill(pid, SIGKILL)
          while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
          let interruption = Interruption(signal: signal)
          printError("bench: \(interruption)")
          exit(interruption.exitStatus)
        }
        usleep(useconds_t(min(50_000, (end - now) / 1000)))
      }
    }

    sleep(warmup)
    var percents: [Double] = []
    var lastCPU = cpuNanoseconds(of: pid)
    var lastWall = Stopwatch.now()
    while percents.count < samples {
      if let e = exitedEarly() { return .failure(e) }
      sleep(interval)
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
          Failure(
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
      return .failure(Failure(description: "the demo ended with \(describe(status)) on SIGTERM"))
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

  static func describe(_ status: Int32) -> String {
    status & 0x7F == 0 ? "exit status \((status >> 8) & 0xFF)" : "signal \(status & 0x7F)"
  }
}
