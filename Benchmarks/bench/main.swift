import Foundation
import SwiftLoaderSupport

// A `host/*` child (this executable started again by `HostBenchmarks`) runs its host and exits.
HostChild.runIfRequested()
// Order matters: everything that can be refused is refused before a release build starts or
// anything is measured, so `--help` and bad flags are instant even in a debug build.
let arguments = Array(CommandLine.arguments.dropFirst())
let options: BenchOptions
do {
  options = try BenchOptions.parse(arguments)
} catch {
  printError(error.description)
  exit(2)
}
let renderer: BenchRenderer
do {
  renderer = try BenchRenderer.fromEnvironment()
} catch {
  printError(error.description)
  exit(2)
}
if options.help {
  print(BenchOptions.usage, terminator: "")
  exit(0)
}
// Every output is checked before anything is measured; two outputs may not be one file.
var outputTargets: [OutputTarget] = []
for (flag, path) in [("--json", options.jsonPath), ("--chart", options.chartPath)] {
  guard let path else { continue }
  do {
    let target = try OutputFile.check(path)
    if outputTargets.contains(target) {
      printError("bench: \(flag): \(ErrorLine.quote(path)) is already the other output")
      exit(2)
    }
    outputTargets.append(target)
  } catch {
    printError("bench: \(flag): \(error)")
    exit(2)
  }
}

ReleaseRelaunch.relaunchInReleaseIfNeeded(arguments: arguments)
// A JSON or chart on standard output gets it to itself: the table goes to standard error.
if outputTargets.contains(.standardOutput) {
  do {
    try StandardStreams.reserveOutput()
  } catch {
    printError("bench: \(error)")
    exit(1)
  }
}
if ReleaseRelaunch.isDebugBuild { print(ReleaseRelaunch.warning) }
Cancellation.install(program: "bench")
// Nothing here opens a window; if anything asks SDL for video, it gets the headless driver.
setenv("SDL_VIDEODRIVER", "dummy", 0)

print("# bench: \(MachineDescription.summary)")
print("# command: bench \(arguments.joined(separator: " "))")
if !AllocationCounter.isCounting {
  print("# allocations: not counted (a sanitized build: its runtime owns malloc), shown as 0")
}
let started = Stopwatch.now()
let run = BenchRun(options: options, renderer: renderer)
do {
  try run.run()
  // Both files are complete before either is renamed into place, so a full disk leaves
  // neither.
  var outputs: [OutputFile] = []
  if let p = options.jsonPath {
    let file = try OutputFile(path: p)
    try file.write(BenchResult.json(run.results))
    outputs.append(file)
  }
  if let p = options.chartPath {
    let file = try OutputFile(path: p)
    try file.write(
      ScalingChart.png(
        ScalingChart.panels(from: run.results),
        footer: [
          "p50 of each entry. raster/*: seeded random 50-pt rings at scale 1; frame/*: the grid"
            + " scene (step + draw + present), scaled to fit 1920x1080, so rings shrink past ~100"
            + " loaders.",
          "bench \(arguments.joined(separator: " ")) | \(MachineDescription.summary)",
        ]))
    outputs.append(file)
  }
  try OutputFile.commit(outputs)
  for file in outputs { print("wrote \(file.path)") }
} catch let error as Interruption {
  printError("bench: \(error)")
  exit(error.exitStatus)
} catch let error as OutputError {
  printError("bench: \(error)")
  exit(error.kind == .usage ? 2 : 1)
} catch {
  printError("bench: \(error)")
  exit(1)
}
print("total \(String(format: "%.1f", Double(Stopwatch.now() - started) / 1e9)) s")
