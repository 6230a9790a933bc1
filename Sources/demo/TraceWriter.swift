import Foundation
import LoaderCore
import LoaderSDL
import SwiftLoaderHarness
import SwiftLoaderSupport

/// Streams the `--trace` JSON document through `OutputFile` (complete or absent; `-` is
/// standard output):
/// ```
/// {"toggles": {"0": [{"on": true, "t": 0.0}, ...], ...},      (only with --toggle-random)
///  "frames": [{"t": 0.35, "rings": [{"angle": 210, "color": "#FF3B30FF", "cx": 53, "cy": 60,
///              "loader": 0, "radius": 25, "ring": 0}, ...]}, ...]}
/// ```
/// Lengths in output pixels (`radius`: half the ring's frame, as a sprite's fit makes it),
/// angles in degrees clockwise, unwrapped, colours `#RRGGBBAA` as the loader has them (its
/// opacity left out). Toggle times are written in full (shortest round-trip) so the schedule
/// replays exactly.
///
/// Every value is encoded by Foundation's `JSONEncoder` (escaping, number syntax), a chunk
/// of loaders at a time, so memory stays bounded by `loadersPerChunk` whatever the scene's
/// size; only the document's brackets are written here. A non-finite number is an error:
/// JSON has no spelling for it, and writing 0 instead would be a lie in the record.
final class TraceWriter {
  let output: OutputFile
  private var frameCount = 0
  private let encoder: JSONEncoder = {
    let e = JSONEncoder()
    e.outputFormatting = [.sortedKeys]
    e.nonConformingFloatEncodingStrategy = .throw
    return e
  }()
  /// Loaders encoded per `JSONEncoder` call: a few hundred kilobytes of JSON.
  static let loadersPerChunk = 1000

  private struct Ring: Encodable {
    var loader: Int
    var ring: Int
    var cx: Double
    var cy: Double
    var radius: Double
    var angle: Double
    var color: String
  }

  private struct Toggle: Encodable {
    var t: Double
    var on: Bool
  }

  init(path: String, toggles: ToggleSchedule?) throws(DrawFailure) {
    do {
      output = try OutputFile(path: path)
    } catch {
      throw .output(file: "--trace", error)
    }
    try write("{")
    if let toggles { try writeToggles(toggles) }
    try write("\"frames\": [")
  }

  private func writeToggles(_ schedule: ToggleSchedule) throws(DrawFailure) {
    var perLoader = [[Toggle]](repeating: [], count: schedule.loaderCount)
    for e in schedule.events where perLoader.indices.contains(e.loader) {
      // In full, not rounded: the schedule must replay exactly.
      guard e.time.isFinite else {
        throw .unrepresentable("trace: toggle time is \(e.time), which JSON cannot hold")
      }
      perLoader[e.loader].append(Toggle(t: e.time, on: e.isAnimating))
    }
    try write("\"toggles\": {")
    for (i, events) in perLoader.enumerated() {
      try write(i > 0 ? ", \"\(i)\": [" : "\"\(i)\": [")
      try write(elements(events))
      try write("]")
    }
    try write("}, ")
  }

  /// Adds the frame at `t`: every loader's rings, exact angles from the engine.
  func addFrame(
    time t: Double, scene: LoaderScene, layout: SceneLayout, scale: Double
  ) throws(DrawFailure) {
    try write(frameCount > 0 ? ", {\"t\": " : "{\"t\": ")
    frameCount += 1
    try write(elements([try finite(t, "time")]))
    try write(", \"rings\": [")
    let field = scene.field
    let cellRadius = try finite(layout.ringRadius * scale, "radius")
    var chunk: [Ring] = []
    chunk.reserveCapacity(Self.loadersPerChunk * field.style.ringCount)
    let loaders = scene.kind == .sprites ? scene.count : min(scene.count, layout.count)
    var first = true
    for start in stride(from: 0, to: loaders, by: Self.loadersPerChunk) {
      if Cancellation.signal != nil { throw .interrupted }
      chunk.removeAll(keepingCapacity: true)
      for i in start..<min(loaders, start + Self.loadersPerChunk) {
        let id = scene.loaders[i]
        let colors: [RGBAColor]
        // Sprites: each loader's rings where its own frame puts them.
        let centres: [(x: Double, y: Double, radius: Double)]
        do throws(LoaderField.Error) {
          colors = try field.colors(of: id)
          if scene.kind == .sprites {
            centres = try field.ringFrames(of: id).map { ($0.midX, $0.midY, $0.width / 2) }
          } else {
            let origin = layout.origin(ofLoader: i)
            centres = layout.ringOffsets.map {
              (origin.x + $0.x, origin.y + $0.y, layout.ringRadius)
            }
          }
        } catch {
          throw .field(error)
        }
        for (r, c) in centres.enumerated() {
          let angle: Double
          do {
            angle = try scene.engine.angle(loader: id, ring: r, at: t)
          } catch {
            throw .engine(error)
          }
          let radius = scene.kind == .sprites ? try finite(c.radius * scale, "radius") : cellRadius
          chunk.append(
            Ring(
              loader: i, ring: r, cx: try finite(c.x * scale, "cx"),
              cy: try finite(c.y * scale, "cy"), radius: radius,
              angle: try finite(angle, "angle"), color: Self.hex(colors[r % colors.count])))
        }
      }
      if !first { try write(", ") }
      first = false
      try write(elements(chunk))
    }
    try write("]}")
  }

  /// `#RRGGBBAA`.
  static func hex(_ c: RGBAColor) -> String {
    let v = UInt32(c.r) << 24 | UInt32(c.g) << 16 | UInt32(c.b) << 8 | UInt32(c.a)
    let digits = String(v, radix: 16, uppercase: true)
    return "#" + String(repeating: "0", count: 8 - digits.count) + digits
  }

  /// Completes the document and syncs it; the caller commits `output` with the frames.
  func finish() throws(DrawFailure) {
    try write("]}\n")
    do {
      try output.finish()
    } catch {
      throw .output(file: "--trace", error)
    }
  }

  /// Drops the partial document (a failed run leaves nothing behind).
  func discard() {
    output.discard()
  }

  /// The JSON of `values` without the array's brackets: elements joined by commas.
  private func elements(_ values: [some Encodable]) throws(DrawFailure) -> ArraySlice<UInt8> {
    let data: Data
    do {
      data = try encoder.encode(values)
    } catch {
      throw .output(file: "trace: cannot encode", error)
    }
    return ArraySlice(data.dropFirst().dropLast())
  }

  private func write(_ text: String) throws(DrawFailure) {
    try write(text.utf8)
  }

  private func write(_ bytes: some Collection<UInt8>) throws(DrawFailure) {
    do {
      try output.write(bytes)
    } catch {
      throw .output(file: "--trace", error)
    }
  }

  /// `x` rounded to 1e-9 so float noise (`209.99999999999997`) reads as the value it stands
  /// for (`-0` as `0`); a non-finite value is refused, naming `what`.
  func finite(_ x: Double, _ what: String) throws(DrawFailure) -> Double {
    guard x.isFinite else {
      throw .unrepresentable("trace: \(what) is \(x), which JSON cannot hold")
    }
    var v = x
    if abs(x) < 1e15 { v = (x * 1e9).rounded() / 1e9 }
    return v == 0 ? 0 : v
  }
}
