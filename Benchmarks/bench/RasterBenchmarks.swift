import LoaderCore
import LoaderSDL
import SwiftLoaderCairoReference
import SwiftLoaderTestSupport

/// `raster/<backend>` for every backend in the `RingBackend` registry, `raster/buffer` (the
/// `spans` kernel into a plain pixel buffer, `PixelBuffer`: no SDL surface, texture or
/// renderer; beside `raster/spans` it shows what SDL's path adds) and `raster/cairo` (the
/// peer), on `RasterScene` at each size.
///
/// What is timed is drawing the rings only: the frame is cleared once before sampling and
/// the rings are drawn again and again over it (the per-pixel work does not depend on what
/// is underneath). The clear is `limit/fill`; `ms/frame` adds its p50 to the draw's.
/// `covered px/s` is the ink of one ring (pixels Cairo touches, angle 0, alone) times the
/// rings, per second of drawing. PSNR compares one clean frame (clear, one draw) with Cairo's
/// over `MaskedPSNR`'s mask (the rings' frames).
enum RasterBenchmarks {
  static var backendNames: [String] { RingBackend.allCases.map(\.rawValue) }

  static func run(_ run: BenchRun) throws {
    // `gpu` draws on OpenGL whatever `BENCH_RENDERER` says (the one renderer that runs it);
    // a quick run leaves it to `frame/gpu` unless `--filter` names it.
    let quickOnly = run.options.quick && run.options.filter == nil
    let backends = RingBackend.allCases.filter {
      run.isSelected("raster/\($0.rawValue)") && !(quickOnly && $0 == .gpu)
    }
    let wantCairo = run.isSelected("raster/cairo")
    let wantBuffer = run.isSelected("raster/buffer")
    guard wantCairo || wantBuffer || !backends.isEmpty else { return }
    let w = RasterScene.stressFrame.width
    let h = RasterScene.stressFrame.height
    let cairo = try CairoRingRenderer(width: w, height: h)
    let ink = inkPixelsPerRing(cairo)
    let fillMilliseconds = run.results.first { $0.name == "limit/fill" }?.frameMilliseconds

    for n in run.sizes.rasterRings {
      let timeCairo = wantCairo && !run.exceedsBudget("raster/cairo", size: n)
      let sized = backends.filter { !run.exceedsBudget("raster/\($0.rawValue)", size: n) }
      let timeBuffer = wantBuffer && !run.exceedsBudget("raster/buffer", size: n)
      guard timeCairo || timeBuffer || !sized.isEmpty else { continue }
      let scene = RasterScene.stress(count: n, seed: BenchRun.seed ^ UInt64(n))
      let mask = MaskedPSNR(width: w, height: h, boxes: scene.crops)
      // Cairo's frame is the reference for every backend's PSNR, so it is drawn even when
      // only backends are selected.
      cairo.clear(scene.palette.background)
      let m = timeCairo ? Sampler.measure(plan(n, run)) { scene.stroke(on: cairo) } : nil
      cairo.clear(scene.palette.background)
      scene.stroke(on: cairo)
      let reference = cairo.argbPixels()
      if let dir = run.framesDirectory {
        try? cairo.savePNG(to: "\(dir)/raster-cairo-\(n).png")
      }
      if let m {
        run.noteCallCost("raster/cairo", size: n, seconds: m.nanosecondsPerCall.p50 * 1e-9)
        var entry = result("raster/cairo", n, m, ink: ink, fill: fillMilliseconds, psnr: nil)
        entry.threads = 1
        run.record(entry)
      }

      for backend in sized {
        let renderer = backend == .gpu ? BenchRenderer.opengl : run.renderer
        let canvas = try renderer.makeCanvas(width: w, height: h)
        let made = try canvas.loaderRenderer.rasterizer(backend)
        // A backend with a thread setting is measured at each of `BenchThreads.counts` (the
        // all-threads row then shows its speed-up); one without reads 1 thread.
        let threadCounts = backend == .spans ? BenchThreads.counts : [1]
        let name = "raster/\(backend.rawValue)"
        for threads in threadCounts {
          let shape = scene.shape
          var failure: SDLError?
          let draw = {
            do throws(SDLError) {
              _ = try scene.rings.withUnsafeBufferPointer { (buf) throws(SDLError) in
                try canvas.loaderRenderer.draw(buf, shape: shape, with: made, threads: threads)
              }
              try canvas.finish()
            } catch {
              failure = error
            }
          }
          canvas.clear(scene.palette.background)
          let m = Sampler.measure(plan(n, run)) { draw() }
          canvas.clear(scene.palette.background)
          draw()
          if let failure { throw failure }
          let psnr = mask.psnr(canvas.argbPixels(), reference)
          if let dir = run.framesDirectory {
            let suffix = threadCounts.count > 1 ? "-x\(threads)" : ""
            try canvas.savePNG(to: "\(dir)/raster-\(backend.rawValue)\(suffix)-\(n).png")
          }
          run.noteCallCost(name, size: n, seconds: m.nanosecondsPerCall.p50 * 1e-9)
          var entry = result(name, n, m, ink: ink, fill: fillMilliseconds, psnr: psnr)
          entry.threads = threads
          if canvas.isOpenGL { entry.details.append(canvas.rendererDescription) }
          run.record(entry)
        }
      }
      if timeBuffer {
        try measureBuffer(run, scene: scene, rings: n, reference: reference, mask: mask, ink: ink)
      }
    }
  }

