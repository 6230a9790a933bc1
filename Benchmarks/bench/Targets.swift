/// Which entries of a run a target or a ratio reads: one name, optionally one size and one
/// thread count.
struct EntrySelector: Sendable {
  enum Threads: Sendable {
    /// Whatever was measured.
    case any
    /// One thread (or an entry with no thread setting).
    case one
    /// `BenchThreads.all`. An entry with no thread setting does not match: it was not
    /// measured at all threads.
    case all
  }

  var name: String
  var loaders: Int? = nil
  var rings: Int? = nil
  var threads: Threads = .any

  func matches(_ r: BenchResult) -> Bool {
    guard r.name == name, loaders.map({ $0 == r.loaders }) ?? true,
      rings.map({ $0 == r.rings }) ?? true
    else { return false }
    switch threads {
    case .any: return true
    case .one: return (r.threads ?? 1) == 1
    case .all: return r.threads == BenchThreads.all
    }
  }

  /// `step/soa @ 1M loaders, 2 threads`.
  var label: String {
    var s = name
    if let n = loaders {
      s += " @ \(Format.count(n)) \(name.hasPrefix("host/") ? "views" : "loaders")"
    }
    if let n = rings { s += " @ \(Format.count(n)) rings" }
    switch threads {
    case .any: break
    case .one: s += ", 1 thread"
    case .all: s += ", \(BenchThreads.all) threads"
    }
    return s
  }
}

/// The machine's floor under each group of entries: what an entry is compared with in the
/// ratios, matched at the same size and thread count.
enum BenchLimits {
  static let byGroup: [Substring: String] = [
    "step": "limit/bandwidth", "raster": "limit/raster", "frame": "limit/fill",
  ]

  /// The limit entry measured beside `r` (same size and threads), if any.
  static func limit(of r: BenchResult, in results: [BenchResult]) -> BenchResult? {
    guard let name = byGroup[r.group] else { return nil }
    let threads = r.threads ?? 1
    return results.first { l in
      l.name == name && (l.threads ?? 1) == threads
        && (name == "limit/fill" || (l.loaders == r.loaders && l.rings == r.rings))
    }
  }
}

/// One target the bench checks, as data: what it reads and when it is met. A run marks each met,
/// MISSED, or not measured; the entries and thresholds live only in `BenchTarget.all`.
struct BenchTarget: Sendable {
  var label: String
  /// What the run shows and whether it meets the target; nil when the run did not measure it.
  var verdict: @Sendable ([BenchResult]) -> (shown: String, met: Bool)?

