import Foundation

// Order matters: everything that can be refused is refused before a release build starts or
// anything is measured, so `--help` and bad flags are instant even in a debug build.
let arguments = Array(CommandLine.arguments.dropFirst())
let options: BenchOptions
do {
  options = try BenchOptions.parse(arguments)
} catch {
  printError("bench: \(error)")
  exit(2)
}
let renderer: BenchRenderer
do {
  renderer = try BenchRenderer.fromEnvironment()
} catch {
  printError("bench: \(error)")
  exit(2)
}
if options.help {
  print(BenchOptions.usage)
  exit(0)
}
if let f = options.filter, !BenchCatalogue.names.contains(where: { $0.contains(f) }) {
  printError(
    "bench: --filter '\(f)' matches no entry (entries: \(BenchCatalogue.names.joined(separator: ", ")))"
  )
  exit(2)
}
do {
  if let p = options.jsonPath { try OutputFile.checkWritable(p, flag: "--json") }
  if let p = options.chartPath { try OutputFile.checkWritable(p, flag: "--chart") }
} catch {
  printError("bench: \(error)")
  exit(2)
}

ReleaseRelaunch.relaunchInReleaseIfNeeded(arguments: arguments)
if ReleaseRelaunch.isDebugBuild { print(ReleaseRelaunch.warning) }
// Nothing here opens a window; if anything asks SDL for video, it gets the headless driver.
setenv("SDL_VIDEODRIVER", "dummy", 0)

print("# bench: \(MachineDescription.summary)")
print("# command: bench \(arguments.joined(separator: " "))")
let started = Stopwatch.now()
let run = BenchRun(options: options, renderer: renderer)
do {
  try run.run()
  if let p = options.jsonPath {
    try OutputFile.write(BenchResult.json(run.results), to: p)
    print("wrote \(p)")
  }
  if let p = options.chartPath {
    try ScalingChart.save(
      ScalingChart.panels(from: run.results),
      footer: [
        "p50 of each entry. raster/*: seeded random 50-pt rings at scale 1; frame/*: the grid scene"
          + " (step + draw + present), scaled to fit 1920x1080, so rings shrink past ~100 loaders.",
        "bench \(arguments.joined(separator: " ")) | \(MachineDescription.summary)",
      ],
      to: p)
    print("wrote \(p)")
  }
} catch {
  printError("bench: \(error)")
  exit(1)
}
print("total \(String(format: "%.1f", Double(Stopwatch.now() - started) / 1e9)) s")
