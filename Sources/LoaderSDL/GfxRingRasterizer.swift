import CSDL2
import Foundation
import LoaderCore

/// Draws dashed rings with SDL2_gfx primitives only.
///
/// SDL2_gfx has no thick arc and takes integer (`Sint16`) pixel indices, so each dash (a
/// capsule bent along the ring) becomes one closed polygon: the outer arc, the end cap's half
/// circle, the inner arc backwards, the start cap's half circle. It is drawn twice:
/// - `filledPolygonRGBA` fills every pixel whose centre lies inside the polygon;
/// - `aapolygonRGBA` traces the same outline with Wu lines, which give a pixel at distance
///   `u < 1` from a line the weight `1 - u`.
///
/// Both use the polygon *inset* by `inset` (half a pixel): a pixel whose centre lies at
/// signed distance `d` from the true edge (negative inside) is at `d + 1/2` from the inset
/// line, so the Wu weight `1 - |d + 1/2|` equals the ideal box-filtered coverage
/// `clamp(1/2 - d, 0, 1)` for `-1/2 <= d <= 1/2`, and pixels deeper inside are filled.
///
/// Half-pixel convention: SDL2_gfx index `i` names the pixel covering `[i, i + 1)`, whose
/// centre is `i + 1/2`, so a continuous point `x` maps to index `floor(x)` (the nearest
/// pixel centre to `x - 1/2`).
///
/// The vertex arrays are kept between frames: drawing allocates nothing once warmed up.
public final class GfxRingRasterizer: RingRasterizer {
  public let name = "gfx"

  /// How far the drawn outline sits inside the true edge, in pixels (see above).
  let inset: Double
  /// Longest chord used to approximate an arc, in pixels.
  let maximumChord: Double
  /// Whether to trace the antialiased outline (off only to measure the aliased fill).
  var antialiased = true

  private var vx: UnsafeMutablePointer<Int16>
  private var vy: UnsafeMutablePointer<Int16>
  private var capacity: Int

  public convenience init() {
    self.init(inset: 0.5, maximumChord: 2)
  }

  init(inset: Double, maximumChord: Double) {
    self.inset = inset
    self.maximumChord = maximumChord
    capacity = 256
    vx = .allocate(capacity: capacity)
    vy = .allocate(capacity: capacity)
  }

  deinit {
    vx.deallocate()
    vy.deallocate()
  }

  public func draw(
    _ rings: UnsafeBufferPointer<RingInstance>, shape: DashedRing, on renderer: OpaquePointer
  ) throws(SDLError) {
    for ring in rings {
      let rotation = Double(ring.angle).truncatingRemainder(dividingBy: 360) * .pi / 180
      for dash in shape.dashes {
        let n = outline(
          of: dash, in: shape, centerX: Double(ring.centerX), centerY: Double(ring.centerY),
          rotation: rotation)
        guard n > 0 else { continue }
        let c = ring.color
        if n >= 3 {
          guard filledPolygonRGBA(renderer, vx, vy, Int32(n), c.r, c.g, c.b, c.a) == 0,
            !antialiased || aapolygonRGBA(renderer, vx, vy, Int32(n), c.r, c.g, c.b, c.a) == 0
          else { throw SDLError("filledPolygonRGBA/aapolygonRGBA") }
        } else if n == 2 {
          guard aalineRGBA(renderer, vx[0], vy[0], vx[1], vy[1], c.r, c.g, c.b, c.a) == 0
          else { throw SDLError("aalineRGBA") }
        } else {
          guard pixelRGBA(renderer, vx[0], vy[0], c.r, c.g, c.b, c.a) == 0
          else { throw SDLError("pixelRGBA") }
        }
      }
    }
  }

  /// Writes the inset outline of one dash into `vx`/`vy` as gfx pixel indices, dropping
  /// repeated vertices; returns the vertex count.
  private func outline(
    of dash: DashedRing.Dash, in shape: DashedRing, centerX: Double, centerY: Double,
    rotation: Double
  ) -> Int {
    let r = shape.radius
    let h = shape.halfWidth
    let round = shape.cap == .round
    let capRadius = Swift.max(0, h - inset)
    let outer = r + h - inset
    let inner = Swift.max(0, r - h + inset)
    let a0 = dash.start + rotation
    let a1 = dash.end + rotation

    func segments(_ length: Double) -> Int {
      Swift.max(1, Int((length / maximumChord).rounded(.up)))
    }
    let arcSteps = segments(outer * (a1 - a0))
    let capSteps = round ? Swift.max(2, segments(Double.pi * capRadius)) : 0
    ensureCapacity(2 * (arcSteps + 1) + 2 * (capSteps + 1))

    var count = 0
    func add(_ x: Double, _ y: Double) {
      let ix = Int16(clamping: Int(x.rounded(.down)))
      let iy = Int16(clamping: Int(y.rounded(.down)))
      if count > 0, vx[count - 1] == ix, vy[count - 1] == iy { return }
      vx[count] = ix
      vy[count] = iy
      count += 1
    }
    func arc(radius: Double, from start: Double, to end: Double, steps: Int) {
      for k in 0...steps {
        let a = start + (end - start) * Double(k) / Double(steps)
        add(centerX + radius * cos(a), centerY + radius * sin(a))
      }
    }
    func cap(at angle: Double, from start: Double, steps: Int) {
      let ex = centerX + r * cos(angle)
      let ey = centerY + r * sin(angle)
      for k in 1..<steps {
        let phi = start + Double.pi * Double(k) / Double(steps)
        add(ex + capRadius * cos(phi), ey + capRadius * sin(phi))
      }
    }
    arc(radius: outer, from: a0, to: a1, steps: arcSteps)
    if round { cap(at: a1, from: a1, steps: capSteps) }
    arc(radius: inner, from: a1, to: a0, steps: arcSteps)
    if round { cap(at: a0, from: a0 + Double.pi, steps: capSteps) }
    // The outline closes on itself: drop a last vertex equal to the first.
    if count > 1, vx[count - 1] == vx[0], vy[count - 1] == vy[0] { count -= 1 }
    return count
  }

  private func ensureCapacity(_ n: Int) {
    guard n > capacity else { return }
    vx.deallocate()
    vy.deallocate()
    capacity = Swift.max(n, 2 * capacity)
    vx = .allocate(capacity: capacity)
    vy = .allocate(capacity: capacity)
  }
}