  /// The targets the bench reports, in order. Adding one is one line.
  static let all: [BenchTarget] = [
    .atMost(.init(name: "raster/spans", rings: 10_000, threads: .all), 0.3, "us/ring"),
    .speedUp(.init(name: "raster/spans", rings: 10_000, threads: .all), atLeast: 1.8),
    .withinLimit(.init(name: "raster/spans", rings: 10_000, threads: .all), factor: 2),
    .atMost(.init(name: "step/soa", loaders: 1_000_000, threads: .all), 0.6, "ns/ring"),
    .limitRatio(everySizeOf: "step/soa", from: 1, to: 2),
    .ratio(.init(name: "jump/100y", loaders: 1_000_000), to: "step/soa", atMost: 10, "steps"),
    .atMost(everySizeOf: "raster/gfx", 20, "us/ring", minimumPSNR: 30),
    .faster("raster/spans", than: "raster/sprite", atLeast: 100),
    .faster("raster/gfx", than: "raster/sprite", atLeast: 5),
    .atMost(.init(name: "cpu/seed-animating"), 2, "% of a core"),
    .atMost(.init(name: "cpu/seed-stopped"), 0.1, "% of a core"),
    .atMost(.init(name: "frame/spans", loaders: 100_000, threads: .all), 16.7, "ms/frame"),
    .marginalCPU(of: "host/opengl/preferred", atMost: 0.2),
    .marginalCPU(of: "host/software/preferred", atMost: 0.2),
    .marginalCPU(of: "host/opengl/preferred", notAbove: "host/opengl/sprite", at: [1, 10, 100]),
    .marginalCPU(
      of: "host/software/preferred", notAbove: "host/software/sprite", at: [1, 10, 100]),
    .atMost(.init(name: "host/opengl/preferred", loaders: 100), 16.7, "ms/frame"),
    .residentGrowth(everyEntryUnder: "host/", views: 40, atMostMB: 20),
    // One view costs no more than the sprite, from its first frame, in memory too; 10 to 100
    // views half the sprite's CPU.
    .addedCPU(of: "host/opengl/preferred", beside: "host/opengl/sprite", views: 1, points: 0.5),
    .residentGrowth(
      of: "host/opengl/preferred", beside: "host/opengl/sprite", views: [1, 40], atMostMB: 1),
    .marginalCPU(
      of: "host/opengl/preferred", atMost: 0.5, of: "host/opengl/sprite", at: [10, 40, 100]),
    .ratio(.init(name: "frame/sprites", loaders: 10_000), to: "frame/spans", atMost: 1.5, "frames"),
    .ratio(.init(name: "frame/sprites", loaders: 1000), to: "frame/spans", atMost: 3, "frames"),
    .ratio(.init(name: "frame/churn", loaders: 1000), to: "frame/spans", atMost: 2, "frames"),
    .ratio(.init(name: "frame/churn-1s", loaders: 1000), to: "frame/spans", atMost: 4, "frames"),
    .noAllocations(everySizeOf: "edit/sprites"),
    .constantTime(everySizeOf: "edit/sprites", factor: 2),
  ]

  static func report(_ results: [BenchResult]) -> [String] {
    all.map { t in
      guard let v = t.verdict(results) else { return "\(t.label): not measured in this run" }
      return "\(t.label): \(v.shown) -> \(v.met ? "met" : "MISSED")"
    }
  }
}

extension BenchTarget {
  /// The selected entry's p50 at most `bound` (in the entry's unit).
  static func atMost(_ s: EntrySelector, _ bound: Double, _ unit: String) -> BenchTarget {
    BenchTarget(label: "\(s.label) <= \(Format.value(bound)) \(unit)") { results in
      guard let r = results.last(where: s.matches) else { return nil }
      return ("\(Format.value(r.statistics.p50)) \(r.unit)", r.statistics.p50 <= bound)
    }
  }

  /// Every size of `name` allocates nothing per measured call.
  static func noAllocations(everySizeOf name: String) -> BenchTarget {
    BenchTarget(label: "\(name) allocates nothing, every size") { results in
      let rs = results.filter { $0.name == name }
      guard !rs.isEmpty else { return nil }
      let most = rs.map { $0.allocationsPerCall ?? .infinity }.max() ?? .infinity
      return ("at most \(Format.value(most)) allocations a call", most == 0)
    }
  }

  /// `name`'s p50 at its largest size within `factor` times its p50 at its smallest: a cost
  /// that does not grow with the size (O(1)).
  static func constantTime(everySizeOf name: String, factor: Double) -> BenchTarget {
    BenchTarget(
      label: "\(name) at its largest size within \(Format.value(factor))x of its smallest (O(1))"
    ) { results in
      let rs = results.filter { $0.name == name }
      guard let small = rs.min(by: { $0.loaders < $1.loaders }),
        let large = rs.max(by: { $0.loaders < $1.loaders }), large.loaders > small.loaders
      else { return nil }
      let x = large.statistics.p50 / small.statistics.p50
      return (
        "\(Format.value(x))x (\(Format.value(large.statistics.p50)) @ \(Format.count(large.loaders)),"
          + " \(Format.value(small.statistics.p50)) @ \(Format.count(small.loaders)) \(small.unit))",
        x <= factor
      )
    }
  }

