import CSDL2
import Foundation
import LoaderCore

/// Tessellates every visible dash of every ring into one vertex and index buffer and draws
/// the frame with a single `SDL_RenderGeometry` call (`--backend geometry`): the path a GPU
/// renderer eats fastest.
///
/// Each dash (a capsule bent along the ring) becomes a solid core plus an antialiasing
/// fringe one pixel wide, alpha going linearly from opaque to transparent across it. The
/// fringe straddles the true edge (the core is inset by half a pixel), so a pixel whose
/// centre is at signed distance `d` from the edge gets alpha `clamp(1/2 - d, 0, 1)`, the
/// box-filtered coverage of a straight edge:
/// ```
///   radius r + w/2 + 1/2   alpha 0      outer fringe
///   radius r + w/2 - 1/2   alpha 1      core
///   radius r - w/2 + 1/2   alpha 1
///   radius r - w/2 - 1/2   alpha 0      inner fringe
/// ```
/// Round caps are half-disc fans with the same fringe. Arcs are cut into chords whose
/// sagitta stays under `maximumSagitta` pixels, so the segment count follows the pixel radius.
///
/// SDL's software renderer rounds vertices down to whole pixels. On it, vertices are rounded
/// to the nearest pixel corner instead, and each vertex's alpha is taken from where it
/// really lands, so the interpolated alpha still follows the true edge.
///
/// The buffers are kept between frames: drawing allocates nothing once warmed up.
public final class GeometryRingRasterizer: RingRasterizer {
  public let name = "geometry"
  /// Largest gap between a chord and its arc, in pixels.
  let maximumSagitta: Double

  private var vertices: UnsafeMutablePointer<SDL_Vertex>
  private var vertexCapacity: Int
  private var vertexCount = 0
  private var indices: UnsafeMutablePointer<Int32>
  private var indexCapacity: Int
  private var indexCount = 0

  // Per frame: where vertices go and how they are coloured.
  private var snapsToPixels = false
  private var color = SDL_Color(r: 0, g: 0, b: 0, a: 0)

  public convenience init() {
    self.init(maximumSagitta: 0.05)
  }

  init(maximumSagitta: Double) {
    self.maximumSagitta = maximumSagitta
    vertexCapacity = 1 << 14
    vertices = .allocate(capacity: vertexCapacity)
    indexCapacity = 1 << 15
    indices = .allocate(capacity: indexCapacity)
  }

  deinit {
    vertices.deallocate()
    indices.deallocate()
  }

  public func draw(
    _ rings: UnsafeBufferPointer<RingInstance>, shape: DashedRing, on renderer: OpaquePointer
  ) throws(SDLError) {
    var info = SDL_RendererInfo()
    snapsToPixels =
      SDL_GetRendererInfo(renderer, &info) == 0
      && info.name.map { strcmp($0, "software") == 0 } == true
    var w: Int32 = 0
    var h: Int32 = 0
    if let target = SDL_GetRenderTarget(renderer) {
      SDL_QueryTexture(target, nil, nil, &w, &h)
    } else {
      SDL_GetRendererOutputSize(renderer, &w, &h)
    }
    vertexCount = 0
    indexCount = 0
    let reach = Float(shape.radius + shape.halfWidth + 1)
    let segments = Segments(shape: shape, maximumSagitta: maximumSagitta)
    for ring in rings {
      guard ring.centerX.isFinite, ring.centerY.isFinite, ring.angle.isFinite else { continue }
      // Off-target rings cost nothing.
      guard ring.centerX + reach > 0, ring.centerY + reach > 0, ring.centerX - reach < Float(w),
        ring.centerY - reach < Float(h)
      else { continue }
      color = SDL_Color(r: ring.color.r, g: ring.color.g, b: ring.color.b, a: 255)
      let rotation = Double(ring.angle).truncatingRemainder(dividingBy: 360) * .pi / 180
      let center = (x: Double(ring.centerX), y: Double(ring.centerY))
      for dash in shape.dashes {
        appendBody(
          of: dash, rotation: rotation, center: center, shape: shape, segments: segments)
        if shape.cap == .round {
          appendCap(
            at: dash.start + rotation, facing: -1, center: center, shape: shape,
            segments: segments.cap)
          appendCap(
            at: dash.end + rotation, facing: 1, center: center, shape: shape,
            segments: segments.cap)
        }
      }
    }
    guard indexCount > 0 else { return }
    SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
    guard
      SDL_RenderGeometry(renderer, nil, vertices, Int32(vertexCount), indices, Int32(indexCount))
        == 0
    else { throw SDLError("SDL_RenderGeometry") }
  }

  /// How finely arcs are cut, from the pixel radius: a chord of angle `delta` on radius `R`
  /// has sagitta `R (1 - cos(delta / 2))`.
  struct Segments {
    /// Largest angle step along the ring's outer edge.
    var ringStep: Double
    /// Chords per half-disc cap.
    var cap: Int

    init(shape: DashedRing, maximumSagitta: Double) {
      func step(radius: Double) -> Double {
        guard radius > maximumSagitta else { return .pi }
        return 2 * acos(1 - maximumSagitta / radius)
      }
      ringStep = step(radius: shape.radius + shape.halfWidth + 0.5)
      cap = max(2, Int((Double.pi / step(radius: shape.halfWidth + 0.5)).rounded(.up)))
    }
  }

