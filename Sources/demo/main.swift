import Foundation
import LoaderSDL
import SwiftLoaderFrameRecording
import SwiftLoaderSupport

// Exit statuses: 0 done, 1 drawing, SDL or writing failed, 2 bad command line, 130 / 143
// interrupted by SIGINT / SIGTERM (partial output removed).

let options: DemoOptions
do {
  options = try DemoOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  printError("\(error)")
  exit(2)
}
if options.help {
  print(DemoOptions.helpText, terminator: "")
  exit(0)
}
if options.info {
  do {
    print(try RendererReport.lines(for: options).joined(separator: "\n"))
    exit(0)
  } catch {
    printError("demo: --info: \(error)")
    exit(1)
  }
}

/// Renders headless and says where the files went; returns the exit status. Everything the
/// run allocated is released before `exit` (valgrind counts what is still held then).
func headlessStatus(_ options: DemoOptions) -> Int32 {
  Cancellation.install(program: "demo")
  do {
    if let path = options.recordPath, let format = VectorFormat(path: path) {
      print(try VectorRecording.write(options, to: path, format: format))
      return 0
    }
    if let path = options.recordPath, let format = RecordingFormat(path: path) {
      let plan = try HeadlessRun(options: options).record(to: path, format: format)
      print("demo: wrote \(plan.summary) to \(path)")
      return 0
    }
    let result = try HeadlessRun(options: options).run()
    let names = result.frames.map { ($0 as NSString).lastPathComponent }
    let dir = options.outDirectory ?? DemoOptions.defaultOutDirectory
    let absolute = URL(fileURLWithPath: dir).standardizedFileURL.path
    print(
      "demo: wrote \(names.count) PNG frame(s) to \(absolute)/: \(names.joined(separator: " "))")
    if let trace = result.trace { print("demo: wrote trace to \(trace)") }
    return 0
  } catch {
    printError("\(error)")
    switch error {
    case .usage: return 2
    case .render: return 1
    case .interrupted(let i): return i.exitStatus
    }
  }
}

func runHeadless(_ options: DemoOptions) -> Never {
  exit(headlessStatus(options))
}

let environment = ProcessInfo.processInfo.environment
let offscreenOnly =
  options.headless || environment["SDL_VIDEODRIVER"] == "dummy" || options.times != nil
  || options.outDirectory != nil || options.tracePath != nil || options.recordPath != nil
if offscreenOnly { runHeadless(options) }

if environment["SDL_VIDEODRIVER"] == nil, (environment["DISPLAY"] ?? "").isEmpty,
  (environment["WAYLAND_DISPLAY"] ?? "").isEmpty
{
  printError("demo: no display (DISPLAY and WAYLAND_DISPLAY are unset); rendering headless instead")
  runHeadless(options)
}

// Before SDL starts: SDL installs its own SIGINT / SIGTERM handlers (a plain quit, exit 0)
// only where a signal still has its default action.
Cancellation.install(program: "demo")
let windowRun = WindowRun(options: options)
let window: LoaderWindow
do {
  window = try windowRun.open()
} catch {
  printError("demo: cannot open a window (\(error)); rendering headless instead")
  runHeadless(options)
}
do {
  if let interruption = try windowRun.run(in: window) {
    printError("demo: \(interruption)")
    exit(interruption.exitStatus)
  }
} catch {
  printError("demo: \(error)")
  exit(1)
}
