import Foundation
import LoaderCore
import LoaderSDL

/// The machine's floors: what no step or raster can beat.
enum LimitBenchmarks {
  /// The copy that measures bandwidth: far bigger than any cache here and than the step's
  /// working set at the largest size (a million loaders).
  static let copyBytes = 256 << 20

  static func run(_ run: BenchRun) throws {
    if run.isSelected("limit/bandwidth") {
      run.copyTimePerByte = copyTimePerByte(bytes: copyBytes, plan: run.plan)
      if let t = run.copyTimePerByte {
        run.note(
          "memcpy of \(copyBytes >> 20) MiB: \(Format.value(1 / t.p50)) GB/s of traffic (read + write, p50)"
        )
      }
    }
    if run.isSelected("limit/fill") || run.isSelected("limit/memset") {
      for r in try fill(width: RasterScene.width, height: RasterScene.height, plan: run.plan)
      where run.isSelected(r.name) {
        run.record(r)
      }
    }
  }

  /// Nanoseconds per byte of memory traffic (read plus written) of a `memcpy` over `bytes`,
  /// a buffer big enough to live in DRAM rather than cache. `1 / p50` is the copy bandwidth
  /// in GB/s; keeping time (not rate) keeps the percentiles in order.
  static func copyTimePerByte(bytes: Int, plan: SamplingPlan) -> SampleStatistics {
    let source = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
    let destination = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
    defer {
      source.deallocate()
      destination.deallocate()
    }
    // Touch every page first so page faults are not measured as bandwidth.
    memset(source, 0x5A, bytes)
    memset(destination, 0, bytes)
    let m = Sampler.measure(plan.slow) {
      memcpy(destination, source, bytes)
      blackHole(destination)
    }
    return m.nanosecondsPerCall.scaled(by: 1 / (2 * Double(bytes)))
  }

  /// `limit/bandwidth` at one size: the bytes the step must touch per ring, streamed at the
  /// measured copy bandwidth, in ns per ring (`bytes / (bytes per ns)`).
  static func bandwidthResult(
    loaders: Int, rings: Int, bytesPerRing: Double, copyTimePerByte: SampleStatistics
  ) -> BenchResult {
    BenchResult(
      name: "limit/bandwidth", loaders: loaders, rings: rings, unit: "ns/ring",
      statistics: copyTimePerByte.scaled(by: bytesPerRing),
      details: [
        "\(Format.value(bytesPerRing)) B/ring at \(Format.value(1 / copyTimePerByte.p50)) GB/s (memcpy p50)"
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
