import Foundation
import LoaderCore
import LoaderSDL

/// Renders frames offscreen and writes them as PNGs (and optionally a trace).
///
/// Nothing is written until every check has passed: the output directory exists (or was just
/// created) and accepts files, and the trace's directory accepts files. Every file is written
/// to a temporary name and renamed into place.
struct HeadlessRun {
  var options: DemoOptions

  enum Failure: Error, CustomStringConvertible {
    case usage(UsageError)
    case render(String)
    var description: String {
      switch self {
      case .usage(let u): u.description
      case .render(let s): "demo: \(s)"
      }
    }
  }

  /// Returns the paths written, frames first.
  func run() throws(Failure) -> (frames: [String], trace: String?) {
    let dir = options.outDirectory ?? DemoOptions.defaultOutDirectory
    try Self.checkCanCreate(directory: dir, flag: "--out")
    if let trace = options.tracePath {
      var isDir: ObjCBool = false
      if FileManager.default.fileExists(atPath: trace, isDirectory: &isDir), isDir.boolValue {
        throw .usage(UsageError(flag: "--trace", problem: "'\(trace)' is a directory"))
      }
      let parent = Self.standardized((trace as NSString).deletingLastPathComponent)
      // A trace inside the frames' directory is fine even before that directory exists.
      if parent != Self.standardized(dir) {
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDir), isDir.boolValue
        else {
          throw .usage(UsageError(flag: "--trace", problem: "directory '\(parent)' does not exist"))
        }
        try Self.checkWritable(directory: parent, flag: "--trace")
      }
    }
    // Every check has passed: only now may the directory be created.
    try Self.prepareDirectory(dir, flag: "--out")

    do {
      return try render(to: dir)
    } catch {
      throw .render(error.description)
    }
  }

  /// Draws the scene at each `--at` time (a fresh scene when a time goes back: the field
  /// only moves forward).
  private func render(to dir: String) throws(DrawFailure) -> (frames: [String], trace: String?) {
    let times = options.times ?? DemoOptions.defaultTimes
    let scale = options.scale
    let canvas: OffscreenCanvas
    do {
      canvas = try OffscreenCanvas(
        width: Int((options.width * scale).rounded()),
        height: Int((options.height * scale).rounded()))
    } catch {
      throw DrawFailure(description: error.description)
    }
    // The container in pixels is the points times the scale, unrounded, so the field lays the
    // loaders out in exactly `--size` points.
    let frame = SDL_FRect(
      x: 0, y: 0, w: Float(options.width * scale), h: Float(options.height * scale))
    var scene = try makeScene(on: canvas)
    let trace: TraceWriter? =
      if let path = options.tracePath {
        try TraceWriter(path: path, toggles: scene.schedule)
      } else { nil }

    var written: [String] = []
    do throws(DrawFailure) {
      for (k, t) in times.enumerated() {
        let path = (dir as NSString).appendingPathComponent(String(format: "frame-%04d.png", k))
        if !scene.canDraw(at: t) { scene = try makeScene(on: canvas) }
        let layout: SceneLayout
        do throws(LoaderField.Error) {
          try scene.draw(on: canvas.renderer, in: frame, scale: scale, at: t)
          layout = try scene.layout(width: options.width, height: options.height)
        } catch {
          throw DrawFailure(description: error.description)
        }
        do {
          try canvas.savePNG(to: path)
        } catch {
          throw DrawFailure(description: error.description)
        }
        written.append(path)
        try trace?.addFrame(time: t, scene: scene, layout: layout, scale: scale)
      }
      try trace?.finish()
    } catch {
      // All or nothing: a failed run leaves no frames and no trace behind.
      for p in written { unlink(p) }
      trace?.discard()
      throw error
    }
    return (written, options.tracePath)
  }

  /// The scene the options describe, at time 0, drawing straight into `canvas`'s pixels.
  func makeScene(on canvas: OffscreenCanvas) throws(DrawFailure) -> LoaderScene {
    do {
      let scene = try LoaderScene(
        kind: options.scene, count: options.count, style: options.style,
        background: options.theme.palette.background,
        motion: options.reducedMotion ? .reduced : .full, script: options.script)
      scene.field.attach(surface: canvas.surface)
      if let backend = options.backend {
        try scene.field.setBackend(backend, on: canvas.renderer)
      }
      return scene
    } catch {
      throw DrawFailure(description: error.description)
    }
  }

  static func standardized(_ path: String) -> String {
    URL(fileURLWithPath: path.isEmpty ? "." : path).standardizedFileURL.path
  }

  /// Checks, creating nothing, that `dir` is a writable directory or could be created: its
  /// nearest existing ancestor is a writable directory.
  static func checkCanCreate(directory dir: String, flag: String) throws(Failure) {
    var path = standardized(dir)
    var isDir: ObjCBool = false
    while !FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
      let up = (path as NSString).deletingLastPathComponent
      if up == path || up.isEmpty { break }
      path = up
    }
    guard isDir.boolValue else {
      throw .usage(UsageError(flag: flag, problem: "'\(path)' is not a directory"))
    }
    try checkWritable(directory: path, flag: flag)
  }

  /// Creates `dir` if needed and checks that a file can be created in it.
  static func prepareDirectory(_ dir: String, flag: String) throws(Failure) {
    var isDir: ObjCBool = false
    if FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) {
      guard isDir.boolValue else {
        throw .usage(UsageError(flag: flag, problem: "'\(dir)' exists and is not a directory"))
      }
    } else {
      do {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
      } catch {
        throw .usage(UsageError(flag: flag, problem: "cannot create directory '\(dir)'"))
      }
    }
    try checkWritable(directory: dir, flag: flag)
  }

  /// Creates and removes a probe file: `access(W_OK)` says yes to root on a read-only mount.
  static func checkWritable(directory dir: String, flag: String) throws(Failure) {
    let probe = (dir as NSString).appendingPathComponent(".demo-probe-\(getpid())")
    let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    guard fd >= 0 else {
      let reason = String(cString: strerror(errno))
      throw .usage(UsageError(flag: flag, problem: "cannot write in '\(dir)': \(reason)"))
    }
    close(fd)
    unlink(probe)
  }
}
