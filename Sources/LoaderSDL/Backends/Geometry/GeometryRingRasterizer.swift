import CSwiftLoaderSDL2
import Foundation
import LoaderCore

/// Tessellates every visible dash of every ring into vertex and index buffers and draws the
/// frame with `SDL_RenderGeometry`, one call per batch of at most `batchVertices` vertices
/// (`--backend geometry`): the path a GPU renderer eats fastest, in memory that does not grow
/// with the ring count.
///
/// Each dash (a capsule bent along the ring, or a sector with butt caps) becomes a solid core
/// plus an antialiasing fringe one pixel wide that straddles the true edge, dash ends
/// included. Every vertex's alpha is `DashedRing`'s coverage rule at the point where it lands,
/// `clamp(min(1/2 - d, w), 0, 1)` with `d` the signed distance to its own dash
/// (`DashedRing.DistanceTable.signedDistance(x:y:toDash:)`; blending makes the union) and `w`
/// the stroke's width, so
/// the interpolated alpha across the fringe follows the same edge the other backends fill:
/// ```
///   radius r + w/2 + 1/2   alpha 0      outer fringe
///   radius r + w/2 - 1/2   alpha 1      core
///   radius r - w/2 + 1/2   alpha 1
///   radius r - w/2 - 1/2   alpha 0      inner fringe
/// ```
/// Round caps are half-disc fans with the same fringe; butt ends get one more column of
/// vertices half a pixel beyond the flat end (alpha 0) and one half a pixel inside it.
/// Arcs are cut into chords whose sagitta stays under `maximumSagitta` pixels, so the segment
/// count follows the pixel radius. The colour's alpha multiplies every vertex's (straight
/// alpha, source-over: `SDL_BLENDMODE_BLEND`).
///
/// SDL's software renderer rounds vertices down to whole pixels. On it, vertices are rounded
/// to the nearest pixel corner instead, and each vertex's alpha is taken from where it
/// really lands along its own edge, so the interpolated alpha still follows the true edge:
/// `d + g . delta`, `g` the gradient of the distance at the exact vertex (the edge's unit
/// normal) and `delta` the move.
///
/// Every ring of one shape is the same mesh turned and moved, so the mesh is tessellated once
/// per shape (`Template`, ring-relative, unturned) and a frame only rotates and translates its
/// vertices. The buffers are kept between frames: drawing allocates nothing once warmed up.
package final class GeometryRingRasterizer: RingRasterizer {
  package let name = "geometry"
  package var maximumReach: Double { Self.maximumRadius }
  /// Largest gap between a chord and its arc, in pixels.
  let maximumSagitta: Double
  /// Vertices drawn per `SDL_RenderGeometry` call at most (a ring whose mesh alone is larger
  /// is drawn by itself): 2^16 vertices of 20 bytes and at most 6 indices of 4 bytes each
  /// (three strips of quads over four rows of vertices), under 3 MB of buffers whatever the
  /// ring count.
  let batchVertices: Int

  /// Rings reaching further than this from their centre are refused: `SDL_Vertex` positions
  /// are `Float`, which keeps 1/16 pixel there.
  static let maximumRadius = Double(1 << 20)

  private var vertices: UnsafeMutablePointer<SDL_Vertex>
  private var vertexCapacity: Int
  private var vertexCount = 0
  private var indices: UnsafeMutablePointer<Int32>
  private var indexCapacity: Int
  private var indexCount = 0

  /// The mesh of each shape of the draw in progress, kept between draws for its capacity.
  private var frameMeshes: [TemplateBox?] = []

  /// A shape's cache: its mesh.
  final class TemplateBox: RingShapeCache {
    let mesh: Template
    init(_ mesh: Template) { self.mesh = mesh }
    /// As allocated: the arrays' capacities.
    var bytes: Int { mesh.positions.capacity * 40 + mesh.indices.capacity * 4 }
    var cullingReach: Float { Float(mesh.shape.radius + mesh.shape.halfWidth + 1) }
  }

  package func makeCache(for shape: DashedRing, on target: RasterTarget, budgetBytes: Int)
    -> any RingShapeCache
  {
    TemplateBox(Template(shape: shape, maximumSagitta: maximumSagitta))
  }

  package var ownBytes: Int {
    vertexCapacity * MemoryLayout<SDL_Vertex>.stride + indexCapacity * 4
  }

  package convenience init() {
    self.init(maximumSagitta: 0.05)
  }

  init(maximumSagitta: Double, batchVertices: Int = 1 << 16) {
    self.maximumSagitta = maximumSagitta
    self.batchVertices = max(1, batchVertices)
    vertexCapacity = 1 << 12
    vertices = .allocate(capacity: vertexCapacity)
    indexCapacity = 1 << 13
    indices = .allocate(capacity: indexCapacity)
  }

  deinit {
    vertices.deallocate()
    indices.deallocate()
  }

  /// Vertices the buffers hold room for now.
  var bufferedVertexCapacity: Int { vertexCapacity }

  /// Asks `shouldStop` after each batch: a batch is bounded (`batchVertices`), so the wait
  /// for an answer is too, however many rings the frame has.
  package func draw(
    _ frame: RasterFrame, on target: RasterTarget, stoppingWhen shouldStop: () -> Bool
  ) throws(SDLError) -> Bool {
    let renderer = target.renderer
    let snapsToPixels = target.traits.isSoftware
    var meshes: [TemplateBox?] = []
    swap(&meshes, &frameMeshes)
    defer {
      meshes.removeAll(keepingCapacity: true)
      swap(&meshes, &frameMeshes)
    }
    frame.caches(as: TemplateBox.self, into: &meshes)
    var largest = 0
    var perVertex = 0
    for case let box? in meshes {
      largest = max(largest, box.mesh.positions.count)
      perVertex = max(perVertex, box.mesh.indices.count / max(1, box.mesh.positions.count) + 1)
    }
    // A buffer grown for a larger shape, or for a batch limit of another time, goes back to
    // what these shapes need.
    let neededVertices = max(batchVertices, largest)
    let neededIndices = neededVertices * perVertex
    if vertexCapacity > 2 * neededVertices || indexCapacity > 2 * neededIndices {
      resize(vertices: neededVertices, indices: neededIndices)
    }
    vertexCount = 0
    indexCount = 0
    // Untextured geometry blends by the draw blend mode (the caller restores the host's).
    SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
    let finished = try frame.forEachVisibleRing(caches: meshes, in: target.region) {
      (ring, box, _) throws(SDLError) in
      if vertexCount > 0, vertexCount + box.mesh.positions.count > batchVertices {
        try flush(on: renderer)
        if shouldStop() { return false }
      }
      append(ring, mesh: box.mesh, snapsToPixels: snapsToPixels)
      return true
    }
    guard finished else { return false }
    try flush(on: renderer)
    return true
  }

  /// Draws what the buffers hold and empties them. A renderer that batches (SDL's GL ones,
  /// unless a driver was asked for by name) would otherwise copy every batch into its own
  /// queue until `SDL_RenderPresent`, and that queue would grow with the ring count: the
  /// flush hands each batch over at once.
  private func flush(on renderer: OpaquePointer) throws(SDLError) {
    defer {
      vertexCount = 0
      indexCount = 0
    }
    guard indexCount > 0 else { return }
    guard
      SDL_RenderGeometry(renderer, nil, vertices, Int32(vertexCount), indices, Int32(indexCount))
        == 0
    else { throw SDLError("SDL_RenderGeometry") }
    SDL_RenderFlush(renderer)
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
    let opacity = Double(ring.color.a) / 255
    var v = SDL_Vertex()
    v.color = SDL_Color(r: ring.color.r, g: ring.color.g, b: ring.color.b, a: 255)
    for k in mesh.positions.indices {
      let p = mesh.positions[k]
      let x = cx + p.x * c - p.y * s
      let y = cy + p.x * s + p.y * c
      var distance = mesh.distances[k]
      if snapsToPixels {
        // SDL's software renderer truncates vertices to whole pixels: put the vertex on the
        // nearest pixel corner (plus a margin it rounds away) and take its alpha from there,
        // the move turned back into the ring's frame.
        let sx = x.rounded()
        let sy = y.rounded()
        let (dx, dy) = (sx - x, sy - y)
        let g = mesh.gradients[k]
        distance += g.x * (dx * c + dy * s) + g.y * (dy * c - dx * s)
        v.position = SDL_FPoint(
          x: Float(sx) + (sx >= 0 ? 0.25 : -0.25), y: Float(sy) + (sy >= 0 ? 0.25 : -0.25))
      } else {
        v.position = SDL_FPoint(x: Float(x), y: Float(y))
      }
      let coverage = DashedRing.coverage(atDistance: distance, halfWidth: mesh.shape.halfWidth)
      v.color.a = UInt8((coverage * opacity * 255).rounded())
      vertices[vertexCount] = v
      vertexCount += 1
    }
    for i in mesh.indices {
      indices[indexCount] = base + i
      indexCount += 1
    }
  }

  /// One ring shape tessellated at angle 0 around the origin (pixels): every dash's body and
  /// caps, with each vertex's coverage.
  struct Template {
    let shape: DashedRing
    /// The shape's signed distance: every vertex's alpha.
    let table: DashedRing.DistanceTable
    private(set) var positions: [SIMD2<Double>] = []
    /// Signed distance from each vertex to its own dash: coverage 1 on the core, 0 on the
    /// fringe's far side.
    private(set) var distances: [Double] = []
    /// That distance's gradient at the vertex, by central differences.
    private(set) var gradients: [SIMD2<Double>] = []
    /// Triangles, as indices into `positions`.
    private(set) var indices: [Int32] = []
    private var dash = 0

    init(shape: DashedRing, maximumSagitta: Double) {
      self.shape = shape
      table = DashedRing.DistanceTable(shape)
      let segments = Segments(shape: shape, maximumSagitta: maximumSagitta)
      for (k, dash) in table.dashes.enumerated() {
        self.dash = k
        appendBody(of: dash, shape: shape, segments: segments)
        if shape.cap == .round {
          appendCap(at: dash.start, facing: -1, shape: shape, segments: segments.cap)
          appendCap(at: dash.end, facing: 1, shape: shape, segments: segments.cap)
        }
      }
    }

    /// The dash's body between its end angles: three strips (outer fringe, core, inner
    /// fringe); with butt caps, a column half a pixel beyond each end and one half a pixel
    /// inside it (or at the middle of a dash shorter than a pixel).
    private mutating func appendBody(
      of dash: DashedRing.Dash, shape: DashedRing, segments: Segments
    ) {
      guard dash.sweep > 0 else { return }
      let n = max(1, Int((dash.sweep / segments.ringStep).rounded(.up)))
      let r = shape.radius
      let hw = shape.halfWidth
      // Columns: an angle on the ring and a straight offset (pixels) along its tangent.
      var columns: [(theta: Double, offset: Double)] = []
      if shape.cap == .butt {
        let inset = min(0.5, dash.sweep * r / 2)
        columns.append((dash.start, -0.5))
        columns.append((dash.start, inset))
        for k in 1..<n { columns.append((dash.start + dash.sweep * Double(k) / Double(n), 0)) }
        columns.append((dash.end, -inset))
        columns.append((dash.end, 0.5))
      } else {
        for k in 0...n { columns.append((dash.start + dash.sweep * Double(k) / Double(n), 0)) }
      }
      let base = Int32(positions.count)
      for column in columns {
        let direction = SIMD2(cos(column.theta), sin(column.theta))
        let tangent = SIMD2(-direction.y, direction.x)
        for radius in [
          r + hw + 0.5, max(r, r + hw - 0.5), min(r, r - hw + 0.5), max(0, r - hw - 0.5),
        ] {
          appendVertex(at: radius * direction + column.offset * tangent)
        }
      }
      for k in 0..<Int32(columns.count - 1) {
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
      let coreRadius = max(0, hw - 0.5)
      let first = Int32(positions.count)
      appendVertex(at: hub)
      for k in 0...n {
        // From the outward normal, through the tangent (times facing), to the inward normal.
        let phi = theta + facing * Double.pi * Double(k) / Double(n)
        let direction = SIMD2(cos(phi), sin(phi))
        appendVertex(at: hub + coreRadius * direction)
        appendVertex(at: hub + (hw + 0.5) * direction)
      }
      for k in 0..<Int32(n) {
        let a = first + 1 + 2 * k
        let b = a + 2
        appendTriangle(first, a, b)
        appendQuad(a, a + 1, b + 1, b)
      }
    }

    private mutating func appendVertex(at p: SIMD2<Double>) {
      func d(_ x: Double, _ y: Double) -> Double {
        table.signedDistance(x: x, y: y, toDash: dash)
      }
      let e = 1e-4
      positions.append(p)
      distances.append(d(p.x, p.y))
      gradients.append(
        SIMD2(d(p.x + e, p.y) - d(p.x - e, p.y), d(p.x, p.y + e) - d(p.x, p.y - e)) / (2 * e))
    }

    private mutating func appendTriangle(_ a: Int32, _ b: Int32, _ c: Int32) {
      indices += [a, b, c]
    }

    private mutating func appendQuad(_ a: Int32, _ b: Int32, _ c: Int32, _ d: Int32) {
      appendTriangle(a, b, c)
      appendTriangle(a, c, d)
    }
  }

  /// Replaces the (empty) buffers by ones of exactly these capacities.
  private func resize(vertices nv: Int, indices ni: Int) {
    vertices.deallocate()
    vertices = .allocate(capacity: nv)
    vertexCapacity = nv
    indices.deallocate()
    indices = .allocate(capacity: ni)
    indexCapacity = ni
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
