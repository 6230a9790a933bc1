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
/// Every ring of one shape is the same mesh turned and moved, so the mesh is tessellated once
/// per shape (`Template`, ring-relative, unturned) and a frame only rotates and translates its
/// vertices. The buffers are kept between frames: drawing allocates nothing once warmed up.
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

  /// The mesh of the shape last drawn.
  private var template: Template?

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
    let snapsToPixels =
      SDL_GetRendererInfo(renderer, &info) == 0
      && info.name.map { strcmp($0, "software") == 0 } == true
    var w: Int32 = 0
    var h: Int32 = 0
    if let target = SDL_GetRenderTarget(renderer) {
      SDL_QueryTexture(target, nil, nil, &w, &h)
    } else {
      SDL_GetRendererOutputSize(renderer, &w, &h)
    }
    let mesh: Template
    if let t = template, t.shape == shape {
      mesh = t
    } else {
      mesh = Template(shape: shape, maximumSagitta: maximumSagitta)
      template = mesh
    }
    vertexCount = 0
    indexCount = 0
    let reach = Float(shape.radius + shape.halfWidth + 1)
    for ring in rings {
      guard ring.centerX.isFinite, ring.centerY.isFinite, ring.angle.isFinite else { continue }
      // Off-target rings cost nothing.
      guard ring.centerX + reach > 0, ring.centerY + reach > 0, ring.centerX - reach < Float(w),
        ring.centerY - reach < Float(h)
      else { continue }
      append(ring, mesh: mesh, snapsToPixels: snapsToPixels)
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

  /// One ring: the template turned by the ring's angle and moved to its centre, in its colour.
  private func append(_ ring: RingInstance, mesh: Template, snapsToPixels: Bool) {
    reserve(vertices: mesh.positions.count, indices: mesh.indices.count)
    let rotation = Double(ring.angle).truncatingRemainder(dividingBy: 360) * .pi / 180
    let (c, s) = (cos(rotation), sin(rotation))
    let (cx, cy) = (Double(ring.centerX), Double(ring.centerY))
    let base = Int32(vertexCount)
    var v = SDL_Vertex()
    v.color = SDL_Color(r: ring.color.r, g: ring.color.g, b: ring.color.b, a: 255)
    for k in mesh.positions.indices {
      let p = mesh.positions[k]
      let x = cx + p.x * c - p.y * s
      let y = cy + p.x * s + p.y * c
      if snapsToPixels {
        // SDL's software renderer truncates vertices to whole pixels: put the vertex on the
        // nearest pixel corner (plus a margin it rounds away) and take its alpha from there.
        let sx = x.rounded()
        let sy = y.rounded()
        let e = mesh.edges[k]
        let ax = cx + e.anchor.x * c - e.anchor.y * s
        let ay = cy + e.anchor.x * s + e.anchor.y * c
        let alpha = min(1, max(0, 0.5 - (hypot(sx - ax, sy - ay) - e.radius) * e.outward))
        v.position = SDL_FPoint(
          x: Float(sx) + (sx >= 0 ? 0.25 : -0.25), y: Float(sy) + (sy >= 0 ? 0.25 : -0.25))
        v.color.a = UInt8((alpha * 255).rounded())
      } else {
        v.position = SDL_FPoint(x: Float(x), y: Float(y))
        v.color.a = mesh.alphas[k]
      }
      vertices[vertexCount] = v
      vertexCount += 1
    }
    for i in mesh.indices {
      indices[indexCount] = base + i
      indexCount += 1
    }
  }

  /// One ring shape tessellated at angle 0 around the origin (pixels): every dash's body and
  /// caps, with, per vertex, the edge its alpha ramps across.
  struct Template {
    /// The edge a vertex's alpha follows: at point `p`, `alpha = 1/2 - (|p - anchor| - radius)
    /// * outward` (the body's outer or inner circle about the ring's centre, or a cap's
    /// circle about its centre).
    struct Edge {
      var anchor: SIMD2<Double>
      var radius: Double
      var outward: Double
    }

    let shape: DashedRing
    private(set) var positions: [SIMD2<Double>] = []
    /// Alpha where the vertex lands exactly: 255 on the core, 0 on the fringe's far side.
    private(set) var alphas: [UInt8] = []
    private(set) var edges: [Edge] = []
    /// Triangles, as indices into `positions`.
    private(set) var indices: [Int32] = []

    init(shape: DashedRing, maximumSagitta: Double) {
      self.shape = shape
      let segments = Segments(shape: shape, maximumSagitta: maximumSagitta)
      for dash in shape.dashes {
        appendBody(of: dash, shape: shape, segments: segments)
        if shape.cap == .round {
          appendCap(at: dash.start, facing: -1, shape: shape, segments: segments.cap)
          appendCap(at: dash.end, facing: 1, shape: shape, segments: segments.cap)
        }
      }
    }

    /// The dash's body between its end angles: three strips (outer fringe, core, inner fringe).
    private mutating func appendBody(
      of dash: DashedRing.Dash, shape: DashedRing, segments: Segments
    ) {
      guard dash.sweep > 0 else { return }
      let n = max(1, Int((dash.sweep / segments.ringStep).rounded(.up)))
      let r = shape.radius
      let hw = shape.halfWidth
      let base = Int32(positions.count)
      for k in 0...n {
        let theta = dash.start + dash.sweep * Double(k) / Double(n)
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
          appendVertex(
            at: SIMD2(radius * c, radius * s),
            edge: Edge(anchor: .zero, radius: j < 2 ? r + hw : r - hw, outward: j < 2 ? 1 : -1),
            nominal: j == 0 || j == 3 ? 0 : 255)
        }
      }
      for k in 0..<Int32(n) {
        let a = base + 4 * k
        let b = a + 4
        for j: Int32 in 0..<3 {
          appendQuad(a + j, a + j + 1, b + j + 1, b + j)
        }
      }
    }

    /// A half-disc cap at angle `theta` on the centreline, bulging backwards along the ring
    /// (`facing` -1, a dash's start) or forwards (+1, its end): a fan for the core and a strip
    /// for the fringe.
    private mutating func appendCap(
      at theta: Double, facing: Double, shape: DashedRing, segments n: Int
    ) {
      let hw = shape.halfWidth
      let hub = SIMD2(shape.radius * cos(theta), shape.radius * sin(theta))
      let edge = Edge(anchor: hub, radius: hw, outward: 1)
      let coreRadius = max(0, hw - 0.5)
      let first = Int32(positions.count)
      appendVertex(at: hub, edge: edge, nominal: 255)
      for k in 0...n {
        // From the outward normal, through the tangent (times facing), to the inward normal.
        let phi = theta + facing * Double.pi * Double(k) / Double(n)
        let direction = SIMD2(cos(phi), sin(phi))
        appendVertex(at: hub + coreRadius * direction, edge: edge, nominal: 255)
        appendVertex(at: hub + (hw + 0.5) * direction, edge: edge, nominal: 0)
      }
      for k in 0..<Int32(n) {
        let a = first + 1 + 2 * k
        let b = a + 2
        appendTriangle(first, a, b)
        appendQuad(a, a + 1, b + 1, b)
      }
    }

    private mutating func appendVertex(at p: SIMD2<Double>, edge: Edge, nominal: UInt8) {
      positions.append(p)
      edges.append(edge)
      alphas.append(nominal)
    }

    private mutating func appendTriangle(_ a: Int32, _ b: Int32, _ c: Int32) {
      indices += [a, b, c]
    }

    private mutating func appendQuad(_ a: Int32, _ b: Int32, _ c: Int32, _ d: Int32) {
      appendTriangle(a, b, c)
      appendTriangle(a, c, d)
    }
  }

  /// Makes room for `vertices` more vertices and `indices` more indices (growth only, kept).
  private func reserve(vertices nv: Int, indices ni: Int) {
    Self.grow(&vertices, capacity: &vertexCapacity, keeping: vertexCount, toHold: vertexCount + nv)
    Self.grow(&indices, capacity: &indexCapacity, keeping: indexCount, toHold: indexCount + ni)
  }

  /// Reallocates `buffer` to at least `needed` elements (at least doubling), keeping its first
  /// `count`; nothing when it is large enough.
  private static func grow<Element>(
    _ buffer: inout UnsafeMutablePointer<Element>, capacity: inout Int, keeping count: Int,
    toHold needed: Int
  ) {
    guard needed > capacity else { return }
    let larger = max(2 * capacity, needed)
    let bigger = UnsafeMutablePointer<Element>.allocate(capacity: larger)
    bigger.moveInitialize(from: buffer, count: count)
    buffer.deallocate()
    buffer = bigger
    capacity = larger
  }
}
