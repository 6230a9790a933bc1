import CSwiftLoaderSDL2
import Foundation
import LoaderCore
import LoaderSDL
import SwiftLoaderTestSupport

/// `frame/churn` and `frame/churn-1s`: loaders of many sizes whose shapes and positions
/// keep changing, the scene that keeps building masks, beside the grid's `frame/spans` of the
/// same ring count in the same run.
///
/// 1,000 seed loaders in one `.free` field on 1920x1080, heights spread evenly over 10-120
/// points (seeded), coloured as `frame/sprites`' sprites; every tenth drifts by a sub-pixel
/// amount each frame (0.05-0.5 px, bouncing off the edges), every fiftieth breathes by 20 %
/// of its height over two seconds; the rest stand still. Drawn on `spans`, at 1 thread and
/// all, from an empty `LoaderRenderer`:
/// - `frame/churn-1s`: the mean draw of the first second's 60 frames, each beside a frame of
///   the settled grid;
/// - `frame/churn`: after two seconds of frames, the draw (clear, draw, present) beside the
///   grid's, frame for frame, as `frame/sprites`.
/// The notes give the masks built a frame (`MaskCache.masksBuilt`) and the bytes the
/// renderer's caches hold (`cachedBytes`, as allocated) against its budget.
enum ChurnBenchmarks {
  static let names = ["frame/churn", "frame/churn-1s"]
  static let loaders = 1000
  static let size = (width: 1920.0, height: 1080.0)

  /// The loaders of the scene and how each one changes.
  struct Scene {
    let field: LoaderField
    var frames: [LoaderRect] = []
    /// Per loader: its drift a frame (pixels; zero for one that stands still).
    var drift: [(x: Float, y: Float)] = []
    /// Per loader: whether it breathes, and its height at rest.
    var breathes: [Bool] = []
    var height: [Float] = []
    let aspect: Float

    init(threads: Int) throws {
      let style = StepBenchmarks.style
      field = try LoaderField(
        style: style, layout: .free, backend: .spans, capacity: loaders, threads: threads)
      let natural = RowLayout.naturalSize(style: style)
      aspect = Float(natural.width / natural.height)
      var rng = SplitMix64(seed: BenchRun.seed ^ 0xC4_0211)
      for (i, start) in StepBenchmarks.startTimes(count: loaders).enumerated() {
        let h = Float(10 + 110 * (Double(i) + rng.nextUnit()) / Double(loaders))
        let w = h * aspect
        let r = LoaderRect(
          x: Float(rng.nextUnit()) * (Float(size.width) - w),
          y: Float(rng.nextUnit()) * (Float(size.height) - h), width: w, height: h)
        let speed = Float(0.05 + 0.45 * rng.nextUnit())
        let direction = Float(rng.nextUnit() * 2 * Double.pi)
        frames.append(r)
        height.append(h)
        drift.append(i % 10 == 0 ? (speed * cos(direction), speed * sin(direction)) : (0, 0))
        breathes.append(i % 50 == 1)
        let id = try field.addLoader(isAnimating: true, at: start, frame: r)
        let hue = rng.nextUnit()
        try field.setColors(
          (0..<style.ringCount).map {
            FreePlacementBenchmarks.Scene.color(hue: hue + Double($0) / 12)
          }, of: id)
      }
    }

    /// Moves the drifting loaders on and resizes the breathing ones to time `t`.
    mutating func step(to t: Double) throws {
      let ids = field.loaders
      for i in frames.indices where breathes[i] || drift[i] != (0, 0) {
        var r = frames[i]
        if breathes[i] {
          r.height = height[i] * Float(1 + 0.2 * sin(t * Double.pi))
          r.width = r.height * aspect
        }
        let (x, vx) = FreePlacementBenchmarks.Scene.bounce(
          Double(r.x + drift[i].x), Double(drift[i].x), room: size.width - Double(r.width))
        let (y, vy) = FreePlacementBenchmarks.Scene.bounce(
          Double(r.y + drift[i].y), Double(drift[i].y), room: size.height - Double(r.height))
        (r.x, r.y) = (Float(x), Float(y))
        drift[i] = (Float(vx), Float(vy))
        frames[i] = r
        try field.setFrame(r, of: ids[i])
      }
    }
  }

