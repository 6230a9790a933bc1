/// Every piece of OpenGL state the `gpu` backend changes, read before its draw and put back
/// after it. SDL's GL renderers cache what they set (program, blend, viewport, scissor,
/// texture bindings, vertex arrays) and do not set it again while the cache says it is set, so
/// anything left changed would spoil the host's next draws through SDL: the backend leaves the
/// context exactly as it found it.
///
/// What is saved: the program, the vertex array object (SDL's renderers keep their client
/// arrays or buffers on the default one, which the backend never touches), the array buffer
/// binding, blending (enable, factors, equations), the viewport, the scissor test and box,
/// depth, stencil and face culling and sRGB writes (disabled for the draw), the colour write
/// mask, the active texture unit and, on the unit used, the 2D texture and sampler bindings,
/// and the unpack state a texture upload reads (alignment, row length, skips, unpack buffer).
/// The framebuffer is never changed: the draw goes into the one SDL bound (the window, or a
/// render target's).
struct GLStateSnapshot: Equatable {
  private let program: Int32
  private let vertexArray: Int32
  private let arrayBuffer: Int32
  private let capabilities: [UInt32]
  private let enabled: [Bool]
  private let blendFactors: SIMD4<Int32>
  private let blendEquations: SIMD2<Int32>
  private let viewport: SIMD4<Int32>
  private let scissorBox: SIMD4<Int32>
  private let colorMask: SIMD4<Int32>
  private let activeTexture: Int32
  private let texture: Int32
  private let sampler: Int32
  private let unpack: SIMD4<Int32>
  private let unpackBuffer: Int32
  private let framebuffer: Int32
  /// The texture unit the backend binds its dash table on.
  let unit: UInt32

  /// Capabilities the draw sets: blending and the scissor on, the rest off (sRGB writes are
  /// desktop GL's alone; OpenGL ES has no such switch).
  static func capabilities(openGLES: Bool) -> [UInt32] { openGLES ? esCapabilities : desktop }
  private static let esCapabilities = [
    GL.blend, GL.scissorTest, GL.depthTest, GL.stencilTest, GL.cullFace,
  ]
  private static let desktop = esCapabilities + [GL.framebufferSRGB]
  static let unpackNames = [
    GL.unpackAlignment, GL.unpackRowLength, GL.unpackSkipRows, GL.unpackSkipPixels,
  ]

  /// Reads the state now (the draw's framebuffer binding too, for a test to compare; it is
  /// never changed, so never put back), for a draw that uses texture unit `unit` (0-based), on an OpenGL ES
  /// context or a desktop one.
  init(_ gl: GLFunctions, unit: UInt32, openGLES: Bool) {
    self.unit = unit
    program = gl.integer(GL.currentProgram)
    vertexArray = gl.integer(GL.vertexArrayBinding)
    arrayBuffer = gl.integer(GL.arrayBufferBinding)
    capabilities = Self.capabilities(openGLES: openGLES)
    enabled = capabilities.map { gl.isEnabled($0) != 0 }
    blendFactors = SIMD4(
      gl.integer(GL.blendSrcRGB), gl.integer(GL.blendDstRGB), gl.integer(GL.blendSrcAlpha),
      gl.integer(GL.blendDstAlpha))
    blendEquations = SIMD2(gl.integer(GL.blendEquationRGB), gl.integer(GL.blendEquationAlpha))
    viewport = gl.integers(GL.viewport)
    scissorBox = gl.integers(GL.scissorBox)
    colorMask = gl.integers(GL.colorWritemask)
    activeTexture = gl.integer(GL.activeTexture)
    gl.activeTexture(GL.texture0 + unit)
    texture = gl.integer(GL.textureBinding2D)
    sampler = gl.integer(GL.samplerBinding)
    gl.activeTexture(UInt32(bitPattern: activeTexture))
    let u = Self.unpackNames
    unpack = SIMD4(gl.integer(u[0]), gl.integer(u[1]), gl.integer(u[2]), gl.integer(u[3]))
    unpackBuffer = gl.integer(GL.pixelUnpackBufferBinding)
    framebuffer = gl.integer(GL.drawFramebufferBinding)
  }

  /// Puts back everything `init` read.
  func restore(_ gl: GLFunctions) {
    gl.useProgram(UInt32(bitPattern: program))
    gl.bindVertexArray(UInt32(bitPattern: vertexArray))
    gl.bindBuffer(GL.arrayBuffer, UInt32(bitPattern: arrayBuffer))
    for (cap, on) in zip(capabilities, enabled) {
      if on { gl.enable(cap) } else { gl.disable(cap) }
    }
    let f = SIMD4<UInt32>(truncatingIfNeeded: blendFactors)
    gl.blendFuncSeparate(f[0], f[1], f[2], f[3])
    gl.blendEquationSeparate(
      UInt32(bitPattern: blendEquations[0]), UInt32(bitPattern: blendEquations[1]))
    gl.viewport(viewport[0], viewport[1], viewport[2], viewport[3])
    gl.scissor(scissorBox[0], scissorBox[1], scissorBox[2], scissorBox[3])
    gl.colorMask(
      colorMask[0] != 0 ? 1 : 0, colorMask[1] != 0 ? 1 : 0, colorMask[2] != 0 ? 1 : 0,
      colorMask[3] != 0 ? 1 : 0)
    gl.activeTexture(GL.texture0 + unit)
    gl.bindTexture(GL.texture2D, UInt32(bitPattern: texture))
    gl.bindSampler(unit, UInt32(bitPattern: sampler))
    gl.activeTexture(UInt32(bitPattern: activeTexture))
    for (i, name) in Self.unpackNames.enumerated() { gl.pixelStorei(name, unpack[i]) }
    gl.bindBuffer(GL.pixelUnpackBuffer, UInt32(bitPattern: unpackBuffer))
  }
}
