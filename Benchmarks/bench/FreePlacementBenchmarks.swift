import CSwiftLoaderSDL2
import Foundation
import LoaderCore
import LoaderSDL
import SwiftLoaderCanvas
import SwiftLoaderTestSupport

/// `frame/sprites` and `edit/sprites`: loaders placed anywhere (`LoaderField`'s `.free`
/// layout), beside the grid's `frame/<backend>`.
///
/// - `frame/sprites`: `N` seed loaders riding bouncing sprites on 1920x1080 (SDL's
///   testsprite2: positions and velocities in separate arrays, seeded), every loader moved
///   and resized every frame. So that the frame holds as much ink as the grid's at the same
///   `N`, a sprite's height is `u` times the grid's loader height at `N` (`u` seeded in
///   `0.5...1.5`), breathing by 20% on its own phase; its width keeps the row's aspect. A
///   frame is the grid's (clock, clear, `draw`, present) plus one `setFrame` a loader, on
///   `spans` (the backend the grid's target is stated for), at 1 thread and all.
/// - `edit/sprites`: one `setFrame` (move and resize) and one `setColors` of the next loader
///   of `N` in turn, timed per edit with the allocations it makes: O(1), none. The loaders are
///   swept in order, as a host updating its sprites each frame does, so the figure is the
///   edit's own work; picked at random from 100k, each edit also waits for three or four
///   cache misses, whatever the algorithm.
enum FreePlacementBenchmarks {
  static let names = ["frame/sprites", "edit/sprites"]

  static func run(_ run: BenchRun) throws {
    if run.isSelected(names[0]) {
      for n in run.sizes.spriteLoaders where !run.exceedsBudget(names[0], size: n) {
        for threads in BenchThreads.counts { try frame(run, loaders: n, threads: threads) }
      }
    }
    if run.isSelected(names[1]) {
      for n in run.sizes.editLoaders { try edit(run, loaders: n) }
    }
  }

  static let size = (width: 1920.0, height: 1080.0)
  /// How many times `frame/*`'s settling time `frame/sprites` settles for, at least and at
  /// most.
  static let settleFactor = (least: 1.5, most: 8.0)
  /// Frames of each scene, at least, in `frame/sprites`' alternating samples (`--quick`: 10).
  static let besidePairs = 60

  /// The sprites of `frame/sprites` and the field they carry.
  struct Scene {
    var x: [Double] = []
    var y: [Double] = []
    var vx: [Double] = []
    var vy: [Double] = []
    /// Height at rest, points, and the phase of its breathing.
    var base: [Double] = []
    var phase: [Double] = []
    let field: LoaderField
    let aspect: Double

    init(loaders n: Int, threads: Int) throws {
      let style = StepBenchmarks.style
      field = try LoaderField(
        style: style, layout: .free, backend: .spans, capacity: n, threads: threads)
      let natural = RowLayout.naturalSize(style: style)
      aspect = natural.width / natural.height
      let grid = try GridLayout(count: n, width: size.width, height: size.height, style: style)
      var rng = SplitMix64(seed: BenchRun.seed ^ 0x5B17E ^ UInt64(n))
      for start in StepBenchmarks.startTimes(count: n) {
        let h = natural.height * grid.fit * (0.5 + rng.nextUnit())
        let (px, py) = (
          rng.nextUnit() * (size.width - h * aspect), rng.nextUnit() * (size.height - h)
        )
        base.append(h)
        phase.append(rng.nextUnit() * 2 * Double.pi)
        x.append(px)
        y.append(py)
        let speed = 60 + 180 * rng.nextUnit()
        let direction = rng.nextUnit() * 2 * Double.pi
        vx.append(speed * cos(direction))
        vy.append(speed * sin(direction))
        let id = try field.addLoader(
          isAnimating: true, at: start,
          frame: SDL_FRect(x: Float(px), y: Float(py), w: Float(h * aspect), h: Float(h)))
        let hue = rng.nextUnit()
        try field.setColors(
          (0..<style.ringCount).map { Self.color(hue: hue + Double($0) / 12) }, of: id)
      }
    }

    /// Moves and resizes every sprite to time `t`, `dt` after the last call.
    mutating func step(to t: Double, dt: Double) throws {
      let loaders = field.loaders
      for i in x.indices {
        let h = base[i] * (1 + 0.2 * sin(t * Double.pi + phase[i]))
        let w = h * aspect
        (x[i], vx[i]) = Self.bounce(x[i] + vx[i] * dt, vx[i], room: size.width - w)
        (y[i], vy[i]) = Self.bounce(y[i] + vy[i] * dt, vy[i], room: size.height - h)
        try field.setFrame(
          SDL_FRect(x: Float(x[i]), y: Float(y[i]), w: Float(w), h: Float(h)), of: loaders[i])
      }
    }

    /// testsprite2's bounce: a sprite past an edge is put back on it, moving away.
    static func bounce(_ p: Double, _ v: Double, room: Double) -> (Double, Double) {
      if p < 0 { return (0, abs(v)) }
      if p > room { return (max(0, room), -abs(v)) }
      return (p, v)
    }

