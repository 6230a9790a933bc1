internal import CSwiftLoaderGL

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
    GLenum(GL_BLEND), GLenum(GL_SCISSOR_TEST), GLenum(GL_DEPTH_TEST), GLenum(GL_STENCIL_TEST),
    GLenum(GL_CULL_FACE),
  ]
  private static let desktop = esCapabilities + [GLenum(GL_FRAMEBUFFER_SRGB)]
  static let unpackNames = [
    GL_UNPACK_ALIGNMENT, GL_UNPACK_ROW_LENGTH, GL_UNPACK_SKIP_ROWS, GL_UNPACK_SKIP_PIXELS,
  ]

  /// Reads the state now, for a draw that uses texture unit `unit` (0-based) on an OpenGL ES
  /// context or a desktop one; the framebuffer binding too, for a test to compare (it is never
  /// changed, so never put back).
  init(_ gl: GLFunctions, unit: UInt32, openGLES: Bool) {
    self.unit = unit
    program = gl.integer(GL_CURRENT_PROGRAM)
    vertexArray = gl.integer(GL_VERTEX_ARRAY_BINDING)
    arrayBuffer = gl.integer(GL_ARRAY_BUFFER_BINDING)
    capabilities = Self.capabilities(openGLES: openGLES)
    enabled = capabilities.map { gl.isEnabled($0) != 0 }
    blendFactors = SIMD4(
      gl.integer(GL_BLEND_SRC_RGB), gl.integer(GL_BLEND_DST_RGB), gl.integer(GL_BLEND_SRC_ALPHA),
      gl.integer(GL_BLEND_DST_ALPHA))
    blendEquations = SIMD2(gl.integer(GL_BLEND_EQUATION_RGB), gl.integer(GL_BLEND_EQUATION_ALPHA))
    viewport = gl.integers(GL_VIEWPORT)
    scissorBox = gl.integers(GL_SCISSOR_BOX)
    colorMask = gl.integers(GL_COLOR_WRITEMASK)
    activeTexture = gl.integer(GL_ACTIVE_TEXTURE)
    gl.activeTexture(GLenum(GL_TEXTURE0) + unit)
    texture = gl.integer(GL_TEXTURE_BINDING_2D)
    sampler = gl.integer(GL_SAMPLER_BINDING)
    gl.activeTexture(UInt32(bitPattern: activeTexture))
    let u = Self.unpackNames
    unpack = SIMD4(gl.integer(u[0]), gl.integer(u[1]), gl.integer(u[2]), gl.integer(u[3]))
    unpackBuffer = gl.integer(GL_PIXEL_UNPACK_BUFFER_BINDING)
    framebuffer = gl.integer(GL_DRAW_FRAMEBUFFER_BINDING)
  }

  /// Puts back everything `init` read.
  func restore(_ gl: GLFunctions) {
    gl.useProgram(UInt32(bitPattern: program))
    gl.bindVertexArray(UInt32(bitPattern: vertexArray))
    gl.bindBuffer(GLenum(GL_ARRAY_BUFFER), UInt32(bitPattern: arrayBuffer))
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
    gl.activeTexture(GLenum(GL_TEXTURE0) + unit)
    gl.bindTexture(GLenum(GL_TEXTURE_2D), UInt32(bitPattern: texture))
    gl.bindSampler(unit, UInt32(bitPattern: sampler))
    gl.activeTexture(UInt32(bitPattern: activeTexture))
    for (i, name) in Self.unpackNames.enumerated() { gl.pixelStorei(GLenum(name), unpack[i]) }
    gl.bindBuffer(GLenum(GL_PIXEL_UNPACK_BUFFER), UInt32(bitPattern: unpackBuffer))
  }
}
