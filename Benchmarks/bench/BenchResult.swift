import Foundation

/// One line of the report: an entry measured at one size.
struct BenchResult {
  /// `group/variant`: `step/soa`, `raster/cairo`, `limit/fill`, ...
  var name: String
  /// Loaders in the scene (0 where the entry has none, like `limit/fill`).
  var loaders: Int
  /// Rings in the scene (0 where the entry has none).
  var rings: Int
  /// The unit of the statistics: `ns/ring`, `us/ring`, `ms/frame`, `GB/s`.
  var unit: String
  var statistics: SampleStatistics
  /// Threads the measured code may use (nil where it has no such setting, like `limit/fill`).
  /// Threaded entries are measured at 1 and at all threads: a pair per size.
  var threads: Int? = nil
  /// Raster entries: peak signal-to-noise ratio against Cairo on the same scene.
  var psnrDB: Double?
  /// p50 milliseconds per frame, for entries that draw a frame (raster, frame, fill).
  var frameMilliseconds: Double?
  /// Heap allocations per measured call, where a target reads them (`edit/sprites`,
  /// `BenchTarget.noAllocations`); other entries give theirs in `details` only.
  var allocationsPerCall: Double?
  /// Further table columns: throughput, allocations, PSNR, ...
  var details: [String] = []
  /// `host/*`: what the host process spent and held at this count (`HostBenchmarks`).
  var host: HostFigures? = nil
  /// A peer entry's scene measured in turn with this one, sample for sample, in the same
  /// process (`frame/sprites`: the grid's `frame/spans` beside it): `BenchTarget.ratio` reads
  /// this before the peer's own entry, which ran at another moment of a shared machine.
  var beside: (name: String, statistics: SampleStatistics)? = nil

  /// A host entry's figures beside its wall-time statistics.
  struct HostFigures {
    /// Mean CPU time of the whole process per frame, every thread.
    var cpuMilliseconds: Double
    /// Resident memory after the count's frames (`/proc/self/statm`).
    var residentBytes: Int
    /// The backend the views drew with (`sprite` for the peer); nil at 0 views.
    var drawnWith: String? = nil
    /// Per view over the same child's empty frame: `(p50_N - p50_0) / N` of wall time and
    /// `(mean_N - mean_0) / N` of CPU time; nil at 0 views.
    var marginalWallMilliseconds: Double? = nil
    var marginalCPUMilliseconds: Double? = nil
    /// `RSS_N - RSS_0`; nil at 0 views.
    var residentGrowthBytes: Int? = nil
    /// CPU added over the empty frame, whole frame (not per view), in the first second after
    /// the count's new views were added (`HostChild.firstSecondFrames` frames) and steady
    /// (`marginalCPUMilliseconds * N`); nil at 0 views.
    var firstSecondAddedCPUMilliseconds: Double? = nil
    /// At 1 view: the same over the first second after the host changed its render scale.
    var afterResizeAddedCPUMilliseconds: Double? = nil
    var steadyAddedCPUMilliseconds: Double? = nil
    /// SDL render calls a view adds to a frame: all counted ones, and the draws among them
    /// (`CSwiftLoaderRenderCallCounter`); nil at 0 views.
    var renderCallsPerView: Double? = nil
    var renderDrawsPerView: Double? = nil
  }

  var group: Substring { name.split(separator: "/").first ?? "" }

  /// The name with its thread count where it has one above 1 (`step/soa x2`): one curve of
  /// the chart per entry and thread count.
  var seriesName: String {
    guard let t = threads, t > 1 else { return name }
    return "\(name) x\(t)"
  }

  /// The same entry at the same size measured at `threads` threads.
  func isPair(of other: BenchResult, threads t: Int) -> Bool {
    other.name == name && other.loaders == loaders && other.rings == rings && other.threads == t
  }

  /// Of `results`, this entry's 1-thread p50 over its own: how much the extra threads gave
  /// (nil for a 1-thread or unthreaded entry, or when the 1-thread one was not measured).
  func speedUp(in results: [BenchResult]) -> Double? {
    guard let t = threads, t > 1,
      let one = results.first(where: { isPair(of: $0, threads: 1) })
    else { return nil }
    return one.statistics.p50 / statistics.p50
  }
}

