import CSDL2
import LoaderCore
import LoaderSDL

/// `frame/<backend>`: one whole frame of the demo's grid scene, as a game loop runs it.
///
/// `N` seed loaders laid out by `GridLayout` on 1920x1080 (fit by one scale, all visible),
/// driven by a `RotationEngine` with the same seeded start times as `step/*`. A frame is:
/// one engine step, every ring's presentation angle, the ring instances updated in place,
/// `SDL_RenderClear`, the backend's draw, `SDL_RenderPresent`. On an offscreen software
/// renderer there is no window, so present only flushes the batched commands into the
/// surface (it copies nothing to a screen); a window would add its blit.
enum FrameBenchmarks {
  static func run(_ run: BenchRun) throws {
    let backends = RingBackend.allCases.filter { run.isSelected("frame/\($0.rawValue)") }
    guard !backends.isEmpty else { return }
    let style = StepBenchmarks.style
    let background = LoaderPalette.light.background
    for n in run.sizes.frameLoaders {
      let grid = try GridLayout(
        count: n, width: Double(RasterScene.width), height: Double(RasterScene.height), style: style
      )
      let shape = DashedRing(style: style).scaled(by: grid.scale)
      for backend in backends where !run.exceedsBudget("frame/\(backend.rawValue)", size: n) {
        var engine = try RotationEngine(dt: StepBenchmarks.dt, capacity: n)
        var instances: [RingInstance] = []
        var slots: [Int] = []
        for (i, start) in StepBenchmarks.startTimes(count: n).enumerated() {
          let id = try engine.addLoader(style: style, isAnimating: true, at: start)
          let first = try engine.firstRing(of: id)
          for (j, f) in grid.ringFrames(ofLoader: i).enumerated() {
            instances.append(
              RingInstance(
                centerX: Float(f.centerX), centerY: Float(f.centerY), angle: 0,
                color: style.color(ofRing: j)))
            slots.append(first + j)
          }
        }
        engine.step(count: StepBenchmarks.settlingSteps)
        let angles = UnsafeMutableBufferPointer<Float>.allocate(capacity: engine.ringSlotCount)
        angles.initialize(repeating: 0)
        defer { angles.deallocate() }
        let canvas = try OffscreenCanvas(width: RasterScene.width, height: RasterScene.height)
        let rasterizer = try backend.makeRasterizer(for: canvas.renderer, surface: canvas.surface)
        var failure: (any Error)?
        let frame = {
          engine.step()
          do throws(RotationEngine.Error) {
            try engine.presentationAngles(at: engine.time, into: angles)
          } catch {
            failure = error
          }
          instances.withUnsafeMutableBufferPointer { inst in
            for k in 0..<inst.count { inst[k].angle = angles[slots[k]] }
          }
          canvas.clear(background)
          do throws(SDLError) {
            try instances.withUnsafeBufferPointer { (buf) throws(SDLError) in
              try rasterizer.draw(buf, shape: shape, on: canvas.renderer)
            }
          } catch {
            failure = error
          }
          SDL_RenderPresent(canvas.renderer)
        }
        // Backends may build caches lazily as the rings turn through new angles (the span
        // backend's coverage masks): run frames until `quietFrames` in a row allocate
        // nothing, within `settleBudget`, so samples show the steady state where there is one.
        let settleStart = Stopwatch.now()
        var quiet = 0
        while quiet < quietFrames,
          Double(Stopwatch.now() - settleStart) < settleSeconds(run) * 1e9
        {
          let before = AllocationCounter.count
          frame()
          quiet = AllocationCounter.count == before ? quiet + 1 : 0
        }
        let plan = n >= 10_000 ? run.plan.slow : run.plan
        let m = Sampler.measure(plan) { frame() }
        run.noteCallCost(
          "frame/\(backend.rawValue)", size: n, seconds: m.nanosecondsPerCall.p50 * 1e-9)
        if let failure { throw failure }
        if let dir = run.framesDirectory {
          try canvas.savePNG(to: "\(dir)/frame-\(backend.rawValue)-\(n).png")
        }
        let ms = m.nanosecondsPerCall.scaled(by: 1e-6)
        run.record(
          BenchResult(
            name: "frame/\(backend.rawValue)", loaders: n, rings: instances.count, unit: "ms/frame",
            statistics: ms, frameMilliseconds: ms.p50,
            details: [
              "\(Format.value(1000 / ms.p50)) frames/s",
              "grid \(grid.columns)x\(grid.rows) at scale \(Format.value(grid.scale))",
              "\(Format.value(m.allocationsPerCall)) allocs/frame"
                + (m.allocationsPerCall > 0 && quiet < quietFrames
                  ? " (still allocating after \(Format.value(settleSeconds(run))) s)" : ""),
            ]))
      }
    }
  }

  static let quietFrames = 30
  static func settleSeconds(_ run: BenchRun) -> Double { run.options.quick ? 0.5 : 3 }
}
