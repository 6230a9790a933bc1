import Foundation
import LoaderCore
import LoaderSDL
import SwiftLoaderCanvas
import SwiftLoaderHarness
import SwiftLoaderSupport

/// Renders frames offscreen and writes them as PNGs (and optionally a trace).
///
/// Nothing is written until every check has passed: the output directory exists or can be
/// created and accepts files, and the trace names a file (not a directory, a device, or one
/// of the frames). Every file goes through `OutputFile`; a failed or interrupted run removes
/// the frames it wrote, the trace's temporary and the directories it created.
struct HeadlessRun {
  var options: DemoOptions

  enum Failure: Error, CustomStringConvertible {
    case usage(UsageError)
    case render(String)
    case interrupted(Interruption)
    var description: String {
      switch self {
      case .usage(let u): u.description
      case .render(let s): "demo: \(s)"
      case .interrupted(let i): "demo: \(i)"
      }
    }
  }

  /// The frames' size in pixels: `--size` at `--zoom` pixels per point (checked by
  /// `DemoOptions` to fit `ScenePixelSizes`).
  var framePixels: (width: Int, height: Int) {
    (
      Int(ScenePixelSizes.pixels(options.width, density: options.zoom)),
      Int(ScenePixelSizes.pixels(options.height, density: options.zoom))
    )
  }

  /// Returns the paths written, frames first.
  func run() throws(Failure) -> (frames: [String], trace: String?) {
    let dir = options.outDirectory ?? DemoOptions.defaultOutDirectory
    do {
      try OutputDirectory.check(dir)
    } catch {
      throw .usage(UsageError(flag: "--out", problem: error.description))
    }
    // A trace inside the frames' directory can only be checked once that directory exists.
    if let trace = options.tracePath, Self.parent(of: trace) != Self.standardized(dir) {
      try Self.checkTrace(trace, frames: nil)
    }
    // Every check has passed: only now may the directory be created.
    let directory: OutputDirectory
    do {
      directory = try OutputDirectory(creating: dir)
    } catch {
      throw error.kind == .usage
        ? .usage(UsageError(flag: "--out", problem: error.description))
        : .render("--out: \(error)")
    }
    do throws(Failure) {
      let times = options.times ?? DemoOptions.defaultTimes
      // A frame's name taken by a directory, a device or a fifo is refused before any work.
      for (k, t) in times.enumerated() {
        let path = (dir as NSString).appendingPathComponent(Self.frameName(k, time: t))
        do {
          _ = try OutputFile.check(path)
        } catch {
          throw error.kind == .usage
            ? .usage(UsageError(flag: "--out", problem: error.description))
            : .render("--out: \(error)")
        }
      }
      if let trace = options.tracePath {
        try Self.checkTrace(trace, frames: (dir, times))
        if OutputTarget.isStandardOutput(trace) {
          do {
            try StandardStreams.reserveOutput()
          } catch {
            throw .render(error.description)
          }
        }
      }
      do {
        return try render(to: dir)
      } catch {
        if let signal = Cancellation.signal { throw .interrupted(Interruption(signal: signal)) }
        throw .render(error.description)
      }
    } catch {
      directory.removeCreated()
      throw error
    }
  }

  /// Refuses a trace path that cannot be written or that would land on a frame (`frames`:
  /// the frames' directory and count, once it exists).
  static func checkTrace(_ trace: String, frames: (directory: String, times: [Double])?)
    throws(Failure)
  {
    let target: OutputTarget
    do {
      target = try OutputFile.check(trace)
    } catch {
      throw .usage(UsageError(flag: "--trace", problem: error.description))
    }
    guard let frames, case .file(let resolved) = target else { return }
    let resolvedParent = parent(of: resolved, resolvingLinks: true)
    guard resolvedParent == standardized(frames.directory, resolvingLinks: true) else { return }
    let name = (resolved as NSString).lastPathComponent
    if isFrameName(name) {
      throw .usage(
        UsageError(
          flag: "--trace",
          problem: "\(ErrorLine.quote(trace)) is one of the frames --out writes or clears"))
    }
  }

