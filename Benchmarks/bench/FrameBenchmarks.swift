import LoaderCore
import LoaderSDL

/// `frame/<backend>`: the demo's grid scene, engine step + raster + present.
enum FrameBenchmarks {
  static func run(_ run: BenchRun) throws {
    // STUB: needs RotationEngine, GridLayout and RingBackend (issues 3 and 4).
    if run.isSelected("frame/") {
      run.note(
        "frame/*: SKIPPED (stub): RotationEngine, GridLayout and RingBackend are not on main yet")
    }
  }
}
