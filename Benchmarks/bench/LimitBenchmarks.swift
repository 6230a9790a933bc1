import Foundation
import LoaderCore
import LoaderSDL
import SwiftLoaderCanvas
import SwiftLoaderTestSupport

/// The machine's floors: what no step or raster can beat.
///
/// Each floor is the bytes an entry cannot avoid moving, at the bandwidth of a copy that moves
/// the same number of bytes through the same level of the memory hierarchy on the same
/// number of threads: `limit/bandwidth` beside every `step/*` size (the bytes from the
/// engine's own `RotationEngine.byteModel`), `limit/raster` beside every `raster/*` size.
/// An entry that reads faster than its floor means the model misses traffic: fix the model.
enum LimitBenchmarks {
  static func run(_ run: BenchRun) throws {
    if run.isSelected("limit/fill") || run.isSelected("limit/memset") {
      for r in try fill(
        width: RasterScene.stressFrame.width, height: RasterScene.stressFrame.height, plan: run.plan
      )
      where run.isSelected(r.name) {
        run.record(r)
      }
    }
    // The floor runs with its entries, so every run that has one has the other.
    if run.isSelected("limit/raster")
      || RasterBenchmarks.backendNames.contains(where: { run.isSelected("raster/\($0)") })
    {
      let covered = coveredPixelsPerRing(RasterScene.stressFrame.shape)
      for n in run.sizes.rasterRings {
        for threads in BenchThreads.counts {
          run.record(raster(rings: n, coveredPixels: covered, threads: threads, plan: run.plan))
        }
      }
    }
  }

  /// Nanoseconds per byte of traffic (read plus written) of a copy over `bytes` (source and
  /// destination together, so a buffer of a step's working set sits where the step's data
  /// sits) on up to `threads` threads, split as the engine splits its passes and with its
  /// rule for when another worker pays. `1 / p50` is the bandwidth in GB/s.
  ///
  /// The copy goes through registers with plain stores, 16 `Float`s at a time, as the
  /// engine's presentation pass writes its angles; `memcpy` is not the yardstick because
  /// glibc's switches to non-temporal stores past a size (they skip reading the destination
  /// into the cache first), which no Swift store can ask for.
  static func copyTimePerByte(bytes: Int, threads: Int, plan: SamplingPlan) -> SampleStatistics {
    let count = max(16, (bytes / 2 / MemoryLayout<Float>.stride + 15) / 16 * 16)
    // One block, the destination half a page past a page boundary after the source: a load
    // whose address matches a pending store's in the low 12 bits waits for it (4K aliasing),
    // which two separate allocations hit or miss by chance, moving the bandwidth by 2x.
    let page = 4096
    let offset = (count * MemoryLayout<Float>.stride + page - 1) / page * page + page / 2
    let block = UnsafeMutableRawPointer.allocate(
      byteCount: offset + count * MemoryLayout<Float>.stride, alignment: page)
    defer { block.deallocate() }
    let source = block.bindMemory(to: Float.self, capacity: count)
    let destination = (block + offset).bindMemory(to: Float.self, capacity: count)
    // Touch every page first so page faults are not measured as bandwidth.
    source.initialize(repeating: 1, count: count)
    destination.initialize(repeating: 0, count: count)
    let workers = copyWorkers(floats: count, threads: threads)
    let m = Sampler.measure(count >= 1 << 22 ? plan.slow : plan) {
      RotationEngine.forEachRange(
        count, workers: workers, CopyJob(source: source, destination: destination))
      blackHole(destination)
    }
    return m.nanosecondsPerCall.scaled(by: 1 / (2 * Double(count * MemoryLayout<Float>.stride)))
  }

  /// `copy` over a range of the floats (a `WorkerPool` job, as the engine's passes are).
  // @unchecked Sendable: each piece writes only its own range of `destination`.
  struct CopyJob: RangeJob, @unchecked Sendable {
    let source: UnsafePointer<Float>
    let destination: UnsafeMutablePointer<Float>

    func run(_ r: Range<Int>) {
      LimitBenchmarks.copy(source + r.lowerBound, to: destination + r.lowerBound, count: r.count)
    }
  }

  /// Workers for a copy of `floats` floats: the engine's rule for a pass over as many rings
  /// (one `Float` read and one written per ring), so neither side pays a wake-up the other
  /// does not.
  static func copyWorkers(floats: Int, threads: Int) -> Int {
    max(1, min(threads, floats / RotationEngine.minimumRingsPerThread))
  }

  /// Each lane plus 0: the optimizer may not drop the add (`-0 + 0` is `+0`), so the loop
  /// stays a loop of loads and stores instead of becoming a `memcpy` call.
  @inline(never)
  static func copy(
    _ source: UnsafePointer<Float>, to destination: UnsafeMutablePointer<Float>, count: Int
  ) {
    typealias Lanes = SIMD16<Float>
    let zero = Lanes(repeating: 0)
    var i = 0
    while i + Lanes.scalarCount <= count {
      let v = UnsafeRawPointer(source + i).loadUnaligned(as: Lanes.self) + zero
      UnsafeMutableRawPointer(destination + i).storeBytes(of: v, as: Lanes.self)
      i += Lanes.scalarCount
    }
  }