  /// Every size of `name` at most `bound`, each at `minimumPSNR` dB or more.
  static func atMost(
    everySizeOf name: String, _ bound: Double, _ unit: String, minimumPSNR: Double
  ) -> BenchTarget {
    BenchTarget(
      label:
        "\(name) <= \(Format.value(bound)) \(unit) at >= \(Format.value(minimumPSNR)) dB, every size"
    ) { results in
      let rs = results.filter { $0.name == name }
      guard let worst = rs.max(by: { $0.statistics.p50 < $1.statistics.p50 }) else { return nil }
      let poorest = rs.map { $0.psnrDB ?? -.infinity }.min() ?? -.infinity
      return (
        "worst \(Format.value(worst.statistics.p50)) \(worst.unit) @ \(Format.count(worst.rings)) rings, "
          + "lowest \(Format.value(poorest)) dB",
        worst.statistics.p50 <= bound && poorest >= minimumPSNR
      )
    }
  }

  /// Every selected entry (each thread count) at most `bound` times `peer` at the same size
  /// and thread count (p50 over p50, read as `bound` calls of `peer`): the peer measured
  /// beside the entry (`BenchResult.beside`) where it was, else the peer's own entry.
  static func ratio(
    _ s: EntrySelector, to peer: String, atMost bound: Double, _ unit: String
  ) -> BenchTarget {
    BenchTarget(label: "\(s.label) <= \(Format.value(bound)) \(unit) of \(peer)") { results in
      let ratios: [(BenchResult, Double)] = results.filter(s.matches).compactMap { r in
        if let beside = r.beside, beside.name == peer {
          return (r, r.statistics.p50 / beside.statistics.p50)
        }
        return results.first {
          $0.name == peer && $0.loaders == r.loaders && $0.threads == r.threads
        }.map { (r, r.statistics.p50 / $0.statistics.p50) }
      }
      guard let worst = ratios.max(by: { $0.1 < $1.1 }) else { return nil }
      return (
        "worst \(Format.value(worst.1)) \(unit) @ \(Format.count(worst.0.loaders)) x\(worst.0.threads ?? 1)",
        worst.1 <= bound
      )
    }
  }

  /// The selected entry at `atLeast` times its own 1-thread speed.
  static func speedUp(_ s: EntrySelector, atLeast factor: Double) -> BenchTarget {
    BenchTarget(label: "\(s.label) >= \(Format.value(factor))x its 1-thread figure") { results in
      guard let r = results.last(where: s.matches), let x = r.speedUp(in: results) else {
        return nil
      }
      return ("\(Format.value(x))x", x >= factor)
    }
  }

  /// The selected entry within `factor` times its limit (`BenchLimits`).
  static func withinLimit(_ s: EntrySelector, factor: Double) -> BenchTarget {
    BenchTarget(label: "\(s.label) within \(Format.value(factor))x of its limit") { results in
      guard let r = results.last(where: s.matches), let l = BenchLimits.limit(of: r, in: results)
      else { return nil }
      let x = r.statistics.p50 / l.statistics.p50
      return ("\(Format.value(x))x \(l.name)", x <= factor)
    }
  }

  /// Every size and thread count of `name` between `low` and `high` times its limit: not
  /// faster than the floor (that would be a wrong model), nor far above it.
  static func limitRatio(everySizeOf name: String, from low: Double, to high: Double)
    -> BenchTarget
  {
    BenchTarget(
      label: "\(name) at \(Format.value(low))x to \(Format.value(high))x its limit, every size"
    ) { results in
      let ratios: [(BenchResult, Double)] = results.filter { $0.name == name }.compactMap { r in
        BenchLimits.limit(of: r, in: results).map { (r, r.statistics.p50 / $0.statistics.p50) }
      }
      guard let lo = ratios.min(by: { $0.1 < $1.1 }), let hi = ratios.max(by: { $0.1 < $1.1 })
      else { return nil }
      func at(_ p: (BenchResult, Double)) -> String {
        "\(Format.value(p.1))x @ \(Format.count(p.0.loaders)) x\(p.0.threads ?? 1)"
      }
      return ("\(at(lo)) to \(at(hi))", lo.1 >= low && hi.1 <= high)
    }
  }