  /// `frame-0000-t0.000.png`, ...: frame `k`'s file name, with its `--at` time in seconds to
  /// the millisecond (the index keeps two times that round alike apart).
  static func frameName(_ k: Int, time t: Double) -> String {
    String(format: "frame-%04d-t%.3f.png", k, t)
  }

  /// Whether `name` has `frameName`'s pattern: the files a run clears from `--out` before it
  /// writes its own, so a directory never holds frames of two runs.
  static func isFrameName(_ name: String) -> Bool {
    guard name.hasPrefix("frame-"), name.hasSuffix(".png") else { return false }
    let middle = name.dropFirst("frame-".count).dropLast(".png".count)
    let parts = middle.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0].count >= 4, parts[0].allSatisfy(\.isASCII),
      parts[0].allSatisfy(\.isNumber), parts[1].hasPrefix("t")
    else { return false }
    let time = parts[1].dropFirst().split(separator: ".", omittingEmptySubsequences: false)
    return time.count == 2 && time[1].count == 3
      && time.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
  }

  /// Removes the regular files in `dir` named like frames (`isFrameName`), an earlier run's,
  /// except `keeping` (the frames about to be renamed over them).
  static func clearFrames(in dir: String, keeping: Set<String> = []) throws(DrawFailure) {
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: dir)
    } catch {
      throw .output(file: "--out", error)
    }
    for name in names.sorted() where isFrameName(name) {
      let path = (dir as NSString).appendingPathComponent(name)
      if keeping.contains(path) { continue }
      var info = stat()
      guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
      guard unlink(path) == 0 else {
        throw .output(
          file: "--out",
          OutputError(
            .io,
            "cannot remove the earlier frame \(ErrorLine.quote(path)): "
              + String(cString: strerror(errno))))
      }
    }
  }

  static func parent(of path: String, resolvingLinks: Bool = false) -> String {
    let slash = path.lastIndex(of: "/")
    let up = slash.map { String(path[..<$0]) } ?? "."
    return standardized(up.isEmpty ? "/" : up, resolvingLinks: resolvingLinks)
  }

  /// Draws the scene at each `--at` time (a fresh scene when a time goes back: the field
  /// only moves forward), with a progress line on a terminal.
  private func render(to dir: String) throws(DrawFailure) -> (frames: [String], trace: String?) {
    let times = options.times ?? DemoOptions.defaultTimes
    let scale = options.zoom
    let (canvas, frame) = try makeCanvasAndFrame(
      width: framePixels.width, height: framePixels.height)
    var scene = try makeScene()
    let hud = try makeHUD()
    let trace: TraceWriter? =
      if let path = options.tracePath {
        try TraceWriter(path: path, toggles: scene.schedule)
      } else { nil }

    var written: [String] = []
    var files: [OutputFile] = []
    let progress = ProgressLine.standardError(
      label: "demo: \(dir)/", total: times.count, quiet: options.quiet)
    defer { progress.finish() }
    do throws(DrawFailure) {
      for (k, t) in times.enumerated() {
        if Cancellation.signal != nil { throw .interrupted }
        let path = (dir as NSString).appendingPathComponent(Self.frameName(k, time: t))
        if !scene.canDraw(at: t) { scene = try makeScene() }
        let layout: SceneLayout
        do throws(LoaderField.Error) {
          try draw(scene, on: canvas, in: frame, at: t, hud: hud)
          layout = try scene.layout(width: options.width, height: options.height)
        } catch {
          throw .field(error)
        }
        do {
          let file = try OutputFile(path: path)
          try file.write(try canvas.pngData())
          try file.finish()
          files.append(file)
        } catch {
          throw .output(file: nil, error)
        }
        written.append(path)
        try trace?.addFrame(time: t, scene: scene, layout: layout, scale: scale)
        progress.update(done: k + 1)
      }
      try trace?.finish()
      // All or nothing: the frames and the trace are renamed into place together, once every
      // byte is on disk, so a failed or interrupted run leaves what was there before. Only
      // then do an earlier run's frames go, so the directory never mixes two runs.
      try Self.clearFrames(in: dir, keeping: Set(written))
      do {
        try OutputFile.commit(files + (trace.map { [$0.output] } ?? []))
      } catch {
        throw .output(file: nil, error)
      }
    } catch {
      for file in files { file.discard() }
      trace?.discard()
      throw error
    }
    return (written, options.tracePath)
  }

  /// The canvas a headless run (frames or a recording) draws on, `width` x `height` pixels at
  /// render scale `--zoom` (the host's HiDPI habit: its density), and the container in those
  /// coordinates: exactly `--size` points.
  func makeCanvasAndFrame(width: Int, height: Int) throws(DrawFailure)
    -> (OffscreenCanvas, SDL_FRect)
  {
    do {
      let canvas = try Self.makeCanvas(width: width, height: height, backend: options.backend)
      let s = Float(options.zoom)
      SDL_RenderSetScale(canvas.renderer, s, s)
      let frame = SDL_FRect(x: 0, y: 0, w: Float(options.width), h: Float(options.height))
      return (canvas, frame)
    } catch {
      throw .sdl(error)
    }
  }

  /// `gpu` draws on OpenGL through SDL's offscreen (EGL) driver, the one renderer here that
  /// runs it; where there is none the run fails, naming why (SDL's software renderer cannot
  /// run it).
  static func makeCanvas(width: Int, height: Int, backend: RingBackend?) throws(SDLError)
    -> OffscreenCanvas
  {
    if backend == .gpu {
      do {
        return try .openGL(width: width, height: height)
      } catch {
        throw SDLError(
          "--backend gpu", message: "needs an OpenGL renderer, and there is none here: \(error)",
          reason: .unsupported)
      }
    }
    return try OffscreenCanvas(width: width, height: height)
  }

  /// `--hud on` headless: the HUD, its font found before anything is drawn.
  func makeHUD() throws(DrawFailure) -> HUD? {
    guard options.hud == true else { return nil }
    do {
      return try HUD()
    } catch {
      throw .font(error)
    }
  }

  /// One frame: the scene at `t`, then the HUD over it (frame times are the real time this
  /// frame took to draw, so its figures say what the run cost, not what it simulates).
  func draw(
    _ scene: LoaderScene, on canvas: OffscreenCanvas, in frame: SDL_FRect, at t: Double, hud: HUD?
  ) throws(LoaderField.Error) {
    let start = DispatchTime.now().uptimeNanoseconds
    try scene.draw(on: canvas.loaderRenderer, in: frame, at: t)
    guard let hud else { return }
    canvas.flush()
    hud.record(frameTime: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    // The HUD lays itself out in pixels.
    let s = Float(options.zoom)
    SDL_RenderSetScale(canvas.renderer, 1, 1)
    defer { SDL_RenderSetScale(canvas.renderer, s, s) }
    do {
      try hud.draw(
        on: canvas.renderer,
        stats: HUD.Info(scene: scene, animating: scene.animatingCount, renderer: "software"),
        scale: options.zoom)
    } catch {
      throw .failed(error)
    }
  }

  /// The scene the options describe, at time 0.
  func makeScene() throws(DrawFailure) -> LoaderScene {
    do {
      return try LoaderScene(options: options)
    } catch {
      throw .field(error)
    }
  }

  static func standardized(_ path: String, resolvingLinks: Bool = false) -> String {
    let url = URL(fileURLWithPath: path.isEmpty ? "." : path).standardizedFileURL
    return resolvingLinks ? url.resolvingSymlinksInPath().path : url.path
  }
}