  static func run(_ run: BenchRun) throws {
    guard run.isSelected(names[0]) || run.isSelected(names[1]) else { return }
    for threads in BenchThreads.counts { try frame(run, threads: threads) }
  }

  static func frame(_ run: BenchRun, threads: Int) throws {
    let grid = try FrameBenchmarks.GridScene(
      run, loaders: loaders, backend: .spans, threads: threads)
    _ = grid.settle()
    var scene = try Scene(threads: threads)
    let screen = try FreePlacementBenchmarks.Screen(run)
    let canvas = screen.canvas
    let dt = StepBenchmarks.dt
    var t = Double(StepBenchmarks.settlingSteps) * dt
    var failure: (any Error)?
    var built = 0
    var frames = 0
    var mostBytes = 0
    var cost = MaskBuildCost()
    let move = {
      t += dt
      do { try scene.step(to: t) } catch { failure = error }
    }
    let draw = {
      let before = MaskCache.masksBuilt.load(ordering: .relaxed)
      let costBefore = MaskBuildCost.now
      do { try screen.draw(scene.field, at: t) } catch { failure = error }
      built += MaskCache.masksBuilt.load(ordering: .relaxed) - before
      cost.add(since: costBefore)
      frames += 1
      mostBytes = max(mostBytes, canvas.loaderRenderer.cachedBytes)
    }
    // The first second, each frame beside one of the settled grid.
    let firstSecond = Int((1 / dt).rounded())
    var first: (churn: [Double], grid: [Double]) = ([], [])
    for _ in 0..<firstSecond {
      move()
      first.churn.append(Double(Sampler.timed(draw).nanoseconds) * 1e-6)
      first.grid.append(Double(Sampler.timed(grid.frame).nanoseconds) * 1e-6)
    }
    let firstBuilt = Double(built) / Double(frames)
    let firstCost = cost
    // On to two seconds, then the steady frames beside the grid's.
    for _ in firstSecond..<(2 * firstSecond) {
      move()
      draw()
    }
    (built, frames, mostBytes) = (0, 0, 0)
    cost = MaskBuildCost()
    let (m, g) = Sampler.measureAlternating(
      run.plan, minimumPairs: run.options.quick ? 10 : FreePlacementBenchmarks.besidePairs,
      untimed: move, draw, beside: grid.frame)
    if let failure = failure ?? grid.failure { throw failure }
    if let dir = run.framesDirectory {
      try canvas.savePNG(to: "\(dir)/frame-churn-x\(threads).png")
    }
    let budget = Double(canvas.loaderRenderer.budgetBytes) / 1e6
    let mean = { (xs: [Double]) in xs.reduce(0, +) / Double(max(1, xs.count)) }
    let firstMs = SampleStatistics(first.churn)
    let firstGrid = SampleStatistics(first.grid)
    let early = FreePlacementBenchmarks.besideGrid(
      names[1], loaders: loaders, threads: threads, firstMs, grid: firstGrid,
      details: [
        "mean \(Format.value(mean(first.churn))) ms/frame over the first second's \(firstSecond) frames",
        "\(Format.value(firstBuilt)) masks built/frame",
        firstCost.description,
      ])
    if run.isSelected(names[1]) { run.record(early) }
    let r = FreePlacementBenchmarks.besideGrid(
      names[0], loaders: loaders, threads: threads, m.nanosecondsPerCall.scaled(by: 1e-6),
      grid: g.nanosecondsPerCall.scaled(by: 1e-6),
      details: [
        "\(Format.value(Double(built) / Double(max(1, frames)))) masks built/frame",
        cost.description,
        "\(scene.field.drawnShapeCount) ring sizes, \(Format.count(scene.field.drawnRingCount)) rings drawn",
        "caches at most \(Format.value(Double(mostBytes) / 1e6)) MB of a \(Format.value(budget)) MB budget",
        "\(Format.value(m.allocationsPerCall)) allocs/frame",
      ], pairs: " (\(m.calls) pairs)")
    if run.isSelected(names[0]) { run.record(r) }
  }
}