  /// `name` at least `factor` times faster than `peer` at every size both measured, each at
  /// a higher PSNR. Both sides at one thread: the peers (`raster/sprite`, Cairo) draw on the
  /// calling thread by nature, so a fair comparison gives the entry no more cores than them.
  static func faster(_ name: String, than peer: String, atLeast factor: Double) -> BenchTarget {
    let entry = EntrySelector(name: name, threads: .one)
    return BenchTarget(
      label: "\(entry.label) >= \(Format.value(factor))x faster than \(peer), at a higher PSNR"
    ) { results in
      let pairs: [(BenchResult, BenchResult)] = results.filter(entry.matches).compactMap { r in
        results.first { $0.name == peer && $0.rings == r.rings && ($0.threads ?? 1) == 1 }
          .map { (r, $0) }
      }
      guard
        let worst = pairs.min(by: {
          $0.1.statistics.p50 / $0.0.statistics.p50 < $1.1.statistics.p50 / $1.0.statistics.p50
        })
      else { return nil }
      let x = worst.1.statistics.p50 / worst.0.statistics.p50
      let sharper = pairs.allSatisfy { ($0.0.psnrDB ?? -.infinity) > ($0.1.psnrDB ?? .infinity) }
      return (
        "worst \(Format.value(x))x @ \(Format.count(worst.0.rings)) rings, "
          + (sharper ? "higher PSNR at every size" : "PSNR not higher at every size"),
        x >= factor && sharper
      )
    }
  }
}

extension BenchTarget {
  /// A host entry's marginal CPU time per view (`HostBenchmarks`) at most `bound` ms at every
  /// count it measured past 0: the worst is shown, with its share of a core at 60 fps.
  static func marginalCPU(of name: String, atMost bound: Double) -> BenchTarget {
    BenchTarget(
      label: "\(name) marginal CPU per view <= \(Format.value(bound)) ms/frame"
        + " (\(Format.value(bound * 6)) % of a core at 60 fps), every count"
    ) { results in
      let rs = results.filter { $0.name == name && $0.host?.marginalCPUMilliseconds != nil }
      guard
        let worst = rs.max(by: {
          ($0.host?.marginalCPUMilliseconds ?? 0) < ($1.host?.marginalCPUMilliseconds ?? 0)
        }), let m = worst.host?.marginalCPUMilliseconds
      else { return nil }
      return (
        "worst \(Format.value(m)) ms @ \(worst.loaders) views (\(Format.value(m * 6)) %)",
        m <= bound
      )
    }
  }

  /// A host entry's marginal CPU time per view at or below `peer`'s at each of `counts` both
  /// measured (each from its own child's empty frame).
  static func marginalCPU(of name: String, notAbove peer: String, at counts: [Int])
    -> BenchTarget
  {
    marginalCPU(of: name, atMost: 1, of: peer, at: counts)
  }

  /// Every entry whose name starts with `prefix`, at `views` views, holds at most `atMostMB`
  /// megabytes (10^6 bytes) more resident memory than its own empty host.
  static func residentGrowth(everyEntryUnder prefix: String, views: Int, atMostMB bound: Double)
    -> BenchTarget
  {
    BenchTarget(
      label: "\(prefix)* @ \(views) views within \(Format.value(bound)) MB of the empty host,"
        + " every entry"
    ) { results in
      let rs = results.filter {
        $0.name.hasPrefix(prefix) && $0.loaders == views && $0.host?.residentGrowthBytes != nil
      }
      guard
        let worst = rs.max(by: {
          ($0.host?.residentGrowthBytes ?? 0) < ($1.host?.residentGrowthBytes ?? 0)
        }), let g = worst.host?.residentGrowthBytes
      else { return nil }
      let mb = Double(g) / 1e6
      return ("worst +\(Format.value(mb)) MB (\(worst.name))", mb <= bound)
    }
  }