    static func color(hue: Double) -> RGBAColor {
      let h = (hue - hue.rounded(.down)) * 3
      let f = h - h.rounded(.down)
      let up = UInt8(40 + 200 * f)
      let down = UInt8(240 - 200 * f)
      switch Int(h) {
      case 0: return RGBAColor(r: down, g: up, b: 40)
      case 1: return RGBAColor(r: 40, g: down, b: up)
      default: return RGBAColor(r: up, g: 40, b: down)
      }
    }
  }

  static func frame(_ run: BenchRun, loaders n: Int, threads: Int) throws {
    var scene = try Scene(loaders: n, threads: threads)
    let screen = try Screen(run)
    let canvas = screen.canvas
    let dt = StepBenchmarks.dt
    var t = Double(StepBenchmarks.settlingSteps) * dt
    var failure: (any Error)?
    // The sprites' motion (a `setFrame` a loader), timed apart from the frame's draw.
    var motion: (nanoseconds: UInt64, frames: Int) = (0, 0)
    let move = {
      t += dt
      let t0 = Stopwatch.now()
      do { try scene.step(to: t, dt: dt) } catch { failure = error }
      motion = (motion.nanoseconds + (Stopwatch.now() - t0), motion.frames + 1)
    }
    var built = (masks: 0, frames: 0)
    var cost = MaskBuildCost()
    let draw = {
      let before = MaskCache.masksBuilt.load(ordering: .relaxed)
      let costBefore = MaskBuildCost.now
      do { try screen.draw(scene.field, at: t) } catch { failure = error }
      built = (
        built.masks + MaskCache.masksBuilt.load(ordering: .relaxed) - before, built.frames + 1
      )
      cost.add(since: costBefore)
    }
    let frame = {
      move()
      draw()
    }
    // As `frame/*`: frames until `quietFrames` in a row allocate nothing, here also until the
    // renderer's caches stopped growing (under 0.5 % over the last `quietFrames` frames),
    // within `settleFactor` times `frame/*`'s settling time: moving, resizing rings visit
    // every sub-pixel offset and rotation phase of a few dozen shapes at random (185k masks
    // at 10k loaders, the last of them found after about 12 s here), and masks are built
    // without allocating once their buffers have grown, so the quiet frames come long before
    // the steady state that the timed frames are meant to show.
    let settleStart = Stopwatch.now()
    let base = FrameBenchmarks.settleSeconds(run)
    func elapsed() -> Double { Double(Stopwatch.now() - settleStart) * 1e-9 }
    var quiet = 0
    var settleFrames = 0
    var cached = (bytes: 0, growing: true)
    while quiet < FrameBenchmarks.quietFrames || cached.growing
      || elapsed() < base * Self.settleFactor.least,
      elapsed() < base * Self.settleFactor.most
    {
      let before = AllocationCounter.count
      frame()
      quiet = AllocationCounter.count == before ? quiet + 1 : 0
      settleFrames += 1
      if settleFrames % FrameBenchmarks.quietFrames == 0 {
        let now = canvas.loaderRenderer.cachedBytes
        cached = (now, now > cached.bytes + cached.bytes / 200)
      }
    }
    let settled = elapsed()
    // The grid's frame (`frame/spans` at the same size and threads) on a canvas of its own,
    // measured in turn with this one: the target's ratio then compares frames drawn at the
    // same moments of a shared machine, not two entries minutes apart.
    let grid = try FrameBenchmarks.GridScene(run, loaders: n, backend: .spans, threads: threads)
    _ = grid.settle()
    motion = (0, 0)
    built = (0, 0)
    cost = MaskBuildCost()
    let (m, g) = Sampler.measureAlternating(
      run.plan, minimumPairs: run.options.quick ? 10 : besidePairs, untimed: move, draw,
      beside: grid.frame)
    run.noteCallCost(
      names[0], size: n,
      seconds: (m.nanosecondsPerCall.p50 + g.nanosecondsPerCall.p50) * 1e-9)
    if let failure = failure ?? grid.failure { throw failure }
    if let dir = run.framesDirectory {
      try canvas.savePNG(to: "\(dir)/frame-sprites-x\(threads)-\(n).png")
    }
    let ms = m.nanosecondsPerCall.scaled(by: 1e-6)
    let gridMs = g.nanosecondsPerCall.scaled(by: 1e-6)
    let r = besideGrid(
      names[0], loaders: n, threads: threads, ms, grid: gridMs,
      details: [
        "\(Format.value(1000 / ms.p50)) frames/s (the draw)",
        "motion \(Format.value(Double(motion.nanoseconds) * 1e-6 / Double(max(1, motion.frames)))) ms/frame apart"
          + " (a setFrame a loader)",
        "\(scene.field.drawnShapeCount) ring sizes, \(Format.count(scene.field.drawnRingCount))"
          + " rings drawn",
        "\(Format.value(Double(built.masks) / Double(max(1, built.frames)))) masks built/frame",
        cost.description,
        "\(Format.value(m.allocationsPerCall)) allocs/frame"
          + (m.allocationsPerCall > 0 && quiet < FrameBenchmarks.quietFrames
            ? " (still allocating after \(Format.value(settled)) s)" : ""),
        "settled in \(Format.value(settled)) s, caches \(Format.value(Double(cached.bytes) / 1e6)) MB"
          + (cached.growing ? " and still growing" : ""),
      ] + (canvas.isOpenGL ? [canvas.rendererDescription] : []), pairs: " (\(m.calls) pairs)")
    run.record(r)
  }

