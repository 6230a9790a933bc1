import LoaderCore

/// `step/soa`, `step/naive` and `limit/bandwidth`.
enum StepBenchmarks {
  static func run(_ run: BenchRun) throws {
    // STUB: RotationEngine / NaiveLoaderSimulation are not on main yet (issue 3).
    if run.isSelected("step/") {
      run.note("step/soa, step/naive: SKIPPED (stub): RotationEngine is not on main yet")
    }
  }
}
