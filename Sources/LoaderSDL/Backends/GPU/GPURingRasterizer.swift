import CSwiftLoaderSDL2
import LoaderCore

/// Draws every ring of a frame with one instanced OpenGL draw call, inside SDL's own OpenGL
/// or OpenGL ES renderer (`--backend gpu`): the GPU computes each pixel's coverage from a
/// small record per ring, so the CPU's share of a frame is one pass over the rings.
///
/// Each ring is a record: its centre, radius, half width, colour, its shape's place in the
/// dash table and its caps (`Record`, 32 bytes), and its angle (4 bytes). Records go into a
/// buffer that is uploaded where they changed, angles into one buffer upload a frame; each
/// shape's dashes go into a texture once (`GPURingProgram` has the shader). The draw itself:
/// `SDL_RenderFlush` (the host's queued draws first, SDL's context current), then the
/// program over one quad per ring instance into whatever framebuffer SDL has bound (the
/// window, or a render target's), with SDL's blending (`SDL_BLENDMODE_BLEND`), the viewport
/// and clip of `HostRenderState`; every piece of GL state touched is put back
/// (`GLStateSnapshot`), so SDL's cached state stays true.
///
/// Offered on SDL's `opengl` renderer with OpenGL 3.3 or later and on `opengles2` with OpenGL
/// ES 3.0 or later (`GPUSupport`); elsewhere a draw with it throws a `.unsupported` error, and
/// the default choice never picks it.
package final class GPURingRasterizer: RingRasterizer {
  package let name = "gpu"
  package var maximumReach: Double { Self.maximumRadius }
  /// Rings reaching further than this from their centre are refused: positions are `Float`
  /// on the GPU, which keeps 1/128 pixel there.
  static let maximumRadius = Double(1 << 16)
  /// The texture unit the dash table is bound on while drawing (SDL's renderers use 0 to 2).
  static let tableUnit: UInt32 = 7

  /// One ring as the GPU reads it (attributes `a_place`, `a_dashes`, `a_color`).
  struct Record: Equatable {
    var x: Float
    var y: Float
    var radius: Float
    var halfWidth: Float
    var first: Float
    var count: Float
    var flags: Float
    var color: UInt32
  }

  /// A shape's cache: its dashes as the GPU reads them, and their place in the dash table.
  final class Shape: RingShapeCache {
    let radius: Float
    let halfWidth: Float
    /// 1: round caps; 2: one dash all round.
    let flags: Float
    /// `(start, end)` pairs, radians, sorted and merged (`DistanceTable.dashes`).
    let dashes: [Float]
    /// The table generation the dashes were placed in, and where.
    var generation = -1
    var first = 0

    init(_ shape: DashedRing) {
      let table = DashedRing.DistanceTable(shape)
      let merged = table.dashes
      radius = Float(shape.radius)
      halfWidth = Float(shape.halfWidth)
      let solid = merged.contains { $0.sweep >= 2 * Double.pi }
      flags = (shape.cap == .round ? 1 : 0) + (solid ? 2 : 0)
      dashes = merged.flatMap { [Float($0.start), Float($0.end)] }
    }

    var dashCount: Int { dashes.count / 2 }
    var bytes: Int { dashes.capacity * 4 + 64 }
    var cullingReach: Float { radius + halfWidth + 1 }
  }

  /// The GL objects, made on the first draw in the renderer's context.
  private var gl: GPUContext?
  /// Why the renderer cannot run the backend, once found.
  private var refusal: SDLError?
  /// The renderer the objects live on (to free them in its context), and its GL context.
  private var renderer: OpaquePointer?
  private var glContext: UnsafeMutableRawPointer?

  /// Records and angles of the frame being drawn (the records as last uploaded).
  private var records: [Record] = []
  private var angles: [Float] = []
  private var frameShapes: [Shape?] = []

  /// Records the last draw uploaded (tests): all of them on the first, then only those that
  /// changed (a ring moved, recoloured, reshaped, or culled in or out).
  package private(set) var recordsUploaded = 0

  package init() {}

  package func makeCache(for shape: DashedRing, on target: RasterTarget, budgetBytes: Int)
    -> any RingShapeCache
  {
    Shape(shape)
  }

  package var ownBytes: Int {
    records.capacity * MemoryLayout<Record>.stride + angles.capacity * 4 + (gl?.bytes ?? 0)
  }

  package func draw(
    _ frame: RasterFrame, on target: RasterTarget, stoppingWhen shouldStop: () -> Bool
  ) throws(SDLError) -> Bool {
    let context = try prepare(target.renderer)
    var shapes: [Shape?] = []
    swap(&shapes, &frameShapes)
    defer {
      shapes.removeAll(keepingCapacity: true)
      swap(&shapes, &frameShapes)
    }
    frame.caches(as: Shape.self, into: &shapes)
    try context.place(shapes)
    let region = target.region
    let (ox, oy) = (Float(region.originX), Float(region.originY))
    var count = 0
    var dirtyLow = Int.max
    var dirtyHigh = -1
    let degreesToRadians = Float.pi / 180
    _ = try frame.forEachVisibleRing(caches: shapes, in: region) {
      (ring, shape, _) throws(SDLError) -> Bool in
      let record = Record(
        x: ox + ring.centerX, y: oy + ring.centerY, radius: shape.radius,
        halfWidth: shape.halfWidth, first: Float(shape.first), count: Float(shape.dashCount),
        flags: shape.flags,
        color: UInt32(ring.color.r) | UInt32(ring.color.g) << 8 | UInt32(ring.color.b) << 16
          | UInt32(ring.color.a) << 24)
      let angle = ring.angle.truncatingRemainder(dividingBy: 360) * degreesToRadians
      if count < records.count {
        if records[count] != record {
          records[count] = record
          dirtyLow = min(dirtyLow, count)
          dirtyHigh = count
        }
        angles[count] = angle
      } else {
        records.append(record)
        angles.append(angle)
        dirtyLow = min(dirtyLow, count)
        dirtyHigh = count
      }
      count += 1
      return true
    }
    guard count > 0 else { return true }
    recordsUploaded = try context.draw(
      records: records, dirty: dirtyLow...max(dirtyLow, dirtyHigh), isDirty: dirtyHigh >= 0,
      angles: angles, count: count, on: target)
    return true
  }

  /// The GL objects for `renderer`, made on first use; throws (every time) when the renderer
  /// cannot run the backend.
  private func prepare(_ renderer: OpaquePointer) throws(SDLError) -> GPUContext {
    if let refusal { throw refusal }
    // The host's queued draws go first. SDL makes its context current only when it runs a
    // command: the one it made current for this renderer before is taken as still its own
    // when it is current now; otherwise SDL is made to make it current.
    SDL_RenderFlush(renderer)
    if gl == nil || glContext == nil || SDL_GL_GetCurrentContext() != glContext {
      GPUSupport.makeContextCurrent(renderer)
    }
    if let gl { return gl }
    do throws(SDLError) {
      let support = GPUSupport(renderer, contextIsCurrent: true)
      guard support.isOffered, let functions = support.functions else {
        throw SDLError("gpu backend", message: support.reason, reason: .unsupported)
      }
      let made = try GPUContext(functions, version: support.version, openGLES: support.openGLES)
      gl = made
      glContext = SDL_GL_GetCurrentContext()
      self.renderer = renderer
      return made
    } catch {
      refusal = error
      throw error
    }
  }

  package func renderTargetsDidReset() {
    // A reset renderer may have a new context: the old objects are gone with the old one
    // (deleting their names now could delete SDL's), so they are forgotten and made again.
    gl = nil
    glContext = nil
    refusal = nil
    records.removeAll()
    angles.removeAll()
  }

  package func close() {
    if let gl, let renderer {
      GPUSupport.makeContextCurrent(renderer)
      gl.delete()
    }
    gl = nil
    records = []
    angles = []
  }
}
