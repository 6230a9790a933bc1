import CSwiftLoaderSDL2
import LoaderCore
import LoaderSDL
import SwiftLoaderTestSupport

/// `frame/<backend>`: one whole frame of the demo's grid scene, as a game loop runs it.
///
/// `N` seed loaders in a `LoaderField` laid out by `GridLayout` on 1920x1080 (fit by one
/// scale, all visible), added with the same seeded start times as `step/*`. A frame is what a
/// host of the library does: the clock moves on by `dt`, `SDL_RenderClear`, the field's
/// `draw` (its engine's steps, every ring's presentation angle, the ring instances, the
/// backend's one draw call), `SDL_RenderPresent`. On an offscreen software renderer there is
/// no window, so present only flushes the batched commands into the surface (it copies
/// nothing to a screen); a window would add its blit.
///
/// Each size is measured at each of `BenchThreads.counts` through `LoaderField(threads:)`,
/// which sets both the engine's passes and the `spans` backend's bands (the other backends
/// draw on the calling thread; only their engine work can spread).
enum FrameBenchmarks {
  static func run(_ run: BenchRun) throws {
    let backends = RingBackend.allCases.filter { run.isSelected("frame/\($0.rawValue)") }
    guard !backends.isEmpty else { return }
    let style = StepBenchmarks.style
    let background = LoaderPalette.light.background
    let size = SDL_FRect(
      x: 0, y: 0, w: Float(RasterScene.stressFrame.width), h: Float(RasterScene.stressFrame.height))
    for n in run.sizes.frameLoaders {
      for backend in backends where !run.exceedsBudget("frame/\(backend.rawValue)", size: n) {
        for threads in BenchThreads.counts {
          let field = try LoaderField(
            style: style, layout: .grid, backend: backend, capacity: n, threads: threads)
          for start in StepBenchmarks.startTimes(count: n) {
            try field.addLoader(isAnimating: true, at: start)
          }
          let grid = try field.arrangement(width: Double(size.w), height: Double(size.h))
          let canvas = try run.renderer.makeCanvas(
            width: RasterScene.stressFrame.width, height: RasterScene.stressFrame.height)
          var t = Double(StepBenchmarks.settlingSteps) * StepBenchmarks.dt
          var failure: (any Error)?
          let frame = {
            t += StepBenchmarks.dt
            canvas.clear(background)
            do throws(LoaderField.Error) {
              try field.draw(on: canvas.loaderRenderer, in: size, at: t)
            } catch {
              failure = error
            }
            SDL_RenderPresent(canvas.renderer)
            do { try canvas.finish() } catch { failure = error }
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
            try canvas.savePNG(to: "\(dir)/frame-\(backend.rawValue)-x\(threads)-\(n).png")
          }
          let ms = m.nanosecondsPerCall.scaled(by: 1e-6)
          run.record(
            BenchResult(
              name: "frame/\(backend.rawValue)", loaders: n, rings: n * style.ringCount,
              unit: "ms/frame", statistics: ms, threads: threads, frameMilliseconds: ms.p50,
              details: [
                "\(Format.value(1000 / ms.p50)) frames/s",
                "grid \(grid.columns)x\((n + grid.columns - 1) / grid.columns) at fit"
                  + " \(Format.value(grid.fit))",
                "\(Format.value(m.allocationsPerCall)) allocs/frame"
                  + (m.allocationsPerCall > 0 && quiet < quietFrames
                    ? " (still allocating after \(Format.value(settleSeconds(run))) s)" : ""),
              ] + (canvas.isOpenGL ? [canvas.rendererDescription] : [])))
        }
      }
    }
  }

  static let quietFrames = 30
  static func settleSeconds(_ run: BenchRun) -> Double { run.options.quick ? 0.5 : 3 }
}
