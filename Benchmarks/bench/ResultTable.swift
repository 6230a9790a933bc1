import Foundation

/// The report on stdout: one row per result as it is measured, then the ratios that
/// judge them (soa vs naive, each backend vs Cairo, each entry vs its limit) and the targets.
enum ResultTable {
  static let header =
    pad("name", 18) + lpad("loaders", 9) + lpad("rings", 9) + lpad("threads", 8) + "  "
    + pad("unit", 9)
    + lpad("min", 9) + lpad("p50", 9) + lpad("p90", 9) + lpad("p99", 9) + lpad("n", 5) + "  notes"

  /// One result's line; an entry above one thread notes its speed-up over its 1-thread pair
  /// among `earlier`.
  static func row(_ r: BenchResult, after earlier: [BenchResult] = []) -> String {
    let s = r.statistics
    var details = r.details
    if let x = r.speedUp(in: earlier) { details.append("\(Format.value(x))x of 1 thread") }
    return pad(r.name, 18) + lpad(r.loaders > 0 ? Format.count(r.loaders) : "-", 9)
      + lpad(r.rings > 0 ? Format.count(r.rings) : "-", 9)
      + lpad(r.threads.map { "\($0)" } ?? "-", 8) + "  " + pad(r.unit, 9)
      + lpad(Format.value(s.min), 9) + lpad(Format.value(s.p50), 9) + lpad(Format.value(s.p90), 9)
      + lpad(Format.value(s.p99), 9) + lpad("\(s.count)", 5) + "  "
      + details.joined(separator: ", ")
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

  /// Ratios of p50s, at every size both sides were measured: soa vs naive, a jump vs a step,
  /// each raster backend vs its peers, every threaded entry vs its 1-thread self, every entry
  /// vs its limit.
  static func ratios(_ results: [BenchResult]) -> [String] {
    var lines: [String] = []
    func at(_ r: BenchResult) -> String {
      let size =
        r.group == "step" || r.group == "jump" || r.name == "limit/bandwidth"
        ? "\(Format.count(r.loaders)) loaders" : "\(Format.count(r.rings)) rings"
      return "@ \(size)" + (r.threads.map { ", \($0) thread\($0 == 1 ? "" : "s")" } ?? "")
    }
    for soa in results where soa.name == "step/soa" {
      if let naive = results.first(where: { $0.name == "step/naive" && $0.loaders == soa.loaders })
      {
        lines.append(
          "step/soa vs step/naive \(at(soa)): " + speedup(naive.statistics.p50 / soa.statistics.p50)
        )
      }
    }
    for jump in results where jump.name == "jump/100y" {
      if let step = results.first(where: {
        $0.name == "step/soa" && $0.loaders == jump.loaders && $0.threads == jump.threads
      }) {
        lines.append(
          "jump/100y vs step/soa \(at(jump)): "
            + "\(Format.value(jump.statistics.p50 / step.statistics.p50)) steps")
      }
    }
    let peers = ["raster/cairo", "raster/sprite"]
    for r in results where r.group == "raster" && !peers.contains(r.name) {
      for peer in peers {
        if let p = results.first(where: {
          $0.name == peer && $0.rings == r.rings && ($0.threads ?? 1) == (r.threads ?? 1)
        }) {
          lines.append(
            "\(r.name) vs \(peer) \(at(r)): " + speedup(p.statistics.p50 / r.statistics.p50))
        }
      }
    }
    for r in results {
      if let x = r.speedUp(in: results) {
        lines.append("\(r.name) \(at(r)) vs 1 thread: " + speedup(x))
      }
    }
    for r in results where r.group != "limit" {
      guard let limit = BenchLimits.limit(of: r, in: results) else { continue }
      if limit.name == "limit/fill" {
        if let ms = r.frameMilliseconds, let floor = limit.frameMilliseconds {
          lines.append(
            "\(r.name) vs limit/fill \(at(r)): \(Format.value(ms / floor))x the fill floor (\(Format.value(ms)) ms/frame)"
          )
        }
      } else {
        lines.append(
          "\(r.name) vs \(limit.name) \(at(r)): \(Format.value(r.statistics.p50 / limit.statistics.p50))x the limit"
        )
      }
    }
    return lines
  }

  /// The targets (`BenchTarget.all`), each marked met, MISSED or not measured.
  static func targets(_ results: [BenchResult]) -> [String] { BenchTarget.report(results) }
}