  /// A 1920x1080 canvas of the run's renderer that a `.free` field's frames are drawn on as
  /// the grid's are: clear, the field's draw, present, finish (`frame/sprites`, `frame/churn`).
  final class Screen {
    let canvas: OffscreenCanvas
    let full = SDL_FRect(x: 0, y: 0, w: Float(size.width), h: Float(size.height))
    let background = LoaderPalette.light.background

    init(_ run: BenchRun) throws {
      canvas = try run.renderer.makeCanvas(width: Int(size.width), height: Int(size.height))
    }

    /// One frame of `field` at `t`.
    func draw(_ field: LoaderField, at t: Double) throws {
      canvas.clear(background)
      try field.draw(on: canvas.loaderRenderer, in: full, at: t)
      SDL_RenderPresent(canvas.renderer)
      try canvas.finish()
    }
  }

  /// A result of `name` drawn beside the grid's frame (`gridMs`), the ratio in its notes.
  static func besideGrid(
    _ name: String, loaders n: Int, threads: Int, _ ms: SampleStatistics,
    grid gridMs: SampleStatistics, details: [String], pairs: String = ""
  ) -> BenchResult {
    var r = BenchResult(
      name: name, loaders: n, rings: n * StepBenchmarks.style.ringCount, unit: "ms/frame",
      statistics: ms, threads: threads, frameMilliseconds: ms.p50,
      details: details + [
        "frame/spans beside it \(Format.value(gridMs.p50)) ms/frame:"
          + " \(Format.value(ms.p50 / gridMs.p50)) frames of it\(pairs)"
      ])
    r.beside = ("frame/spans", gridMs)
    return r
  }

  static func edit(_ run: BenchRun, loaders n: Int) throws {
    let field = try LoaderField(layout: .free, capacity: n)
    var rng = SplitMix64(seed: BenchRun.seed ^ 0xED17 ^ UInt64(n))
    func someFrame() -> SDL_FRect {
      let h = 8 + 112 * rng.nextUnit()
      return SDL_FRect(
        x: Float(rng.nextUnit() * 1800), y: Float(rng.nextUnit() * 1000), w: Float(h * 5.8),
        h: Float(h))
    }
    for _ in 0..<n { try field.addLoader(isAnimating: true, at: 0, frame: someFrame()) }
    let loaders = field.loaders
    let frames = (0..<1024).map { _ in someFrame() }
    let palettes = (0..<16).map { k in
      (0..<5).map { r in Scene.color(hue: Double(k) / 16 + Double(r) / 12) }
    }
    var i = 0
    var k = 0
    var failure: LoaderField.Error?
    let m = Sampler.measure(run.plan) {
      i = i + 1 == n ? 0 : i + 1
      k = (k &+ 1) & 1023
      do throws(LoaderField.Error) {
        try field.setFrame(frames[k], of: loaders[i])
        try field.setColors(palettes[k & 15], of: loaders[i])
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    var r = BenchResult(
      name: names[1], loaders: n, rings: 0, unit: "ns/edit", statistics: m.nanosecondsPerCall,
      details: [
        "setFrame + setColors of one loader",
        "\(Format.value(m.allocationsPerCall)) allocs/edit",
      ])
    r.allocationsPerCall = m.allocationsPerCall
    run.record(r)
  }
}

/// What the masks a run of frames built cost the threads that built them
/// (`MaskCache.maskBuildNanoseconds`, `maskChunksBuilt`, `masksBuilt`): per mask and per
/// pixel of the masks' chunks (four a chunk), the build threads' CPU time summed.
struct MaskBuildCost {
  var masks = 0
  var chunks = 0
  var nanoseconds = 0

  static var now: MaskBuildCost {
    MaskBuildCost(
      masks: MaskCache.masksBuilt.load(ordering: .relaxed),
      chunks: MaskCache.maskChunksBuilt.load(ordering: .relaxed),
      nanoseconds: MaskCache.maskBuildNanoseconds.load(ordering: .relaxed))
  }

  mutating func add(since before: MaskBuildCost) {
    let after = Self.now
    masks += after.masks - before.masks
    chunks += after.chunks - before.chunks
    nanoseconds += after.nanoseconds - before.nanoseconds
  }

  var description: String {
    guard masks > 0 else { return "no mask built" }
    let perMask = Double(nanoseconds) / Double(masks) * 1e-3
    let perPixel = Double(nanoseconds) / Double(max(1, 4 * chunks))
    return "mask build \(Format.value(perMask)) us/mask, \(Format.value(perPixel)) ns/mask px"
      + " (\(Format.value(Double(4 * chunks) / Double(masks))) px a mask)"
  }
}