  /// At `views` views, the CPU `name` adds over its empty frame, steady and in its first
  /// second, at most `peer`'s plus `points` percentage points of a core at 60 fps, each.
  static func addedCPU(of name: String, beside peer: String, views: Int, points: Double)
    -> BenchTarget
  {
    BenchTarget(
      label: "\(name) @ \(views) view(s): added CPU <= \(peer)'s + \(Format.value(points)) pts,"
        + " steady, in the first second and in the first second after a density change"
    ) { results in
      func figures(_ n: String) -> (steady: Double, first: Double, resize: Double?)? {
        guard let h = results.last(where: { $0.name == n && $0.loaders == views })?.host,
          let steady = h.steadyAddedCPUMilliseconds, let first = h.firstSecondAddedCPUMilliseconds
        else { return nil }
        let points = { (ms: Double) in 100 * ms / (1000 / 60) }
        return (points(steady), points(first), h.afterResizeAddedCPUMilliseconds.map(points))
      }
      guard let a = figures(name), let b = figures(peer) else { return nil }
      var shown =
        "steady \(Format.value(a.steady)) vs \(Format.value(b.steady)) pts, first second"
        + " \(Format.value(a.first)) vs \(Format.value(b.first)) pts"
      var met = a.steady <= b.steady + points && a.first <= b.first + points
      if let ra = a.resize, let rb = b.resize {
        shown += ", after a density change \(Format.value(ra)) vs \(Format.value(rb)) pts"
        met = met && ra <= rb + points
      }
      return (shown, met)
    }
  }

  /// `name`'s resident growth over its empty host at most `peer`'s plus `bound` MB at each of
  /// `views`.
  static func residentGrowth(
    of name: String, beside peer: String, views: [Int], atMostMB bound: Double
  ) -> BenchTarget {
    BenchTarget(
      label: "\(name) RSS growth <= \(peer)'s + \(Format.value(bound)) MB at "
        + views.map(String.init).joined(separator: ", ") + " views"
    ) { results in
      func growth(_ n: String, _ v: Int) -> Double? {
        results.last { $0.name == n && $0.loaders == v }?.host?.residentGrowthBytes.map {
          Double($0) / 1e6
        }
      }
      let pairs = views.compactMap { v in
        growth(name, v).flatMap { a in growth(peer, v).map { (v, a, $0) } }
      }
      guard !pairs.isEmpty else { return nil }
      let shown = pairs.map { "+\(Format.value($0.1)) vs +\(Format.value($0.2)) MB @ \($0.0)" }
        .joined(separator: ", ")
      return (shown, pairs.allSatisfy { $0.1 <= $0.2 + bound })
    }
  }

  /// `name`'s marginal CPU per view at most `factor` times `peer`'s at each of `counts`.
  static func marginalCPU(of name: String, atMost factor: Double, of peer: String, at counts: [Int])
    -> BenchTarget
  {
    BenchTarget(
      label: "\(name) marginal CPU per view <= "
        + (factor == 1 ? "" : "\(Format.value(factor))x ") + "\(peer)'s at "
        + counts.map(String.init).joined(separator: ", ") + " views"
    ) { results in
      func marginal(_ n: String, _ views: Int) -> Double? {
        results.last { $0.name == n && $0.loaders == views }?.host?.marginalCPUMilliseconds
      }
      let pairs = counts.compactMap { c in
        marginal(name, c).flatMap { a in marginal(peer, c).map { (c, a, $0) } }
      }
      guard !pairs.isEmpty else { return nil }
      let shown = pairs.map {
        "\(Format.value($0.1 / $0.2))x (\(Format.value($0.1)) vs \(Format.value($0.2)) ms) @ \($0.0)"
      }.joined(separator: ", ")
      return (shown, pairs.allSatisfy { $0.1 <= factor * $0.2 })
    }
  }
}
