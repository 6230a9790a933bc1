import Foundation

/// Builds the `--trace` JSON document:
/// `{"frames": [{"t": 0.35, "rings": [{"loader": 0, "ring": 0, "cx": 53.0, "cy": 60.0,
/// "radius": 25.0, "angle": 210.0}, ...]}]}` with lengths in output pixels.
struct TraceWriter {
  private(set) var json = "{\"frames\": ["
  private var frameCount = 0

  /// Adds one frame; `rings` in points, written scaled by `scale`.
  mutating func add(time: Double, rings: [SceneRing], scale: Double) {
    if frameCount > 0 { json += ", " }
    frameCount += 1
    json += "{\"t\": \(Self.number(time)), \"rings\": ["
    for (k, r) in rings.enumerated() {
      if k > 0 { json += ", " }
      json += "{\"loader\": \(r.loader), \"ring\": \(r.ring)"
      json +=
        ", \"cx\": \(Self.number(r.centerX * scale)), \"cy\": \(Self.number(r.centerY * scale))"
      json += ", \"radius\": \(Self.number(r.radius * scale)), \"angle\": \(Self.number(r.angle))}"
    }
    json += "]}"
  }

  var document: String { json + "]}\n" }

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
