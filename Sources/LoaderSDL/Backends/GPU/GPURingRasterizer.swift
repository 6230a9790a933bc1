internal import CSwiftLoaderGL
import CSwiftLoaderSDL2
import LoaderCore

/// Draws every ring of a frame with one instanced OpenGL draw call, inside SDL's own OpenGL
/// or OpenGL ES renderer (`--backend gpu`): the GPU computes each pixel's coverage from a
/// small record per ring, so the CPU's share of a frame is one pass over the rings.
///
/// Each ring is a record (`Record`: centre, radius, half width, colour, its shape's place in
/// the dash table, caps) and an angle. Records are uploaded where they changed, angles every
/// frame; each shape's dashes go into a texture once (`GPURingProgram` has the shader). The
/// draw flushes SDL's queue (the host's draws first, SDL's context current), then draws one
/// quad per ring into whatever framebuffer SDL has bound, with SDL's blending and
/// `HostRenderState`'s viewport and clip; every piece of GL state touched is put back
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

  /// Faults a test injects to see the default fall back (each one a thing a driver does).
  package struct Faults {
    /// Appended to the fragment shader's source: a line the compiler rejects.
    package var fragmentSuffix = ""
    /// The probe's read-back pixels inverted (a driver that draws wrong).
    package var wrongProbePixels = false
    /// From this draw on (counted from 1), a GL error is raised after each draw.
    package var glErrorFromDraw: Int?
    package init() {}
  }
  /// Faults to inject (tests; none by default).
  package var faults = Faults()
  /// Draws made (the faults count them).
  private var drawsMade = 0

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

  /// The GL name of the backend's program while it has one (tests).
  package var programName: UInt32? { gl?.programName }

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

  /// Lets the records, the angles and the GL buffers and dash table go when they hold more
  /// than `bytes` (the program stays: the next draw uploads everything again, it compiles
  /// nothing).
  package func trimOwnMemory(toBytes bytes: Int) {
    guard ownBytes > bytes else { return }
    records = []
    angles = []
    frameShapes = []
    guard let gl, let renderer else { return }
    GPUSupport.makeContextCurrent(renderer)
    if SDL_GL_GetCurrentContext() == glContext {
      gl.releaseStorage()
    } else {
      self.gl = nil
      glContext = nil
    }
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
    var count = 0
    var dirty: ClosedRange<Int>?
    _ = frame.forEachVisibleRing(caches: shapes, in: region) { (ring, shape, _) -> Bool in
      let record = Record(ring, shape, originX: region.originX, originY: region.originY)
      if count < records.count {
        if records[count] != record {
          records[count] = record
          dirty = (dirty?.lowerBound ?? count)...count
        }
        angles[count] = Self.radians(ring.angle)
      } else {
        records.append(record)
        angles.append(Self.radians(ring.angle))
        dirty = (dirty?.lowerBound ?? count)...count
      }
      count += 1
      return true
    }
    guard count > 0 else { return true }
    let into = try GPUContext.Target(target, openGLES: context.openGLES)
    do throws(GPUDrawError) {
      drawsMade += 1
      recordsUploaded = try context.draw(
        records: records, dirty: dirty ?? 0...0, isDirty: dirty != nil, angles: angles,
        count: count, into: into,
        raisingError: faults.glErrorFromDraw.map { drawsMade >= $0 } ?? false)
    } catch {
      throw failed(error)
    }
    return true
  }

  /// A ring's angle as the shader takes it: radians clockwise, reduced to one turn.
  private static func radians(_ degrees: Float) -> Float {
    degrees.truncatingRemainder(dividingBy: 360) * (Float.pi / 180)
  }

  /// `error` as the backend's error; a lost context's objects are forgotten (its names went
  /// with it) and made again in the next draw's context, and the uploaded records with them.
  private func failed(_ error: GPUDrawError) -> SDLError {
    if error.isContextLost {
      gl = nil
      glContext = nil
      records.removeAll()
      angles.removeAll()
    }
    return SDLError("gpu backend", message: error.message)
  }

  /// Proves the backend on `renderer` before a default trusts it: the program compiles and
  /// links, the set-up raises no GL error (`prepare`), and the probe (`GPUProbe`) drawn into a
  /// framebuffer of its own reads back within `GPUProbe.minimumPSNR` of the `spans` kernel's
  /// pixels.
  /// - Throws: why not, in one line (`SDLError.message`).
  package func verify(on renderer: OpaquePointer) throws(SDLError) {
    let context = try prepare(renderer)
    let probe = GPUProbe()
    var shapes: [Shape?] = probe.shapes.map { Shape($0) }
    try context.place(shapes)
    let probeRecords = probe.rings.map {
      Record($0, shapes[Int($0.shape)]!, originX: 0, originY: 0)
    }
    let probeAngles = probe.rings.map { Self.radians($0.angle) }
    var pixels: [UInt8]
    do throws(GPUDrawError) {
      pixels = try context.drawOffscreen(
        records: probeRecords, angles: probeAngles, count: probeRecords.count,
        width: probe.width, height: probe.height)
    } catch {
      throw failed(error)
    }
    // The record buffer now holds the probe's: the next draw uploads every record.
    records.removeAll(keepingCapacity: true)
    angles.removeAll(keepingCapacity: true)
    shapes.removeAll()
    if faults.wrongProbePixels {
      for i in pixels.indices { pixels[i] = 255 - pixels[i] }
    }
    if let mismatch = try probe.mismatch(pixels) {
      throw SDLError("gpu backend", message: mismatch)
    }
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
      guard let functions = support.functions else {
        throw SDLError("gpu backend", message: support.reason, reason: .unsupported)
      }
      let made = try GPUContext(functions, fragmentSuffix: faults.fragmentSuffix)
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
    // SDL's GL renderers keep their context through a reset: the objects are deleted in it.
    // Were the context another (a renderer that made a new one), the old objects went with
    // the old context and their names may be the new one's: they are forgotten instead.
    if let gl, let renderer {
      GPUSupport.makeContextCurrent(renderer)
      if SDL_GL_GetCurrentContext() == glContext { gl.delete() }
    }
    gl = nil
    glContext = nil
    refusal = nil
    records.removeAll()
    angles.removeAll()
  }

  package func close() {
    if let gl, let renderer {
      GPUSupport.makeContextCurrent(renderer)
      if SDL_GL_GetCurrentContext() == glContext { gl.delete() }
    }
    gl = nil
    records = []
    angles = []
  }
}

extension GPURingRasterizer.Record {
  /// `ring` of `shape`, its centre moved by the viewport's corner (the target's pixels).
  init(_ ring: RingInstance, _ shape: GPURingRasterizer.Shape, originX: Int, originY: Int) {
    let c = ring.color
    self.init(
      x: Float(originX) + ring.centerX, y: Float(originY) + ring.centerY, radius: shape.radius,
      halfWidth: shape.halfWidth, first: Float(shape.first), count: Float(shape.dashCount),
      flags: shape.flags,
      color: UInt32(c.r) | UInt32(c.g) << 8 | UInt32(c.b) << 16 | UInt32(c.a) << 24)
  }
}
