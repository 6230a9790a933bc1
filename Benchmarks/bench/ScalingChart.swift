import CSwiftLoaderSDL2
import Foundation
import LoaderSDL
import SwiftLoaderCanvas

/// One curve: an entry's p50 at each size.
struct ChartSeries {
  var name: String
  var points: [(x: Double, y: Double)]
  /// A machine limit: drawn dashed and grey-ish; a single point becomes a horizontal line.
  var isLimit: Bool
  /// A whole-frame entry (`frame/*`): a thinner line with square markers, in its backend's
  /// colour, so it reads beside the same backend's `raster/*` line.
  var isWholeFrame = false

  /// Entries that share the part after the `/` share a colour.
  var variant: Substring { name.split(separator: "/").last ?? "" }
}

/// One log-log plot of the chart.
struct ChartPanel {
  var title: String
  var xLabel: String
  var yLabel: String
  var series: [ChartSeries]
}

/// Draws the scaling curves headless with the project's own SDL2_gfx rendering onto an
/// `OffscreenCanvas` and saves them as a PNG: log-log axes with decade ticks and labels, one
/// polyline per entry, a legend under each panel. Text is SDL2_gfx's built-in 8x8 font (the
/// titles at twice that through `SDL_RenderSetScale`).
enum ScalingChart {
  static let panelWidth = 800
  private static let plotTop = 70
  private static let plotBottom = 560
  private static let plotLeft = 80
  private static let plotRight = 770

  static let seriesColors: [(UInt8, UInt8, UInt8)] = [
    (0xD6, 0x27, 0x28), (0x1F, 0x77, 0xB4), (0x2C, 0xA0, 0x2C), (0xFF, 0x7F, 0x0E),
    (0x94, 0x67, 0xBD), (0x8C, 0x56, 0x4B), (0xE3, 0x77, 0xC2), (0x17, 0xBE, 0xCF),
    (0xBC, 0xBD, 0x22), (0x00, 0x00, 0x00),
  ]
  static let limitColors: [(UInt8, UInt8, UInt8)] = [(0x70, 0x70, 0x70), (0xA0, 0xA0, 0xA0)]

  /// The chart as PNG bytes.
  static func png(_ panels: [ChartPanel], footer: [String]) throws -> [UInt8] {
    // Two panels wide even with one, so the footer lines fit.
    // Tall enough for the longest legend (two entries a row) and the footer under it.
    let legendRows =
      panels.map { ($0.series.filter { !$0.points.isEmpty }.count + 1) / 2 }.max() ?? 0
    let height = plotBottom + 50 + legendRows * 20 + 10 + 14 * footer.count
    let canvas = try OffscreenCanvas(width: panelWidth * max(2, panels.count), height: height)
    let r = canvas.renderer
    defer {
      // SDL2_gfx caches glyph textures on the renderer it first drew text with; drop them
      // while that renderer still exists.
      gfxPrimitivesSetFont(nil, 0, 0)
    }
    canvas.clear(.init(hex: 0xFFFFFF))
    for (i, panel) in panels.enumerated() {
      draw(panel, on: r, originX: i * panelWidth)
    }
    for (i, line) in footer.enumerated() {
      text(r, 10, Int16(height - 14 * (footer.count - i)), line, (0x40, 0x40, 0x40))
    }
    return try canvas.pngData()
  }

  // MARK: - Drawing

  private struct LogAxis {
    var low: Double  // log10 of the first decade
    var high: Double  // log10 of the last decade
    var pixelLow: Double
    var pixelHigh: Double
    init(values: [Double], pixelLow: Double, pixelHigh: Double) {
      let logs = values.filter { $0 > 0 && $0.isFinite }.map(log10)
      var lo = (logs.min() ?? 0).rounded(.down)
      var hi = (logs.max() ?? 1).rounded(.up)
      if hi <= lo { (lo, hi) = (lo - 1, hi + 1) }
      low = lo
      high = hi
      self.pixelLow = pixelLow
      self.pixelHigh = pixelHigh
    }
    func pixel(_ v: Double) -> Double {
      pixelLow + (log10(v) - low) / (high - low) * (pixelHigh - pixelLow)
    }
    var decades: [Int] { Array(Int(low)...Int(high)) }
  }

