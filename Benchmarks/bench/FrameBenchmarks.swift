import CSwiftLoaderSDL2
import Foundation
import LoaderCore
import LoaderSDL
import SwiftLoaderCanvas
import SwiftLoaderSupport
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
///
/// `frame/gpu` draws on OpenGL whatever `BENCH_RENDERER` says (the one renderer that runs it:
/// Mesa's llvmpipe where there is no GPU, so it runs in the bench's smoke run too), at
/// `BenchSizes.gpuFrameLoaders` (up to a million). Its notes add the calling thread's CPU time
/// a frame (what the host's thread pays; llvmpipe's own threads are not counted) and, up to
/// 10,000 loaders, its frame's PSNR against `frame/spans`'s frame of the same scene on SDL's
/// software renderer.
enum FrameBenchmarks {
  static func run(_ run: BenchRun) throws {
    let backends = RingBackend.allCases.filter { run.isSelected("frame/\($0.rawValue)") }
    guard !backends.isEmpty else { return }
    let style = StepBenchmarks.style
    for n in Set(run.sizes.frameLoaders + run.sizes.gpuFrameLoaders).sorted() {
      for backend in backends where !run.exceedsBudget("frame/\(backend.rawValue)", size: n) {
        let sizes = backend == .gpu ? run.sizes.gpuFrameLoaders : run.sizes.frameLoaders
        guard sizes.contains(n) else { continue }
        for threads in BenchThreads.counts {
          let scene = try GridScene(run, loaders: n, backend: backend, threads: threads)
          let settled = scene.settle()
          let plan = n >= 10_000 ? run.plan.slow : run.plan
          let m = Sampler.measure(plan) { scene.frame() }
          run.noteCallCost(
            "frame/\(backend.rawValue)", size: n, seconds: m.nanosecondsPerCall.p50 * 1e-9)
          if let failure = scene.failure { throw failure }
          if let dir = run.framesDirectory {
            try scene.canvas.savePNG(
              to: "\(dir)/frame-\(backend.rawValue)-x\(threads)-\(n).png")
          }
          let ms = m.nanosecondsPerCall.scaled(by: 1e-6)
          var gpuNotes: [String] = []
          if backend == .gpu {
            gpuNotes.append(
              "\(Format.value(scene.threadCPUMilliseconds(frames: run.options.quick ? 3 : 10))) ms CPU/frame (calling thread)"
            )
            if n <= 10_000 {
              let spans = try GridScene(
                run, loaders: n, backend: .spans, threads: threads, renderer: .software)
              gpuNotes.append("PSNR \(Format.value(scene.psnr(against: spans))) dB vs frame/spans")
            }
          }
          run.record(
            BenchResult(
              name: "frame/\(backend.rawValue)", loaders: n, rings: n * style.ringCount,
              unit: "ms/frame", statistics: ms, threads: threads, frameMilliseconds: ms.p50,
              details: [
                "\(Format.value(1000 / ms.p50)) frames/s",
                "grid \(scene.grid.columns)x\((n + scene.grid.columns - 1) / scene.grid.columns)"
                  + " at fit \(Format.value(scene.grid.fit))",
                "\(Format.value(m.allocationsPerCall)) allocs/frame"
                  + (m.allocationsPerCall > 0 && !settled
                    ? " (still allocating after \(Format.value(settleSeconds(run))) s)" : ""),
              ] + gpuNotes + (scene.canvas.isOpenGL ? [scene.canvas.rendererDescription] : [])))
        }
      }
    }
  }

  /// The grid scene of `frame/<backend>` at one size, backend and thread count, on its own
  /// 1920x1080 canvas; `frame/sprites` measures it beside its own frames.
  final class GridScene {
    let field: LoaderField
    let grid: LoaderField.Arrangement
    let canvas: OffscreenCanvas
    let size = SDL_FRect(
      x: 0, y: 0, w: Float(RasterScene.stressFrame.width), h: Float(RasterScene.stressFrame.height))
    let settleSeconds: Double
    let background = LoaderPalette.light.background
    private var t = Double(StepBenchmarks.settlingSteps) * StepBenchmarks.dt
    /// The first error a frame met (the frame closure cannot throw).
    private(set) var failure: (any Error)?

    init(
      _ run: BenchRun, loaders n: Int, backend: RingBackend, threads: Int,
      renderer: BenchRenderer? = nil
    ) throws {
      field = try LoaderField(
        style: StepBenchmarks.style, layout: .grid, backend: backend, capacity: n,
        threads: threads)
      for start in StepBenchmarks.startTimes(count: n) {
        try field.addLoader(isAnimating: true, at: start)
      }
      grid = try field.arrangement(width: Double(size.w), height: Double(size.h))
      // `gpu` runs on OpenGL alone.
      let kind = renderer ?? (backend == .gpu ? .opengl : run.renderer)
      canvas = try kind.makeCanvas(
        width: RasterScene.stressFrame.width, height: RasterScene.stressFrame.height)
      settleSeconds = FrameBenchmarks.settleSeconds(run)
    }

    /// One frame: the clock moves on by `dt`, clear, the field's draw, present, finish.
    func frame() {
      t += StepBenchmarks.dt
      canvas.clear(background)
      do throws(LoaderField.Error) {
        try field.draw(on: canvas.loaderRenderer, in: size, at: t)
      } catch {
        failure = failure ?? error
      }
      SDL_RenderPresent(canvas.renderer)
      do { try canvas.finish() } catch { failure = failure ?? error }
    }

    /// The calling thread's CPU time a frame over `frames` frames, milliseconds.
    func threadCPUMilliseconds(frames: Int) -> Double {
      func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) * 1e-6
      }
      let start = now()
      for _ in 0..<frames { frame() }
      return (now() - start) / Double(frames)
    }

    /// PSNR of this scene's next frame against `other`'s (the same scene and time), dB.
    func psnr(against other: GridScene) -> Double {
      other.t = t
      frame()
      other.t = t - StepBenchmarks.dt
      other.frame()
      return ImageComparison.psnr(
        canvas.argbPixels(), other.canvas.argbPixels(), width: canvas.width)
    }

    /// Backends may build caches lazily as the rings turn through new angles (the span
    /// backend's coverage masks): runs frames until `quietFrames` in a row allocate nothing,
    /// within `settleSeconds`, so samples show the steady state where there is one. Returns
    /// whether the quiet frames came.
    func settle() -> Bool {
      let settleStart = Stopwatch.now()
      var quiet = 0
      while quiet < quietFrames, Double(Stopwatch.now() - settleStart) < settleSeconds * 1e9 {
        let before = AllocationCounter.count
        frame()
        quiet = AllocationCounter.count == before ? quiet + 1 : 0
      }
      return quiet >= quietFrames
    }
  }

  static let quietFrames = 30
  static func settleSeconds(_ run: BenchRun) -> Double { run.options.quick ? 0.5 : 3 }
}
