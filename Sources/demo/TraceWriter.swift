import Foundation
import LoaderCore
import LoaderSDL

/// Streams the `--trace` JSON document to a temporary file beside its path, renamed into
/// place by `finish()`:
/// ```
/// {"toggles": {"0": [{"t": 0.0, "on": true}, ...], ...},      (only with --toggle-random)
///  "frames": [{"t": 0.35, "rings": [{"loader": 0, "ring": 0, "cx": 53.0, "cy": 60.0,
///              "radius": 25.0, "angle": 210.0}, ...]}, ...]}
/// ```
/// Lengths in output pixels, angles in degrees clockwise, unwrapped. Toggle times are
/// written in full (shortest round-trip) so the schedule replays exactly.
final class TraceWriter {
  let path: String
  private let output: AtomicFile
  private var file: UnsafeMutablePointer<FILE>?
  private var frameCount = 0
  private var buffer = ""

  init(path: String, toggles: ToggleSchedule?) throws(DrawFailure) {
    self.path = path
    output = AtomicFile(path: path)
    guard let f = fopen(output.temporaryPath, "w") else {
      throw DrawFailure(
        description: "cannot write '\(output.temporaryPath)': \(String(cString: strerror(errno)))"
      )
    }
    file = f
    buffer = "{"
    if let toggles { writeToggles(toggles) }
    buffer += "\"frames\": ["
  }

  deinit { discard() }

  private func writeToggles(_ schedule: ToggleSchedule) {
    var perLoader = [[ToggleSchedule.Event]](repeating: [], count: schedule.loaderCount)
    for e in schedule.events where perLoader.indices.contains(e.loader) {
      perLoader[e.loader].append(e)
    }
    buffer += "\"toggles\": {"
    for (i, events) in perLoader.enumerated() {
      if i > 0 { buffer += ", " }
      buffer += "\"\(i)\": ["
      for (k, e) in events.enumerated() {
        if k > 0 { buffer += ", " }
        buffer += "{\"t\": \(e.time), \"on\": \(e.isAnimating)}"
      }
      buffer += "]"
      spill()
    }
    buffer += "}, "
  }

  /// Adds the frame at `t`: every loader's rings, exact angles from the engine.
  func addFrame(
    time t: Double, scene: LoaderScene, layout: SceneLayout, scale: Double
  ) throws(DrawFailure) {
    if frameCount > 0 { buffer += ", " }
    frameCount += 1
    buffer += "{\"t\": \(Self.number(t)), \"rings\": ["
    let radius = Self.number(layout.ringRadius * scale)
    for i in 0..<min(scene.count, layout.count) {
      let origin = layout.origin(ofLoader: i)
      for (r, offset) in layout.ringOffsets.enumerated() {
        let angle: Double
        do {
          angle = try scene.engine.angle(loader: scene.loaders[i], ring: r, at: t)
        } catch {
          throw DrawFailure(description: error.description)
        }
        if i > 0 || r > 0 { buffer += ", " }
        buffer += "{\"loader\": \(i), \"ring\": \(r)"
        buffer += ", \"cx\": \(Self.number((origin.x + offset.x) * scale))"
        buffer += ", \"cy\": \(Self.number((origin.y + offset.y) * scale))"
        buffer += ", \"radius\": \(radius), \"angle\": \(Self.number(angle))}"
      }
      spill()
    }
    buffer += "]}"
    spill()
  }

  /// Completes the document and renames it into place.
  func finish() throws(DrawFailure) {
    buffer += "]}\n"
    spill(force: true)
    guard let f = file else { throw DrawFailure(description: "trace already closed") }
    file = nil
    let failed = ferror(f) != 0
    if fclose(f) != 0 || failed {
      output.discard()
      throw DrawFailure(description: "cannot write '\(output.temporaryPath)'")
    }
    do {
      try output.commit()
    } catch {
      throw DrawFailure(description: "trace: \(error.description)")
    }
  }

  /// Drops the partial file (a failed run leaves nothing behind).
  func discard() {
    guard let f = file else { return }
    file = nil
    fclose(f)
    output.discard()
  }

  /// Writes the buffer out once it is large (or always, with `force`).
  private func spill(force: Bool = false) {
    guard force || buffer.utf8.count >= 1 << 20, let f = file else { return }
    fputs(buffer, f)
    buffer.removeAll(keepingCapacity: true)
  }

  /// A JSON number: rounded to 1e-9 so float noise (`209.99999999999997`) reads as the value
  /// it stands for, then Swift's shortest round-trip form. Non-finite values cannot occur
  /// (every input is validated); they are written as 0 rather than as invalid JSON.
  static func number(_ x: Double) -> String {
    guard x.isFinite else { return "0" }
    var v = x
    if abs(x) < 1e15 { v = (x * 1e9).rounded() / 1e9 }
    if v == 0 { v = 0 }  // no "-0.0"
    return "\(v)"
  }
}