extension BenchResult {
  /// `{"results": [...]}` with the keys in `BenchResult`'s order; raster entries add
  /// `psnr_db`, threaded entries `threads`, and those above one thread `speedup` (their
  /// 1-thread p50 over theirs); host entries add `cpu_ms` (mean CPU per frame), `rss_bytes`,
  /// and past 0 views `drawn_with` (the backend the views drew with), `marginal_cpu_ms`,
  /// `marginal_wall_ms` (per view), `rss_growth_bytes`, `first_second_added_cpu_ms` and
  /// `steady_added_cpu_ms` (the whole frame's), at 1 view `resize_first_second_added_cpu_ms`, `calls_per_view` and `draws_per_view` (SDL
  /// render calls a view adds to a frame). Non-finite numbers are written as
  /// null (JSON has none).
  static func json(_ results: [BenchResult]) -> String {
    func number(_ x: Double) -> String {
      guard x.isFinite else { return "null" }
      return String(format: "%.6g", x)
    }
    func string(_ s: String) -> String {
      var out = "\""
      for u in s.unicodeScalars {
        switch u {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
        default: out.unicodeScalars.append(u)
        }
      }
      return out + "\""
    }
    let lines = results.map { r in
      var fields = [
        "\"name\": \(string(r.name))", "\"loaders\": \(r.loaders)", "\"rings\": \(r.rings)",
        "\"unit\": \(string(r.unit))", "\"min\": \(number(r.statistics.min))",
        "\"p50\": \(number(r.statistics.p50))", "\"p90\": \(number(r.statistics.p90))",
        "\"p99\": \(number(r.statistics.p99))",
      ]
      if let p = r.psnrDB { fields.append("\"psnr_db\": \(number(p))") }
      if let t = r.threads { fields.append("\"threads\": \(t)") }
      if let x = r.speedUp(in: results) { fields.append("\"speedup\": \(number(x))") }
      if let h = r.host {
        fields.append("\"cpu_ms\": \(number(h.cpuMilliseconds))")
        fields.append("\"rss_bytes\": \(h.residentBytes)")
        if let d = h.drawnWith { fields.append("\"drawn_with\": \(string(d))") }
        if let m = h.marginalCPUMilliseconds { fields.append("\"marginal_cpu_ms\": \(number(m))") }
        if let m = h.marginalWallMilliseconds {
          fields.append("\"marginal_wall_ms\": \(number(m))")
        }
        if let g = h.residentGrowthBytes { fields.append("\"rss_growth_bytes\": \(g)") }
        if let m = h.firstSecondAddedCPUMilliseconds {
          fields.append("\"first_second_added_cpu_ms\": \(number(m))")
        }
        if let m = h.afterResizeAddedCPUMilliseconds {
          fields.append("\"resize_first_second_added_cpu_ms\": \(number(m))")
        }
        if let m = h.steadyAddedCPUMilliseconds {
          fields.append("\"steady_added_cpu_ms\": \(number(m))")
        }
        if let c = h.renderCallsPerView { fields.append("\"calls_per_view\": \(number(c))") }
        if let c = h.renderDrawsPerView { fields.append("\"draws_per_view\": \(number(c))") }
      }
      return "    {" + fields.joined(separator: ", ") + "}"
    }
    return "{\"results\": [\n" + lines.joined(separator: ",\n") + "\n]}\n"
  }
}

/// Numbers for people: three or four significant digits, SI suffixes for large rates.
enum Format {
  static func value(_ x: Double) -> String {
    guard x.isFinite else { return "-" }
    let a = abs(x)
    if a == 0 { return "0" }
    if a >= 100_000 { return si(x) }
    if a >= 100 { return String(format: "%.0f", x) }
    if a >= 10 { return String(format: "%.1f", x) }
    if a >= 1 { return String(format: "%.2f", x) }
    if a >= 0.01 { return String(format: "%.3f", x) }
    return String(format: "%.2e", x)
  }

  static func si(_ x: Double) -> String {
    let a = abs(x)
    for (limit, suffix) in [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")] where a >= limit {
      return String(format: "%.2f%@", x / limit, suffix)
    }
    return String(format: "%.0f", x)
  }

  /// `1000` -> `1k`, `100000` -> `100k`, `1000000` -> `1M`.
  static func count(_ n: Int) -> String {
    if n >= 1_000_000, n % 1_000_000 == 0 { return "\(n / 1_000_000)M" }
    if n >= 1000, n % 1000 == 0 { return "\(n / 1000)k" }
    return "\(n)"
  }
}