  /// `raster/buffer`: the scene's rings blended into a plain `[UInt32]` of the frame's size
  /// (premultiplied BGRA), at each thread count, with the fill's time added as for the others.
  static func measureBuffer(
    _ run: BenchRun, scene: RasterScene, rings n: Int, reference: [UInt32], mask: MaskedPSNR,
    ink: Int
  ) throws {
    let (w, h) = (scene.width, scene.height)
    let bg = scene.palette.background
    let background = 0xFF00_0000 | UInt32(bg.r) << 16 | UInt32(bg.g) << 8 | UInt32(bg.b)
    var words = [UInt32](repeating: background, count: w * h)
    let drawer = PixelBufferDrawer()
    // Made once: `scene.shape` builds a new ring (and its dashes) each time it is read.
    let (rings, shape) = (scene.rings, scene.shape)
    let fillMilliseconds = run.results.first { $0.name == "limit/fill" }?.frameMilliseconds
    for threads in BenchThreads.counts {
      var failure: RasterError?
      func draw() {
        words.withUnsafeMutableBytes { raw in
          do throws(RasterError) {
            try drawer.draw(
              rings, shape: shape,
              into: PixelBuffer(
                base: raw.baseAddress, width: w, height: h, bytesPerRow: w * 4,
                format: .bgraPremultiplied),
              threads: threads)
          } catch {
            failure = error
          }
        }
      }
      let m = Sampler.measure(plan(n, run)) { draw() }
      words = [UInt32](repeating: background, count: w * h)
      draw()
      if let failure { throw failure }
      run.noteCallCost("raster/buffer", size: n, seconds: m.nanosecondsPerCall.p50 * 1e-9)
      var entry = result(
        "raster/buffer", n, m, ink: ink, fill: fillMilliseconds,
        psnr: mask.psnr(words, reference))
      entry.threads = threads
      run.record(entry)
    }
  }

  /// Frames slower than about 50 ms get the slow plan (no time target, minimum samples).
  static func plan(_ rings: Int, _ run: BenchRun) -> SamplingPlan {
    rings >= 10_000 ? run.plan.slow : run.plan
  }

  /// Pixels one ring touches (any coverage), drawn alone by Cairo.
  static func inkPixelsPerRing(_ cairo: CairoRingRenderer) -> Int {
    let frame = RasterScene.stressFrame
    cairo.clear(frame.palette.background)
    cairo.strokeRing(
      style: frame.style, density: frame.density, centerX: 100, centerY: 100, angle: 0,
      color: frame.style.color(ofRing: 4))
    let white = UInt32(0xFF_FFFF)
    return cairo.argbPixels().reduce(0) { $0 + ($1 & 0xFF_FFFF == white ? 0 : 1) }
  }

  static func result(
    _ name: String, _ n: Int, _ m: Measurement, ink: Int, fill: Double?, psnr: Double?
  ) -> BenchResult {
    let perRing = m.nanosecondsPerCall.scaled(by: 1e-3 / Double(n))
    let drawMilliseconds = m.nanosecondsPerCall.p50 * 1e-6
    let frame = drawMilliseconds + (fill ?? 0)
    var details = [
      "\(Format.value(frame)) ms/frame\(fill == nil ? " (draw only)" : "")",
      "\(Format.si(Double(ink * n) / (m.nanosecondsPerCall.p50 * 1e-9))) covered px/s",
    ]
    if let psnr { details.append("\(Format.value(psnr)) dB") }
    details.append("\(Format.value(m.allocationsPerCall)) allocs/frame")
    return BenchResult(
      name: name, loaders: n / RasterScene.stressFrame.style.ringCount, rings: n, unit: "us/ring",
      statistics: perRing, psnrDB: psnr ?? (name == "raster/cairo" ? MaskedPSNR.ceiling : nil),
      frameMilliseconds: frame, details: details)
  }
}