  private static func draw(_ panel: ChartPanel, on r: OpaquePointer, originX: Int) {
    let left = Double(originX + plotLeft)
    let right = Double(originX + plotRight)
    let xs = panel.series.flatMap { s in s.points.count > 1 || !s.isLimit ? s.points.map(\.x) : [] }
    let ys = panel.series.flatMap { $0.points.map(\.y) }
    let xAxis = LogAxis(values: xs, pixelLow: left, pixelHigh: right)
    let yAxis = LogAxis(values: ys, pixelLow: Double(plotBottom), pixelHigh: Double(plotTop))

    // Title (2x) and the y unit above the axis.
    SDL_RenderSetScale(r, 2, 2)
    text(r, Int16((originX + plotLeft) / 2), 8, panel.title, (0, 0, 0))
    SDL_RenderSetScale(r, 1, 1)
    text(r, Int16(originX + 10), Int16(plotTop - 20), panel.yLabel, (0x20, 0x20, 0x20))

    // Grid: decades as lines, 2..9 as ticks.
    let grid: (UInt8, UInt8, UInt8) = (0xDD, 0xDD, 0xDD)
    for d in xAxis.decades {
      let x = Int16(xAxis.pixel(pow(10, Double(d))).rounded())
      vlineRGBA(r, x, Int16(plotTop), Int16(plotBottom), grid.0, grid.1, grid.2, 255)
      let label = decadeLabel(d)
      text(r, x - Int16(label.count * 4), Int16(plotBottom + 8), label, (0x20, 0x20, 0x20))
      if d < Int(xAxis.high) {
        for m in 2...9 {
          let xm = Int16(xAxis.pixel(Double(m) * pow(10, Double(d))).rounded())
          vlineRGBA(r, xm, Int16(plotBottom - 5), Int16(plotBottom), 0x60, 0x60, 0x60, 255)
        }
      }
    }
    for d in yAxis.decades {
      let y = Int16(yAxis.pixel(pow(10, Double(d))).rounded())
      hlineRGBA(r, Int16(left), Int16(right), y, grid.0, grid.1, grid.2, 255)
      let label = decadeLabel(d)
      text(r, Int16(left) - 6 - Int16(label.count * 8), y - 4, label, (0x20, 0x20, 0x20))
      if d < Int(yAxis.high) {
        for m in 2...9 {
          let ym = Int16(yAxis.pixel(Double(m) * pow(10, Double(d))).rounded())
          hlineRGBA(r, Int16(left), Int16(left) + 5, ym, 0x60, 0x60, 0x60, 255)
        }
      }
    }
    rectangleRGBA(
      r, Int16(left), Int16(plotTop), Int16(right), Int16(plotBottom), 0x20, 0x20, 0x20, 255)
    let xLabelX = Int16((left + right) / 2) - Int16(panel.xLabel.count * 4)
    text(r, xLabelX, Int16(plotBottom + 24), panel.xLabel, (0x20, 0x20, 0x20))

    // Curves.
    var limitIndex = 0
    var variants: [Substring] = []
    var legend: [(String, (UInt8, UInt8, UInt8), ChartSeries)] = []
    for s in panel.series where !s.points.isEmpty {
      let c: (UInt8, UInt8, UInt8)
      if s.isLimit {
        c = limitColors[limitIndex % limitColors.count]
        limitIndex += 1
      } else if s.variant == "cairo" {
        c = (0, 0, 0)
      } else {
        if !variants.contains(s.variant) { variants.append(s.variant) }
        c = seriesColors[(variants.firstIndex(of: s.variant) ?? 0) % seriesColors.count]
      }
      legend.append((s.name, c, s))
      let pts = s.points.filter { $0.x > 0 && $0.y > 0 }.sorted { $0.x < $1.x }
      if s.isLimit && pts.count == 1 {
        let y = yAxis.pixel(pts[0].y)
        dashedLine(r, from: (left, y), to: (right, y), c)
        continue
      }
      let pixels = pts.map { (xAxis.pixel($0.x), yAxis.pixel($0.y)) }
      for (a, b) in zip(pixels, pixels.dropFirst()) {
        line(r, s, from: a, to: b, c)
      }
      for p in pixels { marker(r, s, at: p, c) }
    }

    // Legend: two columns under the plot.
    for (i, item) in legend.enumerated() {
      let x = Double(originX + plotLeft + (i % 2) * 340)
      let y = Double(plotBottom + 50 + (i / 2) * 20)
      line(r, item.2, from: (x, y + 4), to: (x + 30, y + 4), item.1)
      marker(r, item.2, at: (x + 15, y + 4), item.1)
      text(r, Int16(x + 40), Int16(y), item.0, (0, 0, 0))
    }
  }

  private static func line(
    _ r: OpaquePointer, _ s: ChartSeries, from a: (Double, Double), to b: (Double, Double),
    _ c: (UInt8, UInt8, UInt8)
  ) {
    if s.isLimit {
      dashedLine(r, from: a, to: b, c)
    } else if s.isWholeFrame {
      aalineRGBA(
        r, Int16(a.0.rounded()), Int16(a.1.rounded()), Int16(b.0.rounded()), Int16(b.1.rounded()),
        c.0, c.1, c.2, 255)
    } else {
      thickLine(r, from: a, to: b, c)
    }
  }