  /// The dash's body between its end angles: three strips (outer fringe, core, inner fringe).
  private func appendBody(
    of dash: DashedRing.Dash, rotation: Double, center: (x: Double, y: Double), shape: DashedRing,
    segments: Segments
  ) {
    guard dash.sweep > 0 else { return }
    let n = max(1, Int((dash.sweep / segments.ringStep).rounded(.up)))
    let r = shape.radius
    let hw = shape.halfWidth
    reserve(vertices: 4 * (n + 1), indices: 18 * n)
    let base = vertexCount
    for k in 0...n {
      let theta = dash.start + dash.sweep * Double(k) / Double(n) + rotation
      let (c, s) = (cos(theta), sin(theta))
      // Outer fringe, outer core, inner core, inner fringe; each vertex's alpha follows the
      // edge it belongs to (outer edge r + hw, inner edge r - hw).
      for j in 0..<4 {
        let radius =
          switch j {
          case 0: r + hw + 0.5
          case 1: max(r, r + hw - 0.5)
          case 2: min(r, r - hw + 0.5)
          default: max(0, r - hw - 0.5)
          }
        let edge = j < 2 ? r + hw : r - hw
        let outward = j < 2 ? 1.0 : -1.0
        appendVertex(
          x: center.x + radius * c, y: center.y + radius * s,
          alphaAt: { px, py in 0.5 - (hypot(px - center.x, py - center.y) - edge) * outward },
          nominal: j == 0 || j == 3 ? 0 : 1)
      }
    }
    for k in 0..<n {
      let a = Int32(base + 4 * k)
      let b = a + 4
      for j: Int32 in 0..<3 {
        appendQuad(a + j, a + j + 1, b + j + 1, b + j)
      }
    }
  }

  /// A half-disc cap at angle `theta` on the centreline, bulging backwards along the ring
  /// (`facing` -1, a dash's start) or forwards (+1, its end): a fan for the core and a strip
  /// for the fringe.
  private func appendCap(
    at theta: Double, facing: Double, center: (x: Double, y: Double), shape: DashedRing,
    segments n: Int
  ) {
    let hw = shape.halfWidth
    let cx = center.x + shape.radius * cos(theta)
    let cy = center.y + shape.radius * sin(theta)
    let coreRadius = max(0, hw - 0.5)
    reserve(vertices: 1 + 2 * (n + 1), indices: 9 * n)
    let hub = Int32(vertexCount)
    appendVertex(
      x: cx, y: cy, alphaAt: { px, py in 0.5 - (hypot(px - cx, py - cy) - hw) }, nominal: 1)
    for k in 0...n {
      // From the outward normal, through the tangent (times facing), to the inward normal.
      let phi = theta + facing * Double.pi * Double(k) / Double(n)
      let (c, s) = (cos(phi), sin(phi))
      for ring in 0..<2 {
        let radius = ring == 0 ? coreRadius : hw + 0.5
        appendVertex(
          x: cx + radius * c, y: cy + radius * s,
          alphaAt: { px, py in 0.5 - (hypot(px - cx, py - cy) - hw) }, nominal: ring == 0 ? 1 : 0)
      }
    }
    for k in 0..<Int32(n) {
      let a = hub + 1 + 2 * k
      let b = a + 2
      appendTriangle(hub, a, b)
      appendQuad(a, a + 1, b + 1, b)
    }
  }

  /// One vertex at `(x, y)` pixels. Where vertices land exactly, alpha is `nominal`; on the
  /// software renderer the vertex moves to the nearest pixel corner and its alpha is
  /// `clamp(alphaAt(corner), 0, 1)`, the linear edge ramp evaluated where it really is.
  @inline(__always)
  private func appendVertex(
    x: Double, y: Double, alphaAt: (Double, Double) -> Double, nominal: Double
  ) {
    var v = SDL_Vertex()
    var alpha = nominal
    if snapsToPixels {
      let sx = x.rounded()
      let sy = y.rounded()
      alpha = min(1, max(0, alphaAt(sx, sy)))
      // SDL truncates toward zero: hand it the corner plus a margin it rounds away.
      v.position = SDL_FPoint(
        x: Float(sx) + (sx >= 0 ? 0.25 : -0.25), y: Float(sy) + (sy >= 0 ? 0.25 : -0.25))
    } else {
      v.position = SDL_FPoint(x: Float(x), y: Float(y))
    }
    v.color = color
    v.color.a = UInt8((alpha * 255).rounded())
    vertices[vertexCount] = v
    vertexCount += 1
  }

  @inline(__always)
  private func appendTriangle(_ a: Int32, _ b: Int32, _ c: Int32) {
    indices[indexCount] = a
    indices[indexCount + 1] = b
    indices[indexCount + 2] = c
    indexCount += 3
  }

  @inline(__always)
  private func appendQuad(_ a: Int32, _ b: Int32, _ c: Int32, _ d: Int32) {
    appendTriangle(a, b, c)
    appendTriangle(a, c, d)
  }

  /// Makes room for `vertices` more vertices and `indices` more indices (growth only, kept).
  private func reserve(vertices nv: Int, indices ni: Int) {
    if vertexCount + nv > vertexCapacity {
      let capacity = max(2 * vertexCapacity, vertexCount + nv)
      let bigger = UnsafeMutablePointer<SDL_Vertex>.allocate(capacity: capacity)
      bigger.update(from: vertices, count: vertexCount)
      vertices.deallocate()
      vertices = bigger
      vertexCapacity = capacity
    }
    if indexCount + ni > indexCapacity {
      let capacity = max(2 * indexCapacity, indexCount + ni)
      let bigger = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
      bigger.update(from: indices, count: indexCount)
      indices.deallocate()
      indices = bigger
      indexCapacity = capacity
    }
  }
}
