internal import CSwiftLoaderGL
import CSwiftLoaderSDL2
import Synchronization

/// The `gpu` backend's objects in one GL context: the program, a vertex array object over the
/// corner, record and angle buffers, and the dash table texture; and the draw.
final class GPUContext {
  let gl: GLFunctions
  let openGLES: Bool
  private let program: GPURingProgram
  private var vertexArray: UInt32 = 0
  private var cornerBuffer: UInt32 = 0
  private var recordBuffer: UInt32 = 0
  private var angleBuffer: UInt32 = 0
  private var table: UInt32 = 0
  /// Records the record buffer holds room for, and angles the angle buffer.
  private var recordCapacity = 0
  private var angleCapacity = 0
  /// The dash table: its rows, its CPU copy, the texels in use and its generation (a new one,
  /// unique in the process, whenever it is packed afresh, so every shape is placed again, also
  /// shapes placed by a context let go since: a reset's or a closed renderer's).
  private var tableRows = 0
  private var tableTexels: [Float] = []
  private var tableUsed = 0
  private var generation = GPUContext.generations.wrappingAdd(1, ordering: .relaxed).oldValue
  private static let generations = Atomic<Int>(0)
  private var tableDirtyRows: Range<Int>?
  private let maximumTableRows: Int

  /// Compiles the program and makes the buffers and the table in the current context. GL's
  /// error flags are drained first (what they held is the host's) and read after: an error
  /// raised by the set-up fails it. `fragmentSuffix` is appended to the fragment shader
  /// (tests: a line the compiler rejects).
  /// - Throws: the program's or the set-up's failure, one line.
  init(_ gl: GLFunctions, fragmentSuffix: String = "") throws(SDLError) {
    self.gl = gl
    self.openGLES = gl.version.openGLES
    _ = gl.errors()
    // Rows of the dash table at most: the texture's limit, and 2^24 texels, the offsets a
    // record's `Float` holds exactly.
    maximumTableRows = min(
      Int(gl.integer(GL_MAX_TEXTURE_SIZE)), (1 << 24) / GPURingProgram.tableWidth)
    let state = GLStateSnapshot(gl, unit: GPURingRasterizer.tableUnit, openGLES: openGLES)
    defer { state.restore(gl) }
    program = try GPURingProgram(gl, fragmentSuffix: fragmentSuffix)
    gl.genVertexArrays(1, &vertexArray)
    gl.genBuffers(1, &cornerBuffer)
    gl.genBuffers(1, &recordBuffer)
    gl.genBuffers(1, &angleBuffer)
    gl.genTextures(1, &table)
    gl.bindVertexArray(vertexArray)
    let corners: [Float] = [-1, -1, 1, -1, -1, 1, 1, 1]
    gl.bindBuffer(GLenum(GL_ARRAY_BUFFER), cornerBuffer)
    corners.withUnsafeBytes {
      gl.bufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STATIC_DRAW))
    }
    typealias A = GPURingProgram.Attribute
    gl.vertexAttribPointer(A.corner.rawValue, 2, GLenum(GL_FLOAT), 0, 8, nil)
    gl.enableVertexAttribArray(A.corner.rawValue)
    gl.bindBuffer(GLenum(GL_ARRAY_BUFFER), recordBuffer)
    let stride = Int32(MemoryLayout<GPURingRasterizer.Record>.stride)
    gl.vertexAttribPointer(A.place.rawValue, 4, GLenum(GL_FLOAT), 0, stride, nil)
    gl.vertexAttribPointer(
      A.dashes.rawValue, 3, GLenum(GL_FLOAT), 0, stride, UnsafeRawPointer(bitPattern: 16))
    gl.vertexAttribPointer(
      A.color.rawValue, 4, GLenum(GL_UNSIGNED_BYTE), 1, stride, UnsafeRawPointer(bitPattern: 28))
    gl.bindBuffer(GLenum(GL_ARRAY_BUFFER), angleBuffer)
    gl.vertexAttribPointer(A.angle.rawValue, 1, GLenum(GL_FLOAT), 0, 4, nil)
    for a in [A.place, .dashes, .color, .angle] {
      gl.enableVertexAttribArray(a.rawValue)
      gl.vertexAttribDivisor(a.rawValue, 1)
    }
    if let error = gl.errors().first {
      delete()
      throw SDLError(
        "gpu backend", message: "the gpu set-up raised \(GLFunctions.name(ofError: error))")
    }
  }

  var programName: UInt32 { program.program }

  /// Bytes of buffers and textures, as allocated.
  var bytes: Int {
    recordCapacity * MemoryLayout<GPURingRasterizer.Record>.stride + angleCapacity * 4
      + tableTexels.capacity * 4 * 2
  }

  /// Gives every shape of the frame its place in the dash table (the CPU copy; uploaded by
  /// the draw): appended when there is room, the table packed afresh with this frame's
  /// shapes (and grown if need be) when there is not.
  /// - Throws: a `.tooLarge` error when this frame's shapes hold more dashes than the largest
  ///   texture the context makes.
  func place(_ shapes: [GPURingRasterizer.Shape?]) throws(SDLError) {
    let row = GPURingProgram.tableWidth
    var needed = 0
    for case let s? in shapes where s.generation != generation { needed += s.dashCount }
    guard needed > 0 else { return }
    if tableUsed + needed > tableRows * row {
      var total = 0
      for case let s? in shapes { total += s.dashCount }
      generation = Self.generations.wrappingAdd(1, ordering: .relaxed).oldValue
      tableUsed = 0
      let rows = max(16, (total + row - 1) / row)
      guard rows <= maximumTableRows else {
        throw SDLError(
          "gpu backend",
          message: "the frame's shapes hold \(total) dashes, more than a \(row)x"
            + "\(maximumTableRows) texture holds", reason: .tooLarge)
      }
      if rows > tableRows {
        tableRows = min(max(rows, 2 * tableRows), maximumTableRows)
        tableTexels = [Float](repeating: 0, count: tableRows * row * 2)
      }
      tableDirtyRows = 0..<tableRows
    }
    for case let s? in shapes where s.generation != generation {
      s.generation = generation
      s.first = tableUsed
      for (i, v) in s.dashes.enumerated() { tableTexels[2 * tableUsed + i] = v }
      let rows = tableUsed / row..<(tableUsed + s.dashCount + row - 1) / row
      tableUsed += s.dashCount
      if let d = tableDirtyRows {
        tableDirtyRows = min(d.lowerBound, rows.lowerBound)..<max(d.upperBound, rows.upperBound)
      } else {
        tableDirtyRows = rows
      }
    }
  }

  /// Where a draw goes in GL's terms: the framebuffer bound now, its size, whether its rows
  /// run bottom-up (a window) and the scissor box.
  struct Target {
    var width: Int32
    var height: Int32
    /// A window's framebuffer (GL's y up): SDL draws a render target's texture with its
    /// first row at y = 0 of GL's framebuffer, and the window upside down.
    var flipped: Bool
    /// SDL's GLES2 renderer keeps ARGB8888 and RGB888 targets in GL's RGBA order and swaps red
    /// and blue in every colour it draws there.
    var swapsRedBlue: Bool
    /// The scissor box, GL's coordinates.
    var scissor: SIMD4<Int32>

    /// The framebuffer SDL has bound for `target`'s renderer (the window, or a render
    /// target's), with `target`'s region as the scissor box.
    init(_ target: RasterTarget, openGLES: Bool) throws(SDLError) {
      var w: Int32 = 0
      var h: Int32 = 0
      guard SDL_GetRendererOutputSize(target.renderer, &w, &h) == 0, w > 0, h > 0 else {
        throw SDLError("SDL_GetRendererOutputSize")
      }
      let renderTarget = SDL_GetRenderTarget(target.renderer)
      var swaps = false
      if openGLES, let renderTarget {
        var format: UInt32 = 0
        SDL_QueryTexture(renderTarget, &format, nil, nil, nil)
        swaps =
          format == SDL_PIXELFORMAT_ARGB8888.rawValue || format == SDL_PIXELFORMAT_RGB888.rawValue
      }
      let flipped = renderTarget == nil
      let r = target.region
      let x = Int32(r.originX + r.x)
      let top = Int32(r.originY + r.y)
      self.init(
        width: w, height: h, flipped: flipped, swapsRedBlue: swaps,
        scissor: SIMD4(
          x, flipped ? h - top - Int32(r.height) : top, Int32(r.width), Int32(r.height)))
    }

    init(width: Int32, height: Int32, flipped: Bool, swapsRedBlue: Bool, scissor: SIMD4<Int32>) {
      self.width = width
      self.height = height
      self.flipped = flipped
      self.swapsRedBlue = swapsRedBlue
      self.scissor = scissor
    }
  }

  /// Uploads what changed and draws `count` rings, one instanced draw call, into the
  /// framebuffer bound now, `target` describing it; every piece of state touched is put back.
  /// GL's error flags are drained before (what they held is the host's) and read after.
  /// `raisingError` raises `GL_INVALID_ENUM` in place of the draw call (tests: a driver that
  /// rejects the draw).
  /// - Returns: the records uploaded (the angles always are).
  /// - Throws: an error naming the GL error the draw raised (`isContextLost` says whether the
  ///   context is gone).
  @discardableResult
  func draw(
    records: [GPURingRasterizer.Record], dirty: ClosedRange<Int>, isDirty: Bool,
    angles: [Float], count: Int, into target: Target, raisingError: Bool = false
  ) throws(GPUDrawError) -> Int {
    _ = gl.errors()
    let uploaded: Int
    do {
      let state = GLStateSnapshot(gl, unit: GPURingRasterizer.tableUnit, openGLES: openGLES)
      defer { state.restore(gl) }
      uploaded = upload(
        records: records, dirty: dirty, isDirty: isDirty, angles: angles, count: count)
      drawInstances(count: count, into: target, failing: raisingError)
    }
    if let error = gl.errors().first { throw GPUDrawError(gl, raised: error) }
    return uploaded
  }

  /// Uploads the table's changed rows, the records that changed and the angles.
  private func upload(
    records: [GPURingRasterizer.Record], dirty: ClosedRange<Int>, isDirty: Bool,
    angles: [Float], count: Int
  ) -> Int {
    if let rows = tableDirtyRows {
      uploadTable(rows: rows)
      tableDirtyRows = nil
    }
    gl.bindVertexArray(vertexArray)
    let stride = MemoryLayout<GPURingRasterizer.Record>.stride
    gl.bindBuffer(GLenum(GL_ARRAY_BUFFER), recordBuffer)
    var uploaded = 0
    if records.count > recordCapacity {
      recordCapacity = max(records.count, 2 * recordCapacity)
      gl.bufferData(GLenum(GL_ARRAY_BUFFER), recordCapacity * stride, nil, GLenum(GL_DYNAMIC_DRAW))
      records.withUnsafeBytes {
        gl.bufferSubData(GLenum(GL_ARRAY_BUFFER), 0, $0.count, $0.baseAddress)
      }
      uploaded = records.count
    } else if isDirty {
      uploaded = dirty.count
      records.withUnsafeBytes {
        gl.bufferSubData(
          GLenum(GL_ARRAY_BUFFER), dirty.lowerBound * stride, dirty.count * stride,
          $0.baseAddress! + dirty.lowerBound * stride)
      }
    }
    // The angles: the one upload every frame, into storage kept while it is large enough.
    gl.bindBuffer(GLenum(GL_ARRAY_BUFFER), angleBuffer)
    if count > angleCapacity || (angleCapacity > 1024 && count * 4 < angleCapacity) {
      angleCapacity = max(count, 1024)
      gl.bufferData(GLenum(GL_ARRAY_BUFFER), angleCapacity * 4, nil, GLenum(GL_STREAM_DRAW))
    }
    angles.withUnsafeBytes {
      gl.bufferSubData(GLenum(GL_ARRAY_BUFFER), 0, count * 4, $0.baseAddress)
    }
    return uploaded
  }

  /// The draw call, over the whole target with its scissor box, with SDL's blending.
  private func drawInstances(count: Int, into target: Target, failing: Bool = false) {
    let (w, h) = (target.width, target.height)
    gl.useProgram(program.program)
    gl.uniform2f(program.scaleLocation, 2 / Float(w), (target.flipped ? -2 : 2) / Float(h))
    gl.uniform2f(program.offsetLocation, -1, target.flipped ? 1 : -1)
    gl.uniform1i(program.tableLocation, Int32(GPURingRasterizer.tableUnit))
    gl.uniform1i(program.swapLocation, target.swapsRedBlue ? 1 : 0)
    gl.activeTexture(GLenum(GL_TEXTURE0) + GPURingRasterizer.tableUnit)
    gl.bindTexture(GLenum(GL_TEXTURE_2D), table)
    gl.bindSampler(GPURingRasterizer.tableUnit, 0)
    // The whole target as the viewport (positions are the target's pixels); the visible
    // region (the host's viewport cut by its clip rect) as the scissor box.
    gl.viewport(0, 0, w, h)
    let box = target.scissor
    gl.scissor(box[0], box[1], box[2], box[3])
    for cap in GLStateSnapshot.capabilities(openGLES: openGLES) {
      if cap == GLenum(GL_BLEND) || cap == GLenum(GL_SCISSOR_TEST) {
        gl.enable(cap)
      } else {
        gl.disable(cap)
      }
    }
    gl.blendFuncSeparate(
      GLenum(GL_SRC_ALPHA), GLenum(GL_ONE_MINUS_SRC_ALPHA), GLenum(GL_ONE),
      GLenum(GL_ONE_MINUS_SRC_ALPHA))
    gl.blendEquationSeparate(GLenum(GL_FUNC_ADD), GLenum(GL_FUNC_ADD))
    gl.colorMask(1, 1, 1, 1)
    if failing {
      gl.enable(0)
    } else {
      gl.drawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, 4, Int32(count))
    }
  }

  /// Draws `count` rings into a framebuffer of the context's own, `width` x `height` pixels of
  /// transparent black, and reads it back: premultiplied RGBA bytes, rows top first. Nothing of
  /// SDL's is touched; the framebuffer bindings and pack state are put back.
  func drawOffscreen(
    records: [GPURingRasterizer.Record], angles: [Float], count: Int, width: Int, height: Int
  ) throws(GPUDrawError) -> [UInt8] {
    _ = gl.errors()
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    do {
      let drawBinding = gl.integer(GL_DRAW_FRAMEBUFFER_BINDING)
      let readBinding = gl.integer(GL_READ_FRAMEBUFFER_BINDING)
      let packNames = [
        GL_PACK_ALIGNMENT, GL_PACK_ROW_LENGTH, GL_PACK_SKIP_ROWS, GL_PACK_SKIP_PIXELS,
      ]
      let pack = packNames.map { gl.integer($0) }
      let packBuffer = gl.integer(GL_PIXEL_PACK_BUFFER_BINDING)
      let state = GLStateSnapshot(gl, unit: GPURingRasterizer.tableUnit, openGLES: openGLES)
      var texture: GLuint = 0
      var framebuffer: GLuint = 0
      defer {
        gl.bindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), GLuint(bitPattern: drawBinding))
        gl.bindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), GLuint(bitPattern: readBinding))
        for (name, value) in zip(packNames, pack) { gl.pixelStorei(GLenum(name), value) }
        gl.bindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), GLuint(bitPattern: packBuffer))
        gl.deleteFramebuffers(1, &framebuffer)
        gl.deleteTextures(1, &texture)
        state.restore(gl)
      }
      gl.genTextures(1, &texture)
      gl.activeTexture(GLenum(GL_TEXTURE0) + GPURingRasterizer.tableUnit)
      gl.bindTexture(GLenum(GL_TEXTURE_2D), texture)
      gl.bindBuffer(GLenum(GL_PIXEL_UNPACK_BUFFER), 0)
      for name in GLStateSnapshot.unpackNames {
        gl.pixelStorei(GLenum(name), name == GL_UNPACK_ALIGNMENT ? 4 : 0)
      }
      gl.texParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
      gl.texParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
      pixels.withUnsafeBytes {
        gl.texImage2D(
          GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, Int32(width), Int32(height), 0, GLenum(GL_RGBA),
          GLenum(GL_UNSIGNED_BYTE), $0.baseAddress)
      }
      gl.genFramebuffers(1, &framebuffer)
      gl.bindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
      gl.framebufferTexture2D(
        GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
      let status = gl.checkFramebufferStatus(GLenum(GL_FRAMEBUFFER))
      guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
        throw GPUDrawError(
          message: "the probe's framebuffer is incomplete (status 0x\(String(status, radix: 16)))",
          isContextLost: false)
      }
      _ = upload(
        records: records, dirty: 0...max(0, count - 1), isDirty: true, angles: angles, count: count)
      let box = SIMD4<Int32>(0, 0, Int32(width), Int32(height))
      drawInstances(
        count: count,
        into: Target(
          width: Int32(width), height: Int32(height), flipped: false, swapsRedBlue: false,
          scissor: box))
      gl.pixelStorei(GLenum(GL_PACK_ALIGNMENT), 4)
      for name in packNames.dropFirst() { gl.pixelStorei(GLenum(name), 0) }
      gl.bindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0)
      pixels.withUnsafeMutableBytes {
        gl.readPixels(
          0, 0, Int32(width), Int32(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE),
          $0.baseAddress)
      }
    }
    if let error = gl.errors().first { throw GPUDrawError(gl, raised: error) }
    return pixels
  }

  private func uploadTable(rows: Range<Int>) {
    let row = GPURingProgram.tableWidth
    gl.activeTexture(GLenum(GL_TEXTURE0) + GPURingRasterizer.tableUnit)
    gl.bindTexture(GLenum(GL_TEXTURE_2D), table)
    gl.bindBuffer(GLenum(GL_PIXEL_UNPACK_BUFFER), 0)
    gl.pixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
    gl.pixelStorei(GLenum(GL_UNPACK_ROW_LENGTH), 0)
    gl.pixelStorei(GLenum(GL_UNPACK_SKIP_ROWS), 0)
    gl.pixelStorei(GLenum(GL_UNPACK_SKIP_PIXELS), 0)
    tableTexels.withUnsafeBytes { bytes in
      if rows == 0..<tableRows {
        gl.texParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        gl.texParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        gl.texParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        gl.texParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        gl.texParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_BASE_LEVEL), 0)
        gl.texParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAX_LEVEL), 0)
        gl.texImage2D(
          GLenum(GL_TEXTURE_2D), 0, GL_RG32F, Int32(row), Int32(tableRows), 0, GLenum(GL_RG),
          GLenum(GL_FLOAT),
          bytes.baseAddress)
      } else {
        gl.texSubImage2D(
          GLenum(GL_TEXTURE_2D), 0, 0, Int32(rows.lowerBound), Int32(row), Int32(rows.count),
          GLenum(GL_RG),
          GLenum(GL_FLOAT), bytes.baseAddress! + rows.lowerBound * row * 8)
      }
    }
  }

  /// Gives the buffers' and the dash table's storage back (the context must be current): the
  /// next draw allocates them again and places every shape afresh.
  func releaseStorage() {
    let state = GLStateSnapshot(gl, unit: GPURingRasterizer.tableUnit, openGLES: openGLES)
    defer { state.restore(gl) }
    for buffer in [recordBuffer, angleBuffer] {
      gl.bindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
      gl.bufferData(GLenum(GL_ARRAY_BUFFER), 0, nil, GLenum(GL_DYNAMIC_DRAW))
    }
    gl.activeTexture(GLenum(GL_TEXTURE0) + GPURingRasterizer.tableUnit)
    gl.bindTexture(GLenum(GL_TEXTURE_2D), table)
    gl.texImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RG32F, 0, 0, 0, GLenum(GL_RG), GLenum(GL_FLOAT), nil)
    recordCapacity = 0
    angleCapacity = 0
    tableRows = 0
    tableTexels = []
    tableUsed = 0
    tableDirtyRows = nil
    generation = Self.generations.wrappingAdd(1, ordering: .relaxed).oldValue
  }

  /// Frees the objects (the context must be current).
  func delete() {
    let state = GLStateSnapshot(gl, unit: GPURingRasterizer.tableUnit, openGLES: openGLES)
    defer { state.restore(gl) }
    gl.deleteProgram(program.program)
    gl.deleteVertexArrays(1, &vertexArray)
    for var b in [cornerBuffer, recordBuffer, angleBuffer] { gl.deleteBuffers(1, &b) }
    gl.deleteTextures(1, &table)
  }
}