  private static func marker(
    _ r: OpaquePointer, _ s: ChartSeries, at p: (Double, Double), _ c: (UInt8, UInt8, UInt8)
  ) {
    let (x, y) = (Int16(p.0.rounded()), Int16(p.1.rounded()))
    if s.isWholeFrame {
      boxRGBA(r, x - 4, y - 4, x + 4, y + 4, 255, 255, 255, 255)
      rectangleRGBA(r, x - 4, y - 4, x + 4, y + 4, c.0, c.1, c.2, 255)
      rectangleRGBA(r, x - 3, y - 3, x + 3, y + 3, c.0, c.1, c.2, 255)
    } else if !s.isLimit || s.points.count > 1 {
      filledCircleRGBA(r, x, y, 4, c.0, c.1, c.2, 255)
      aacircleRGBA(r, x, y, 4, c.0, c.1, c.2, 255)
    }
  }

  /// `10^d` as a short label: 1m (milli) .. 1G, plain digits between 0.01 and 100.
  static func decadeLabel(_ d: Int) -> String {
    switch d {
    case -2: "0.01"
    case -1: "0.1"
    case 0: "1"
    case 1: "10"
    case 2: "100"
    case 3...: ["1k", "10k", "100k", "1M", "10M", "100M", "1G", "10G", "100G"][min(d - 3, 8)]
    default: "1e\(d)"
    }
  }

  private static func text(
    _ r: OpaquePointer, _ x: Int16, _ y: Int16, _ s: String, _ c: (UInt8, UInt8, UInt8)
  ) {
    stringRGBA(r, x, y, s, c.0, c.1, c.2, 255)
  }

  /// A 3-pixel-wide antialiased line: three `aalineRGBA`s a pixel apart across it.
  private static func thickLine(
    _ r: OpaquePointer, from a: (Double, Double), to b: (Double, Double), _ c: (UInt8, UInt8, UInt8)
  ) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1)
    let length = max((dx * dx + dy * dy).squareRoot(), 1e-9)
    let (nx, ny) = (-dy / length, dx / length)
    for k in [-1.0, 0, 1] {
      aalineRGBA(
        r, Int16((a.0 + k * nx).rounded()), Int16((a.1 + k * ny).rounded()),
        Int16((b.0 + k * nx).rounded()), Int16((b.1 + k * ny).rounded()), c.0, c.1, c.2, 255)
    }
  }

  private static func dashedLine(
    _ r: OpaquePointer, from a: (Double, Double), to b: (Double, Double), _ c: (UInt8, UInt8, UInt8)
  ) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1)
    let length = (dx * dx + dy * dy).squareRoot()
    guard length > 0 else { return }
    var s = 0.0
    while s < length {
      let e = min(s + 10, length)
      thickLine(
        r, from: (a.0 + dx * s / length, a.1 + dy * s / length),
        to: (a.0 + dx * e / length, a.1 + dy * e / length), c)
      s += 16
    }
  }
}

extension ScalingChart {
  /// The chart of a run: per-ring step cost by loaders, and per-frame cost by rings.
  static func panels(from results: [BenchResult]) -> [ChartPanel] {
    func series(_ group: String, x: (BenchResult) -> Double, y: (BenchResult) -> Double?)
      -> [ChartSeries]
    {
      var order: [String] = []
      var byName: [String: [(x: Double, y: Double)]] = [:]
      for r in results where r.group == group {
        guard let v = y(r) else { continue }
        if byName[r.seriesName] == nil { order.append(r.seriesName) }
        byName[r.seriesName, default: []].append((x(r), v))
      }
      return order.map { ChartSeries(name: $0, points: byName[$0] ?? [], isLimit: false) }
    }
    var step = series("step", x: { Double($0.loaders) }, y: { $0.statistics.p50 })
    step += series("limit", x: { Double($0.loaders) }, y: { $0.statistics.p50 })
      .filter { $0.name.hasPrefix("limit/bandwidth") }.map {
        ChartSeries(name: $0.name, points: $0.points, isLimit: true)
      }
    var frame = series("raster", x: { Double($0.rings) }, y: { $0.frameMilliseconds })
    frame += series("frame", x: { Double($0.rings) }, y: { $0.frameMilliseconds }).map {
      var s = $0
      s.isWholeFrame = true
      return s
    }
    frame += series("limit", x: { Double($0.rings) }, y: { $0.frameMilliseconds })
      .filter { $0.name.hasPrefix("limit/raster") }.map {
        ChartSeries(name: $0.name, points: $0.points, isLimit: true)
      }
    for r in results where r.name == "limit/fill" {
      frame.append(ChartSeries(name: "limit/fill", points: [(1, r.statistics.p50)], isLimit: true))
    }
    var panels: [ChartPanel] = []
    if !step.isEmpty {
      panels.append(
        ChartPanel(
          title: "engine step, per ring", xLabel: "loaders (5 rings each)",
          yLabel: "ns per ring (p50, log scale; lower is better)", series: step))
    }
    if !frame.isEmpty {
      panels.append(
        ChartPanel(
          title: "rasterizing, per frame", xLabel: "rings in the 1920x1080 frame",
          yLabel: "ms per frame (p50, log scale; lower is better)", series: frame))
    }
    return panels
  }
}
