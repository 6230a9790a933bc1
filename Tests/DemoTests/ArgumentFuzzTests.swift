import Foundation
import LoaderCore
import SwiftLoaderTestSupport
import Testing

@testable import SwiftLoaderDemo

/// Hostile command lines against the built `demo` and `bench`: a seeded generator (SplitMix64)
/// mixes every flag of each table with good values, hostile ones (empty, signs, 0, nan, inf,
/// 1e308, 1e-308, hex, unicode, whitespace, newlines, very long), repeats, missing values and
/// strays. Every run must:
/// - end by `exit`, never by a signal, with status 0 or 2 (1 only with one `demo: ` line
///   naming what failed);
/// - print exactly one stderr line for status 2;
/// - leave nothing behind when it fails (each case runs in its own empty directory);
/// - when it succeeds, leave PNGs that decode and traces that parse with finite numbers.
///
/// `FUZZ_CASES=N` runs N demo cases (and N / 5 bench cases) instead of the default;
/// `FUZZ_SEED=S` changes the seed. A failure prints the seed, the case number and the
/// argument list, which replays it exactly.
@Suite struct ArgumentFuzzTests {
  static let environment = ProcessInfo.processInfo.environment
  static let seed = environment["FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x00F0_22ED_5EED
  static let cases = environment["FUZZ_CASES"].flatMap { Int($0) } ?? 300
  /// Past this much wall time no new case starts (CI's budget on two shared cores).
  static let budgetSeconds =
    environment["FUZZ_BUDGET_SECONDS"].flatMap { Double($0) } ?? (cases > 300 ? 3600 : 100)
  /// A single run slower than this is reported: every run is bounded by the demo's own limits.
  static let slowSeconds = 30.0

  /// Values that break parsers: each kind that has broken a parser somewhere, and a few more.
  static let hostile: [String] = [
    "", " ", "-", "--", "=", ",", "-1", "-0", "+1", "0", "00", "1.5", "nan", "NaN", "-nan", "inf",
    "-inf", "infinity", "1e308", "-1e308", "1e-308", "4.9e-324", "1e400", "0x10", "0x1p-1074",
    "9223372036854775808", "18446744073709551616", "-9223372036854775809", "١٢", "½", "é",
    "日本", "🙂", " 1", "1 ", "\t1", "1\n", "\n", "a\nb", "\r", "\u{1B}[2J", "\u{0}",
    "1,,2", "1,", ",1", "1x", "x1", "1x1x1", "0x0", "-1x-1", "nanxnan", "infx1", "1e308x1e308",
    "4.9e-324x4.9e-324", "#", "#GGGGGG", "FFFFFF,", "FFFFFFFFF", "on ", "OFF", "Round",
    "a.gif.", ".gif", "/", "/dev/null", "/proc/x", "../x", "~",
    String(repeating: "9", count: 100_000), String(repeating: "é", count: 20_000),
    String(repeating: "0,", count: 5000) + "0", String(repeating: "/a", count: 3000),
  ]

  /// Values each flag takes when it should work, kept cheap to render in a debug build.
  static func goodValues(_ flag: String, in dir: String) -> [String] {
    switch flag {
    case "--scene": ["seed", "grid"]
    case "--count": ["1", "3", "40", "200"]
    case "--size": ["390x120", "64x48", "200x100", "1x1", "16x700"]
    case "--zoom": ["1", "0.5", "2", "3"]
    case "--theme": ["light", "dark", "light26", "dark26"]
    case "--backend": ["gfx", "spans", "gpu"]
    case "--threads": ["1", "2", "256"]
    case "--rings": ["1", "3", "7"]
    case "--colors": ["FF0000", "00FF0080,123456", "#0000FF"]
    case "--frame-size": ["20", "50", "80"]
    case "--line-width": ["1", "4", "10"]
    case "--dash": ["2,4,6", "1", "0,3", "5,1,2", "0"]
    case "--dash-phase": ["0", "3", "-7.5"]
    case "--cap": ["round", "butt"]
    case "--turn": ["0.6", "0.1", "2"]
    case "--stagger": ["0.25", "0.05", "1"]
    case "--speed": ["1", "0.5", "3"]
    case "--reduced-motion": ["pulse", "slow", "still"]
    case "--max-fps": ["20", "60", "240"]
    case "--gutter": ["0", "0.3"]
    case "--at": ["0", "0.35,1.3", "2,0.1", "0,0,0"]
    case "--toggle": ["0.1", "0,0.3,0.4"]
    case "--toggle-random": ["1", "18446744073709551615"]
    case "--out": ["\(dir)/o", "\(dir)/o/deeper", "o"]
    case "--trace": ["\(dir)/t.json", "\(dir)/o/t.json", "t.json"]
    case "--record": ["\(dir)/r.gif", "\(dir)/r.webp", "r.mp4", "r.webm", "r.svg", "\(dir)/r.json"]
    case "--svg-animation": ["smil", "css"]
    case "--fps": ["1", "50", "60"]
    case "--duration": ["0.5", "2"]
    case "--hud", "--vsync": ["on", "off"]
    case "--renderer": ["software", "opengl"]
    case "--json": ["\(dir)/r.json"]
    case "--chart": ["\(dir)/c.png"]
    case "--filter": ["limit/fill", "raster/", "step/soa"]
    default: []
    }
  }

  /// One generated argument list: a few flags, each with a good, hostile or missing value,
  /// in `--flag value` or `--flag=value` form, sometimes repeated, sometimes a stray word.
  static func arguments(
    flags: [(name: String, takesValue: Bool)], rng: inout SplitMix64, dir: String
  ) -> [String] {
    var out: [String] = []
    let items = 1 + Int(rng.next() % 6)
    for _ in 0..<items {
      let roll = rng.nextUnit()
      if roll < 0.04 {
        out.append(
          ["stray", "-", "--", "---at", "--bogus", "-h", "--ünïcode", "--at\n"][
            Int(rng.next() % 8)])
        continue
      }
      if roll < 0.08, let last = out.last, last.hasPrefix("--") {
        out.append(last)  // a repeat
        continue
      }
      let flag = flags[Int(rng.next() % UInt64(flags.count))]
      guard flag.takesValue else {
        out.append(rng.nextUnit() < 0.9 ? flag.name : flag.name + "=" + hostile.randomPick(&rng))
        continue
      }
      let good = goodValues(flag.name, in: dir)
      let kind = rng.nextUnit()
      if kind < 0.08 {
        out.append(flag.name)  // missing: the next item (or nothing) follows
        continue
      }
      let value = kind < 0.62 && !good.isEmpty ? good.randomPick(&rng) : hostile.randomPick(&rng)
      if rng.nextUnit() < 0.25 {
        out.append(flag.name + "=" + value)
      } else {
        out += [flag.name, value]
      }
    }
    // A grid with no count is 1000 loaders: keep successful runs cheap.
    if out.contains("--scene"), !out.contains(where: { $0.hasPrefix("--count") }) {
      out += ["--count", "40"]
    }
    return out
  }

  /// Everything under `dir`, relative paths, sorted.
  static func contents(_ dir: URL) -> [String] {
    guard let e = FileManager.default.enumerator(atPath: dir.path) else { return [] }
    return (e.allObjects as? [String] ?? []).sorted()
  }

  /// Every number in a parsed JSON value is finite.
  static func allFinite(_ value: Any) -> Bool {
    switch value {
    case let n as NSNumber: n.doubleValue.isFinite
    case let a as [Any]: a.allSatisfy(allFinite)
    case let d as [String: Any]: d.values.allSatisfy(allFinite)
    default: true
    }
  }

  static func shellQuoted(_ args: [String]) -> String {
    args.map { a in
      let cut = a.count > 60 ? String(a.prefix(60)) + "...(\(a.count) chars)" : a
      return "'" + cut.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }.joined(separator: " ")
  }

  /// Counts of what the runs did, printed at the end (the figures a by-hand run reports).
  struct Tally: CustomStringConvertible {
    var runs = 0
    var byStatus: [Int32: Int] = [:]
    var pngs = 0
    var traces = 0
    var slowest = 0.0
    var seconds = 0.0
    /// What the runs that exited 1 said, to tell a named I/O failure from a bug.
    var failures: [String] = []
    var description: String {
      let statuses = byStatus.keys.sorted().map { "exit \($0): \(byStatus[$0] ?? 0)" }
      return
        "\(runs) runs in \(String(format: "%.1f", seconds)) s (\(statuses.joined(separator: ", ")));"
        + " \(pngs) PNGs decoded, \(traces) traces parsed; slowest run \(String(format: "%.2f", slowest)) s"
        + failures.map { "\n  exit 1: " + $0 }.joined()
    }
  }

  @Test func demoSurvivesHostileArguments() throws {
    let flags = DemoOptions.table.flags.flatMap { f -> [(name: String, takesValue: Bool)] in
      let takes = f.valueName != nil
      return [(f.name, takes)] + f.aliases.map { ($0, takes) }
    }
    var tally = Tally()
    let started = Date()
    for k in 0..<Self.cases {
      if Date().timeIntervalSince(started) > Self.budgetSeconds { break }
      var rng = SplitMix64(seed: Self.seed ^ (UInt64(k) &* 0x9E37_79B9_7F4A_7C15))
      let dir = try ScratchDirectory("fuzz")
      defer { dir.remove() }
      let args = Self.arguments(flags: flags, rng: &rng, dir: dir.path)
      let replay = "FUZZ_SEED=\(Self.seed) case \(k): demo \(Self.shellQuoted(args))"
      let t0 = Date()
      let r = try DemoProcess.run(args, directory: dir.url)
      let spent = Date().timeIntervalSince(t0)
      tally.runs += 1
      tally.byStatus[r.status, default: 0] += 1
      tally.slowest = max(tally.slowest, spent)
      #expect(spent < Self.slowSeconds, "took \(spent) s: \(replay)")
      try Self.check(r, program: "demo", dir: dir.url, replay: replay, tally: &tally)
    }
    tally.seconds = Date().timeIntervalSince(started)
    print("ArgumentFuzzTests demo, seed \(Self.seed): \(tally)")
    #expect(tally.runs >= min(Self.cases, 100), "only \(tally.runs) runs fit the time budget")
  }

  @Test func benchSurvivesHostileArguments() throws {
    let help = try BuiltProduct.run("bench", ["--help"]).stdout
    // `  --name VALUE  help`: a second word in capitals is the value's placeholder.
    let flags: [(name: String, takesValue: Bool)] = help.split(separator: "\n").compactMap {
      line in
      guard line.hasPrefix("  --") else { return nil }
      let words = line.split(separator: " ")
      let takes = words.count > 1 && words[1].first?.isUppercase == true
      return (String(words[0]), takes)
    }
    #expect(flags.count >= 6)
    var tally = Tally()
    let started = Date()
    for k in 0..<max(1, Self.cases / 5) {
      var rng = SplitMix64(seed: Self.seed ^ 0xBE7C ^ (UInt64(k) &* 0x9E37_79B9_7F4A_7C15))
      let dir = try ScratchDirectory("fuzz-bench")
      defer { dir.remove() }
      // Nothing may be measured: every case ends in `--help` or in an unknown option, which
      // starts with `--` so no flag can take it as its value.
      let args =
        Self.arguments(flags: flags, rng: &rng, dir: dir.path)
        + [rng.nextUnit() < 0.3 ? "--help" : "--fuzz-end"]
      let replay = "FUZZ_SEED=\(Self.seed) case \(k): bench \(Self.shellQuoted(args))"
      let t0 = Date()
      let r = try BuiltProduct.run(
        "bench", args, environment: ["BENCH_NO_RELAUNCH": "1"], directory: dir.url)
      tally.slowest = max(tally.slowest, Date().timeIntervalSince(t0))
      tally.runs += 1
      tally.byStatus[r.status, default: 0] += 1
      #expect(r.status == 0 || r.status == 2, "exit \(r.status): \(replay)")
      if r.status == 0 { #expect(r.stdout == help, "\(replay)") }
      try Self.check(r, program: "bench", dir: dir.url, replay: replay, tally: &tally)
      #expect(Self.contents(dir.url).isEmpty, "left \(Self.contents(dir.url)): \(replay)")
    }
    tally.seconds = Date().timeIntervalSince(started)
    print("ArgumentFuzzTests bench, seed \(Self.seed): \(tally)")
  }

  /// The promises every run keeps, whatever its arguments.
  static func check(
    _ r: BuiltProduct, program: String, dir: URL, replay: String, tally: inout Tally
  ) throws {
    #expect(r.reason == .exit, "ended by signal \(r.status): \(replay)")
    #expect([0, 1, 2].contains(r.status), "exit \(r.status): \(replay)\n\(r.stderr)")
    let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    if r.status == 1 { tally.failures.append(String(r.stderr.prefix(300)) + " <- " + replay) }
    if r.status != 0 {
      #expect(
        lines.count == 2 && lines[1].isEmpty && lines[0].hasPrefix("\(program): "),
        "exit \(r.status) wants one stderr line: \(replay)\n\(r.stderr.prefix(2000))")
      let left = contents(dir)
      #expect(left.isEmpty, "a failed run left \(left): \(replay)")
      return
    }
    for path in contents(dir) {
      let file = dir.appendingPathComponent(path).path
      if path.hasSuffix(".png") {
        #expect(throws: Never.self, "\(path) decodes: \(replay)") { _ = try PNGImage(path: file) }
        tally.pngs += 1
      } else if path.hasSuffix(".json") {
        let object = try? JSONSerialization.jsonObject(
          with: Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(object != nil, "\(path) parses: \(replay)")
        if let object { #expect(allFinite(object), "\(path) has non-finite numbers: \(replay)") }
        tally.traces += 1
      }
    }
  }
}

extension Array {
  fileprivate func randomPick(_ rng: inout SplitMix64) -> Element {
    self[Int(rng.next() % UInt64(count))]
  }
}