/// A GL error after one of the backend's draws, worded; `isContextLost` when the context is
/// gone (`GL_CONTEXT_LOST`, or a reset `glGetGraphicsResetStatus` reports), so its objects are
/// forgotten, not deleted.
struct GPUDrawError: Error {
  let message: String
  let isContextLost: Bool

  init(message: String, isContextLost: Bool) {
    self.message = message
    self.isContextLost = isContextLost
  }

  /// The draw raised `error`; the reset status is read where the context offers it.
  init(_ gl: GLFunctions, raised error: GLenum) {
    var reset: GLenum = GLenum(GL_NO_ERROR)
    if let status = gl.getGraphicsResetStatus { reset = status() }
    switch Int32(reset) {
    case GL_GUILTY_CONTEXT_RESET, GL_INNOCENT_CONTEXT_RESET, GL_UNKNOWN_CONTEXT_RESET:
      let kind =
        Int32(reset) == GL_GUILTY_CONTEXT_RESET
        ? "GL_GUILTY_CONTEXT_RESET"
        : Int32(reset) == GL_INNOCENT_CONTEXT_RESET
          ? "GL_INNOCENT_CONTEXT_RESET" : "GL_UNKNOWN_CONTEXT_RESET"
      self.init(message: "the GL context was reset (\(kind))", isContextLost: true)
    default:
      let lost = error == GLenum(GL_CONTEXT_LOST)
      self.init(
        message: lost
          ? "the GL context was lost (GL_CONTEXT_LOST)"
          : "a gpu draw raised \(GLFunctions.name(ofError: error))",
        isContextLost: lost)
    }
  }
}