  /// `limit/bandwidth` at one size: `model`'s bytes per ring at the copy bandwidth measured
  /// over the step's working set, in ns per ring (`bytes / (bytes per ns)`).
  static func bandwidth(
    loaders: Int, model: RotationEngine.ByteModel, threads: Int, plan: SamplingPlan
  ) -> BenchResult {
    let bytes = model.workingSetBytes(loaders: loaders)
    let perByte = copyTimePerByte(bytes: bytes, threads: threads, plan: plan)
    return BenchResult(
      name: "limit/bandwidth", loaders: loaders, rings: loaders * model.ringsPerLoader,
      unit: "ns/ring", statistics: perByte.scaled(by: model.bytesPerRing), threads: threads,
      details: [
        "\(Format.value(model.bytesPerRing)) B/ring (RotationEngine.byteModel)",
        "copy of \(Format.si(Double(bytes)))B at \(Format.value(1 / perByte.p50)) GB/s (p50)",
      ])
  }

  /// Pixels a ring of `shape` covers (coverage above 0: the centre within half a pixel of the
  /// ink), placed as `RasterScene` places rings (centre on a pixel corner), averaged over 64
  /// rotations. From the geometry (`DashedRing.signedDistance`), not from a backend.
  static func coveredPixelsPerRing(_ shape: DashedRing) -> Double {
    let reach = Int((shape.radius + shape.halfWidth + 1).rounded(.up))
    let rotations = 64
    var covered = 0
    for k in 0..<rotations {
      let rotation = 2 * Double.pi * Double(k) / Double(rotations)
      for y in -reach..<reach {
        for x in -reach..<reach
        where shape.signedDistance(x: Double(x) + 0.5, y: Double(y) + 0.5, rotation: rotation) < 0.5
        {
          covered += 1
        }
      }
    }
    return Double(covered) / Double(rotations)
  }

  /// `limit/raster` at one size: every covered pixel's frame bytes read and written, plus one
  /// byte of coverage (the least a mask can hold per pixel), at the copy bandwidth over the
  /// bytes the rings touch (their frame pixels, at most the whole frame, and their masks).
  /// Per ring:
  /// ```
  /// bytes = covered * (4 read + 4 written + 1 mask)
  /// ```
  static func raster(rings n: Int, coveredPixels: Double, threads: Int, plan: SamplingPlan)
    -> BenchResult
  {
    let pixelBytes = 4.0
    let bytesPerRing = coveredPixels * (2 * pixelBytes + 1)
    let frameBytes =
      Double(RasterScene.stressFrame.width * RasterScene.stressFrame.height) * pixelBytes
    let touched =
      min(frameBytes, Double(n) * coveredPixels * pixelBytes) + Double(n) * coveredPixels
    let perByte = copyTimePerByte(bytes: Int(touched), threads: threads, plan: plan)
    let perRing = perByte.scaled(by: bytesPerRing * 1e-3)
    return BenchResult(
      name: "limit/raster", loaders: n / RasterScene.stressFrame.style.ringCount, rings: n,
      unit: "us/ring",
      statistics: perRing, threads: threads, frameMilliseconds: perRing.p50 * Double(n) * 1e-3,
      details: [
        "\(Format.value(coveredPixels)) covered px/ring (geometry) x 9 B = \(Format.value(bytesPerRing)) B/ring",
        "copy of \(Format.si(touched))B at \(Format.value(1 / perByte.p50)) GB/s (p50)",
      ])
  }

  /// `limit/fill`: `SDL_RenderClear` of a whole 1920x1080 software frame (a `SDL_FillRect`
  /// over the surface), and `limit/memset`: `memset` over the same pixels.
  static func fill(width: Int, height: Int, plan: SamplingPlan) throws(SDLError) -> [BenchResult] {
    let canvas = try OffscreenCanvas(width: width, height: height)
    var flip = false
    let clear = Sampler.measure(plan) {
      flip.toggle()
      canvas.clear(flip ? LoaderPalette.light.background : LoaderPalette.dark.background)
      canvas.flush()
    }
    let pixels = canvas.surface.pointee.pixels
    let byteCount = Int(canvas.surface.pointee.pitch) * height
    var value: Int32 = 0
    let memsetting = Sampler.measure(plan) {
      value ^= 0xFF
      if let p = pixels { memset(p, value, byteCount) }
      blackHole(pixels)
    }
    func result(_ name: String, _ m: Measurement, _ what: String) -> BenchResult {
      let ms = m.nanosecondsPerCall.scaled(by: 1e-6)
      return BenchResult(
        name: name, loaders: 0, rings: 0, unit: "ms/frame", statistics: ms,
        frameMilliseconds: ms.p50,
        details: [
          "\(width)x\(height) \(what), \(Format.si(Double(byteCount) / (m.nanosecondsPerCall.p50 * 1e-9)))B/s"
        ])
    }
    return [
      result("limit/fill", clear, "SDL_RenderClear"), result("limit/memset", memsetting, "memset"),
    ]
  }
}
