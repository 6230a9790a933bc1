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

  init(_ gl: GLFunctions, version: String, openGLES: Bool) throws(SDLError) {
    self.gl = gl
    self.openGLES = openGLES
    // Rows of the dash table at most: the texture's limit, and 2^24 texels, the offsets a
    // record's `Float` holds exactly.
    maximumTableRows = min(
      Int(gl.integer(GL.maxTextureSize)), (1 << 24) / GPURingProgram.tableWidth)
    let state = GLStateSnapshot(gl, unit: GPURingRasterizer.tableUnit, openGLES: openGLES)
    defer { state.restore(gl) }
    program = try GPURingProgram(gl, version: version)
    gl.genVertexArrays(1, &vertexArray)
    gl.genBuffers(1, &cornerBuffer)
    gl.genBuffers(1, &recordBuffer)
    gl.genBuffers(1, &angleBuffer)
    gl.genTextures(1, &table)
    gl.bindVertexArray(vertexArray)
    let corners: [Float] = [-1, -1, 1, -1, -1, 1, 1, 1]
    gl.bindBuffer(GL.arrayBuffer, cornerBuffer)
    corners.withUnsafeBytes {
      gl.bufferData(GL.arrayBuffer, $0.count, $0.baseAddress, GL.staticDraw)
    }
    typealias A = GPURingProgram.Attribute
    gl.vertexAttribPointer(A.corner.rawValue, 2, GL.float, 0, 8, nil)
    gl.enableVertexAttribArray(A.corner.rawValue)
    gl.bindBuffer(GL.arrayBuffer, recordBuffer)
    let stride = Int32(MemoryLayout<GPURingRasterizer.Record>.stride)
    gl.vertexAttribPointer(A.place.rawValue, 4, GL.float, 0, stride, nil)
    gl.vertexAttribPointer(
      A.dashes.rawValue, 3, GL.float, 0, stride, UnsafeRawPointer(bitPattern: 16))
    gl.vertexAttribPointer(
      A.color.rawValue, 4, GL.unsignedByte, 1, stride, UnsafeRawPointer(bitPattern: 28))
    gl.bindBuffer(GL.arrayBuffer, angleBuffer)
    gl.vertexAttribPointer(A.angle.rawValue, 1, GL.float, 0, 4, nil)
    for a in [A.place, .dashes, .color, .angle] {
      gl.enableVertexAttribArray(a.rawValue)
      gl.vertexAttribDivisor(a.rawValue, 1)
    }
  }

  /// Bytes of buffers and textures, as allocated.
  var bytes: Int {
    recordCapacity * MemoryLayout<GPURingRasterizer.Record>.stride + angleCapacity * 4
      + tableTexels.capacity * 4 * 2
  }

  /// Gives every shape of the frame its place in the dash table (the CPU copy; uploaded by
  /// the draw): appended when there is room, the table packed afresh with this frame's
  /// shapes (and grown if need be) when there is not.
  /// - Throws: a `.tooLarge` error when this frame's shapes hold more dashes than the largest
  ///   texture the context makes (16,384 rows of 1,024 on llvmpipe: 4,096 shapes of the most
  ///   dashes a ring may have).
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

  /// Uploads what changed and draws `count` rings, one instanced draw call, into the
  /// framebuffer SDL has bound, within `target`'s region.
  /// - Returns: the records uploaded (the angles always are).
  @discardableResult
  func draw(
    records: [GPURingRasterizer.Record], dirty: ClosedRange<Int>, isDirty: Bool,
    angles: [Float], count: Int, on target: RasterTarget
  ) throws(SDLError) -> Int {
    var w: Int32 = 0
    var h: Int32 = 0
    guard SDL_GetRendererOutputSize(target.renderer, &w, &h) == 0, w > 0, h > 0 else {
      throw SDLError("SDL_GetRendererOutputSize")
    }
    // SDL draws a render target's texture with its first row at y = 0 of GL's framebuffer,
    // and the window upside down (GL's y up).
    let renderTarget = SDL_GetRenderTarget(target.renderer)
    let flipped = renderTarget == nil
    var swapsRedBlue = false
    if openGLES, let renderTarget {
      var format: UInt32 = 0
      SDL_QueryTexture(renderTarget, &format, nil, nil, nil)
      swapsRedBlue =
        format == SDL_PIXELFORMAT_ARGB8888.rawValue || format == SDL_PIXELFORMAT_RGB888.rawValue
    }
    let state = GLStateSnapshot(gl, unit: GPURingRasterizer.tableUnit, openGLES: openGLES)
    defer { state.restore(gl) }
    if let rows = tableDirtyRows {
      uploadTable(rows: rows)
      tableDirtyRows = nil
    }
    gl.bindVertexArray(vertexArray)
    let stride = MemoryLayout<GPURingRasterizer.Record>.stride
    gl.bindBuffer(GL.arrayBuffer, recordBuffer)
    var uploaded = 0
    if records.count > recordCapacity {
      recordCapacity = max(records.count, 2 * recordCapacity)
      gl.bufferData(GL.arrayBuffer, recordCapacity * stride, nil, GL.dynamicDraw)
      records.withUnsafeBytes { gl.bufferSubData(GL.arrayBuffer, 0, $0.count, $0.baseAddress) }
      uploaded = records.count
    } else if isDirty {
      uploaded = dirty.count
      records.withUnsafeBytes {
        gl.bufferSubData(
          GL.arrayBuffer, dirty.lowerBound * stride, dirty.count * stride,
          $0.baseAddress! + dirty.lowerBound * stride)
      }
    }
    // The angles: the one upload every frame, into storage kept while it is large enough.
    gl.bindBuffer(GL.arrayBuffer, angleBuffer)
    if count > angleCapacity || (angleCapacity > 1024 && count * 4 < angleCapacity) {
      angleCapacity = max(count, 1024)
      gl.bufferData(GL.arrayBuffer, angleCapacity * 4, nil, GL.streamDraw)
    }
    angles.withUnsafeBytes { gl.bufferSubData(GL.arrayBuffer, 0, count * 4, $0.baseAddress) }

    gl.useProgram(program.program)
    gl.uniform2f(program.scaleLocation, 2 / Float(w), (flipped ? -2 : 2) / Float(h))
    gl.uniform2f(program.offsetLocation, -1, flipped ? 1 : -1)
    gl.uniform1i(program.tableLocation, Int32(GPURingRasterizer.tableUnit))
    gl.uniform1i(program.swapLocation, swapsRedBlue ? 1 : 0)
    gl.activeTexture(GL.texture0 + GPURingRasterizer.tableUnit)
    gl.bindTexture(GL.texture2D, table)
    gl.bindSampler(GPURingRasterizer.tableUnit, 0)
    // The whole target as the viewport (positions are the target's pixels); the visible
    // region (the host's viewport cut by its clip rect) as the scissor box.
    gl.viewport(0, 0, w, h)
    let r = target.region
    let x = Int32(r.originX + r.x)
    let top = Int32(r.originY + r.y)
    gl.scissor(x, flipped ? h - top - Int32(r.height) : top, Int32(r.width), Int32(r.height))
    for cap in GLStateSnapshot.capabilities(openGLES: openGLES) {
      if cap == GL.blend || cap == GL.scissorTest { gl.enable(cap) } else { gl.disable(cap) }
    }
    gl.blendFuncSeparate(GL.srcAlpha, GL.oneMinusSrcAlpha, GL.one, GL.oneMinusSrcAlpha)
    gl.blendEquationSeparate(GL.funcAdd, GL.funcAdd)
    gl.colorMask(1, 1, 1, 1)
    gl.drawArraysInstanced(GL.triangleStrip, 0, 4, Int32(count))
    return uploaded
  }

  private func uploadTable(rows: Range<Int>) {
    let row = GPURingProgram.tableWidth
    gl.activeTexture(GL.texture0 + GPURingRasterizer.tableUnit)
    gl.bindTexture(GL.texture2D, table)
    gl.bindBuffer(GL.pixelUnpackBuffer, 0)
    gl.pixelStorei(GL.unpackAlignment, 4)
    gl.pixelStorei(GL.unpackRowLength, 0)
    gl.pixelStorei(GL.unpackSkipRows, 0)
    gl.pixelStorei(GL.unpackSkipPixels, 0)
    tableTexels.withUnsafeBytes { bytes in
      if rows == 0..<tableRows {
        gl.texParameteri(GL.texture2D, GL.textureMinFilter, GL.nearest)
        gl.texParameteri(GL.texture2D, GL.textureMagFilter, GL.nearest)
        gl.texParameteri(GL.texture2D, GL.textureWrapS, GL.clampToEdge)
        gl.texParameteri(GL.texture2D, GL.textureWrapT, GL.clampToEdge)
        gl.texParameteri(GL.texture2D, GL.textureBaseLevel, 0)
        gl.texParameteri(GL.texture2D, GL.textureMaxLevel, 0)
        gl.texImage2D(
          GL.texture2D, 0, GL.rg32f, Int32(row), Int32(tableRows), 0, GL.rg, GL.float,
          bytes.baseAddress)
      } else {
        gl.texSubImage2D(
          GL.texture2D, 0, 0, Int32(rows.lowerBound), Int32(row), Int32(rows.count), GL.rg,
          GL.float, bytes.baseAddress! + rows.lowerBound * row * 8)
      }
    }
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
