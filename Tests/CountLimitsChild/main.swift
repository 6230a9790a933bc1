// One public (or engine) entry point that takes a count, a capacity, a thread count or a byte
// budget, fed one value, in a process of its own: `CountLimitsTests` runs it for each hostile
// value, so a trap (an overflow, a failed allocation) ends this process and the test sees the
// crash instead of losing its runner. Usage: `SwiftLoaderCountLimitsChild ENTRY VALUE`.
//
// It prints one line and exits 0:
//   ok [what it holds after the call]
//   error REASON: DESCRIPTION        a `LoaderField.Error` (REASON is its `reason`)
//   engine-error: DESCRIPTION        a `RotationEngine.Error`
//   running                          `add-loaders` still adding 2 s after it was called: the
//                                    count was taken (the checks come before the work)
// and exits 2 for an unknown entry or a value that is not an integer.
import Foundation
import LoaderCore
import LoaderSDL
import Synchronization

/// One line out, once: the `add-loaders` watch and the call's own outcome never both print.
let printed = Mutex(false)

func finish(_ line: String) -> Never {
  let first = printed.withLock { done in
    defer { done = true }
    return !done
  }
  if first {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
    // `_exit`: no teardown while the other thread may still be adding loaders.
    _exit(0)
  }
  // The other thread printed and is exiting.
  while true { sleep(1) }
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let entry = arguments.first, let value = Int(arguments.last!) else {
  FileHandle.standardError.write(Data("usage: SwiftLoaderCountLimitsChild ENTRY VALUE\n".utf8))
  exit(2)
}

/// A view drawn into a small buffer with `cache`: a budget must leave the draw working.
func drawIntoBuffer(cache: LoaderPixelCache) throws {
  var words = [UInt32](repeating: 0xFFFF_FFFF, count: 390 * 120)
  let view = LoaderView(isAnimating: true)
  let drawn = try words.withUnsafeMutableBytes { raw in
    try view.draw(
      into: PixelBuffer(bytes: raw, width: 390, height: 120, format: .bgraPremultiplied),
      in: LoaderRect(x: 0, y: 0, width: 390, height: 120), at: 0.35, cache: cache)
  }
  guard drawn != nil else { finish("nothing drawn") }
}

/// A view drawn on a software renderer into a surface (no video subsystem needed).
func drawOnRenderer(budgetBytes: Int) throws(LoaderField.Error) -> Int {
  guard
    let surface = SDL_CreateRGBSurfaceWithFormat(
      0, 390, 120, 32, SDL_PIXELFORMAT_ARGB8888.rawValue),
    let renderer = SDL_CreateSoftwareRenderer(surface)
  else { finish("SDL: \(String(cString: SDL_GetError()))") }
  let loaders = LoaderRenderer(renderer, surface: surface, budgetBytes: budgetBytes)
  let view = LoaderView(isAnimating: true)
  try view.draw(on: loaders, in: SDL_FRect(x: 0, y: 0, w: 390, h: 120), at: 0.35)
  loaders.budgetBytes = budgetBytes
  try view.draw(on: loaders, in: SDL_FRect(x: 0, y: 0, w: 390, h: 120), at: 0.7)
  return loaders.budgetBytes
}

do {
  switch entry {
  case "field-capacity":
    let field = try LoaderField(capacity: value)
    finish("ok count=\(field.count)")
  case "field-threads":
    let field = try LoaderField(threads: value)
    finish("ok threads=\(field.threads)")
  case "set-threads":
    let field = try LoaderField(threads: 1)
    try field.setThreads(value)
    finish("ok threads=\(field.threads)")
  case "add-loaders":
    let field = try LoaderField(threads: 1)
    // A count the field takes keeps it adding for seconds when it is large: the watch says
    // so and ends the process (the memory goes with it).
    Thread {
      sleep(2)
      finish("running")
    }.start()
    try field.addLoaders(value, isAnimating: true, at: 0)
    finish("ok count=\(field.count)")
  case "add-loaders-after-one":
    // The same with a loader already there: `count + n` must not overflow either.
    let field = try LoaderField(threads: 1)
    try field.addLoader(isAnimating: true, at: 0)
    Thread {
      sleep(2)
      finish("running")
    }.start()
    try field.addLoaders(value, isAnimating: true, at: 0)
    finish("ok count=\(field.count)")
  case "engine-capacity":
    let engine = try RotationEngine(dt: 1.0 / 120, capacity: value, threadCount: 1)
    finish("ok count=\(engine.count)")
  case "engine-thread-count":
    let engine = try RotationEngine(dt: 1.0 / 120, threadCount: value)
    finish("ok threads=\(engine.threadCount)")
  case "engine-set-thread-count":
    var engine = try RotationEngine(dt: 1.0 / 120, threadCount: 1)
    try engine.setThreadCount(value)
    finish("ok threads=\(engine.threadCount)")
  case "cache-budget":
    let cache = LoaderPixelCache(budgetBytes: value)
    try drawIntoBuffer(cache: cache)
    cache.budgetBytes = value
    try drawIntoBuffer(cache: cache)
    finish("ok budget=\(cache.budgetBytes)")
  case "renderer-budget":
    finish("ok budget=\(try drawOnRenderer(budgetBytes: value))")
  case "buffer-width", "buffer-height", "buffer-row":
    // A buffer of 16 x 16 pixels described with one size replaced: the checked initializer
    // must refuse what does not fit. (The unchecked one takes the caller's word for the
    // memory: a height past it is the caller's bug, and no check can see it.)
    var words = [UInt32](repeating: 0, count: 16 * 16)
    let width = entry == "buffer-width" ? value : 16
    let height = entry == "buffer-height" ? value : 16
    let row = entry == "buffer-row" ? value : 64
    try words.withUnsafeMutableBytes { raw in
      _ = try PixelBuffer(
        bytes: raw, width: width, height: height, bytesPerRow: row, format: .rgbaPremultiplied)
    }
    finish("ok")
  default:
    FileHandle.standardError.write(Data("unknown entry \(entry)\n".utf8))
    exit(2)
  }
} catch let e as LoaderField.Error {
  finish("error \(e.reason): \(e)")
} catch let e as RotationEngine.Error {
  finish("engine-error: \(e)")
} catch {
  finish("other error: \(error)")
}
