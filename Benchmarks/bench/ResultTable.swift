import Foundation

/// The report on stdout: one row per result as it is measured, then the ratios the issue
/// asks for (soa vs naive, each backend vs Cairo, each entry vs its limit) and the targets.
enum ResultTable {
  static let header =
    pad("name", 18) + lpad("loaders", 9) + lpad("rings", 9) + "  " + pad("unit", 9)
    + lpad("min", 9) + lpad("p50", 9) + lpad("p90", 9) + lpad("p99", 9) + lpad("n", 5) + "  notes"

  static func row(_ r: BenchResult) -> String {
    let s = r.statistics
    return pad(r.name, 18) + lpad(r.loaders > 0 ? Format.count(r.loaders) : "-", 9)
      + lpad(r.rings > 0 ? Format.count(r.rings) : "-", 9) + "  " + pad(r.unit, 9)
      + lpad(Format.value(s.min), 9) + lpad(Format.value(s.p50), 9) + lpad(Format.value(s.p90), 9)
      + lpad(Format.value(s.p99), 9) + lpad("\(s.count)", 5) + "  "
      + r.details.joined(separator: ", ")
  }

  static func pad(_ s: String, _ n: Int) -> String {
    s.count >= n ? s + " " : s + String(repeating: " ", count: n - s.count)
  }
  static func lpad(_ s: String, _ n: Int) -> String {
    s.count >= n ? " " + s : String(repeating: " ", count: n - s.count) + s
  }

  /// `3.2x faster`, or `2.5x slower` for a ratio under 1.
  static func speedup(_ ratio: Double) -> String {
    ratio >= 1 ? "\(Format.value(ratio))x faster" : "\(Format.value(1 / ratio))x slower"
  }

  /// Ratios of p50s, at every size both sides were measured.
  static func ratios(_ results: [BenchResult]) -> [String] {
    var lines: [String] = []
    func find(_ name: String, loaders: Int? = nil, rings: Int? = nil) -> BenchResult? {
      results.first {
        $0.name == name && (loaders == nil || $0.loaders == loaders)
          && (rings == nil || $0.rings == rings)
      }
    }
    for soa in results where soa.name == "step/soa" {
      let at = "@ \(Format.count(soa.loaders)) loaders"
      if let naive = find("step/naive", loaders: soa.loaders) {
        let ratio = naive.statistics.p50 / soa.statistics.p50
        lines.append("step/soa vs step/naive \(at): " + speedup(ratio))
      }
      if let limit = find("limit/bandwidth", loaders: soa.loaders) {
        lines.append(
          "step/soa vs limit/bandwidth \(at): \(Format.value(soa.statistics.p50 / limit.statistics.p50))x the limit"
        )
      }
    }
    lines += SpriteBenchmarks.ratios(results)
    let fill = find("limit/fill")
    for r in results where r.group == "raster" && r.name != "raster/cairo" {
      let at = "@ \(Format.count(r.rings)) rings"
      if let cairo = find("raster/cairo", rings: r.rings) {
        let ratio = cairo.statistics.p50 / r.statistics.p50
        lines.append("\(r.name) vs raster/cairo \(at): " + speedup(ratio))
      }
    }
    for r in results where (r.group == "raster" || r.group == "frame") {
      if let fill, let ms = r.frameMilliseconds, let floor = fill.frameMilliseconds {
        lines.append(
          "\(r.name) vs limit/fill @ \(Format.count(r.rings)) rings: \(Format.value(ms / floor))x the fill floor (\(Format.value(ms)) ms/frame)"
        )
      }
    }
    return lines
  }

  /// The targets, each marked met or MISSED (or not measured in this run).
  static func targets(_ results: [BenchResult]) -> [String] {
    var lines: [String] = []
    func mark(_ ok: Bool) -> String { ok ? "met" : "MISSED" }
    if let soa = results.first(where: { $0.name == "step/soa" && $0.loaders == 100_000 }) {
      let v = soa.statistics.p50
      lines.append("step/soa @ 100k <= 0.5 ns/ring: \(Format.value(v)) -> \(mark(v <= 0.5))")
      if let naive = results.first(where: { $0.name == "step/naive" && $0.loaders == 100_000 }) {
        let x = naive.statistics.p50 / v
        lines.append("step/soa >= 30x step/naive @ 100k: \(Format.value(x))x -> \(mark(x >= 30))")
      }
      if let limit = results.first(where: { $0.name == "limit/bandwidth" && $0.loaders == 100_000 })
      {
        let x = v / limit.statistics.p50
        lines.append(
          "step/soa within 3x of limit/bandwidth @ 100k: \(Format.value(x))x -> \(mark(x <= 3))")
      }
    } else {
      lines.append("step/soa @ 100k: not measured in this run")
    }
    let backends = results.filter { $0.group == "raster" && $0.name != "raster/cairo" }
    let faithful = backends.filter { ($0.psnrDB ?? 0) >= 30 }
    if let best = faithful.min(by: { $0.statistics.p50 < $1.statistics.p50 }) {
      let v = best.statistics.p50
      lines.append(
        "fastest raster at >= 30 dB <= 0.5 us/ring: \(best.name) @ \(Format.count(best.rings)) rings "
          + "\(Format.value(v)) us/ring, \(Format.value(best.psnrDB ?? 0)) dB -> \(mark(v <= 0.5))")
    } else if !backends.isEmpty {
      lines.append("fastest raster at >= 30 dB <= 0.5 us/ring: no backend reached 30 dB -> MISSED")
    }
    let gfx = backends.filter { $0.name == "raster/gfx" }
    if let worst = gfx.max(by: { $0.statistics.p50 < $1.statistics.p50 }) {
      let v = worst.statistics.p50
      lines.append(
        "raster/gfx <= 20 us/ring (every size): worst \(Format.value(v)) us/ring @ \(Format.count(worst.rings)) rings -> \(mark(v <= 20))"
      )
    }
    lines += SpriteBenchmarks.targets(results)
    return lines
  }
}
