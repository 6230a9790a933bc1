import LoaderCore
import LoaderSDL

/// `raster/<backend>` for every registered backend and `raster/cairo`.
enum RasterBenchmarks {
  // STUB: the RingBackend registry and CairoReference renderer are not on main yet (issue 4).
  static var backendNames: [String] { [] }

  static func run(_ run: BenchRun) throws {
    if run.isSelected("raster/") {
      run.note("raster/*: SKIPPED (stub): RingBackend and CairoRingRenderer are not on main yet")
    }
  }
}
