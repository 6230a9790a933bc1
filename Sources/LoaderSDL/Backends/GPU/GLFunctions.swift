import CSwiftLoaderSDL2

/// The OpenGL (ES) entry points and enum values the `gpu` backend uses, loaded through
/// `SDL_GL_GetProcAddress` from the library SDL's renderer already loaded: no link dependency
/// of our own. One table per rasterizer, loaded once while the renderer's context is current.
///
/// The few `GLenum` values are written out here (from the Khronos headers) instead of being
/// imported: LoaderSDL links nothing but SDL2 and SDL2_gfx.
struct GLFunctions {
  typealias Enum = UInt32
  typealias GLint = Int32
  typealias GLuint = UInt32

  let getString: @convention(c) (Enum) -> UnsafePointer<UInt8>?
  let getIntegerv: @convention(c) (Enum, UnsafeMutablePointer<GLint>?) -> Void
  let getError: @convention(c) () -> Enum
  let isEnabled: @convention(c) (Enum) -> UInt8
  let enable: @convention(c) (Enum) -> Void
  let disable: @convention(c) (Enum) -> Void
  let createShader: @convention(c) (Enum) -> GLuint
  let shaderSource:
    @convention(c) (GLuint, GLint, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<GLint>?) ->
      Void
  let compileShader: @convention(c) (GLuint) -> Void
  let getShaderiv: @convention(c) (GLuint, Enum, UnsafeMutablePointer<GLint>?) -> Void
  let getShaderInfoLog:
    @convention(c) (GLuint, GLint, UnsafeMutablePointer<GLint>?, UnsafeMutablePointer<CChar>?) ->
      Void
  let deleteShader: @convention(c) (GLuint) -> Void
  let createProgram: @convention(c) () -> GLuint
  let attachShader: @convention(c) (GLuint, GLuint) -> Void
  let bindAttribLocation: @convention(c) (GLuint, GLuint, UnsafePointer<CChar>?) -> Void
  let linkProgram: @convention(c) (GLuint) -> Void
  let getProgramiv: @convention(c) (GLuint, Enum, UnsafeMutablePointer<GLint>?) -> Void
  let getProgramInfoLog:
    @convention(c) (GLuint, GLint, UnsafeMutablePointer<GLint>?, UnsafeMutablePointer<CChar>?) ->
      Void
  let deleteProgram: @convention(c) (GLuint) -> Void
  let useProgram: @convention(c) (GLuint) -> Void
  let getUniformLocation: @convention(c) (GLuint, UnsafePointer<CChar>?) -> GLint
  let uniform1i: @convention(c) (GLint, GLint) -> Void
  let uniform2f: @convention(c) (GLint, Float, Float) -> Void
  let genVertexArrays: @convention(c) (GLint, UnsafeMutablePointer<GLuint>?) -> Void
  let bindVertexArray: @convention(c) (GLuint) -> Void
  let deleteVertexArrays: @convention(c) (GLint, UnsafePointer<GLuint>?) -> Void
  let genBuffers: @convention(c) (GLint, UnsafeMutablePointer<GLuint>?) -> Void
  let bindBuffer: @convention(c) (Enum, GLuint) -> Void
  let bufferData: @convention(c) (Enum, Int, UnsafeRawPointer?, Enum) -> Void
  let bufferSubData: @convention(c) (Enum, Int, Int, UnsafeRawPointer?) -> Void
  let deleteBuffers: @convention(c) (GLint, UnsafePointer<GLuint>?) -> Void
  let vertexAttribPointer:
    @convention(c) (GLuint, GLint, Enum, UInt8, GLint, UnsafeRawPointer?) -> Void
  let enableVertexAttribArray: @convention(c) (GLuint) -> Void
  let vertexAttribDivisor: @convention(c) (GLuint, GLuint) -> Void
  let drawArraysInstanced: @convention(c) (Enum, GLint, GLint, GLint) -> Void
  let blendFuncSeparate: @convention(c) (Enum, Enum, Enum, Enum) -> Void
  let blendEquationSeparate: @convention(c) (Enum, Enum) -> Void
  let viewport: @convention(c) (GLint, GLint, GLint, GLint) -> Void
  let scissor: @convention(c) (GLint, GLint, GLint, GLint) -> Void
  let colorMask: @convention(c) (UInt8, UInt8, UInt8, UInt8) -> Void
  let genTextures: @convention(c) (GLint, UnsafeMutablePointer<GLuint>?) -> Void
  let bindTexture: @convention(c) (Enum, GLuint) -> Void
  let deleteTextures: @convention(c) (GLint, UnsafePointer<GLuint>?) -> Void
  let activeTexture: @convention(c) (Enum) -> Void
  let texParameteri: @convention(c) (Enum, Enum, GLint) -> Void
  let texImage2D:
    @convention(c) (Enum, GLint, GLint, GLint, GLint, GLint, Enum, Enum, UnsafeRawPointer?) -> Void
  let texSubImage2D:
    @convention(c) (Enum, GLint, GLint, GLint, GLint, GLint, Enum, Enum, UnsafeRawPointer?) -> Void
  let pixelStorei: @convention(c) (Enum, GLint) -> Void
  let bindSampler: @convention(c) (GLuint, GLuint) -> Void

  /// Every entry point, or nil when the context lacks one (a GL before 3.3, GLES before 3.0).
  init?() {
    struct Missing: Error {}
    func load<F>(_ name: String) throws(Missing) -> F {
      guard let p = SDL_GL_GetProcAddress(name) else { throw Missing() }
      return unsafeBitCast(p, to: F.self)
    }
    do throws(Missing) {
      getString = try load("glGetString")
      getIntegerv = try load("glGetIntegerv")
      getError = try load("glGetError")
      isEnabled = try load("glIsEnabled")
      enable = try load("glEnable")
      disable = try load("glDisable")
      createShader = try load("glCreateShader")
      shaderSource = try load("glShaderSource")
      compileShader = try load("glCompileShader")
      getShaderiv = try load("glGetShaderiv")
      getShaderInfoLog = try load("glGetShaderInfoLog")
      deleteShader = try load("glDeleteShader")
      createProgram = try load("glCreateProgram")
      attachShader = try load("glAttachShader")
      bindAttribLocation = try load("glBindAttribLocation")
      linkProgram = try load("glLinkProgram")
      getProgramiv = try load("glGetProgramiv")
      getProgramInfoLog = try load("glGetProgramInfoLog")
      deleteProgram = try load("glDeleteProgram")
      useProgram = try load("glUseProgram")
      getUniformLocation = try load("glGetUniformLocation")
      uniform1i = try load("glUniform1i")
      uniform2f = try load("glUniform2f")
      genVertexArrays = try load("glGenVertexArrays")
      bindVertexArray = try load("glBindVertexArray")
      deleteVertexArrays = try load("glDeleteVertexArrays")
      genBuffers = try load("glGenBuffers")
      bindBuffer = try load("glBindBuffer")
      bufferData = try load("glBufferData")
      bufferSubData = try load("glBufferSubData")
      deleteBuffers = try load("glDeleteBuffers")
      vertexAttribPointer = try load("glVertexAttribPointer")
      enableVertexAttribArray = try load("glEnableVertexAttribArray")
      vertexAttribDivisor = try load("glVertexAttribDivisor")
      drawArraysInstanced = try load("glDrawArraysInstanced")
      blendFuncSeparate = try load("glBlendFuncSeparate")
      blendEquationSeparate = try load("glBlendEquationSeparate")
      viewport = try load("glViewport")
      scissor = try load("glScissor")
      colorMask = try load("glColorMask")
      genTextures = try load("glGenTextures")
      bindTexture = try load("glBindTexture")
      deleteTextures = try load("glDeleteTextures")
      activeTexture = try load("glActiveTexture")
      texParameteri = try load("glTexParameteri")
      texImage2D = try load("glTexImage2D")
      texSubImage2D = try load("glTexSubImage2D")
      pixelStorei = try load("glPixelStorei")
      bindSampler = try load("glBindSampler")
    } catch {
      return nil
    }
  }

  /// `glGetString(name)`, or "" when the context gives none.
  func string(_ name: Enum) -> String {
    getString(name).map { String(cString: $0) } ?? ""
  }

  /// `glGetIntegerv(name)` for a value of up to four integers (no allocation: a draw reads
  /// a dozen).
  func integers(_ name: Enum) -> SIMD4<Int32> {
    var v = SIMD4<Int32>()
    withUnsafeMutableBytes(of: &v) {
      getIntegerv(name, $0.baseAddress!.assumingMemoryBound(to: Int32.self))
    }
    return v
  }

  /// `glGetIntegerv(name)` for one integer.
  func integer(_ name: Enum) -> Int32 { integers(name)[0] }
}

/// The `GLenum` values used, from the Khronos headers.
enum GL {
  static let renderer: UInt32 = 0x1F01
  static let version: UInt32 = 0x1F02
  static let vertexShader: UInt32 = 0x8B31
  static let fragmentShader: UInt32 = 0x8B30
  static let compileStatus: UInt32 = 0x8B81
  static let linkStatus: UInt32 = 0x8B82
  static let arrayBuffer: UInt32 = 0x8892
  static let staticDraw: UInt32 = 0x88E4
  static let dynamicDraw: UInt32 = 0x88E8
  static let streamDraw: UInt32 = 0x88E0
  static let float: UInt32 = 0x1406
  static let unsignedByte: UInt32 = 0x1401
  static let triangleStrip: UInt32 = 0x0005
  static let blend: UInt32 = 0x0BE2
  static let scissorTest: UInt32 = 0x0C11
  static let depthTest: UInt32 = 0x0B71
  static let stencilTest: UInt32 = 0x0B90
  static let cullFace: UInt32 = 0x0B44
  static let framebufferSRGB: UInt32 = 0x8DB9
  static let one: UInt32 = 1
  static let srcAlpha: UInt32 = 0x0302
  static let oneMinusSrcAlpha: UInt32 = 0x0303
  static let funcAdd: UInt32 = 0x8006
  static let blendSrcRGB: UInt32 = 0x80C9
  static let blendDstRGB: UInt32 = 0x80C8
  static let blendSrcAlpha: UInt32 = 0x80CB
  static let blendDstAlpha: UInt32 = 0x80CA
  static let blendEquationRGB: UInt32 = 0x8009
  static let blendEquationAlpha: UInt32 = 0x883D
  static let viewport: UInt32 = 0x0BA2
  static let scissorBox: UInt32 = 0x0C10
  static let colorWritemask: UInt32 = 0x0C23
  static let currentProgram: UInt32 = 0x8B8D
  static let vertexArrayBinding: UInt32 = 0x85B5
  static let arrayBufferBinding: UInt32 = 0x8894
  static let activeTexture: UInt32 = 0x84E0
  static let texture0: UInt32 = 0x84C0
  static let texture2D: UInt32 = 0x0DE1
  static let textureBinding2D: UInt32 = 0x8069
  static let samplerBinding: UInt32 = 0x8919
  static let unpackAlignment: UInt32 = 0x0CF5
  static let unpackRowLength: UInt32 = 0x0CF2
  static let unpackSkipRows: UInt32 = 0x0CF3
  static let unpackSkipPixels: UInt32 = 0x0CF4
  static let pixelUnpackBuffer: UInt32 = 0x88EC
  static let pixelUnpackBufferBinding: UInt32 = 0x88EF
  static let textureMinFilter: UInt32 = 0x2801
  static let textureMagFilter: UInt32 = 0x2800
  static let textureWrapS: UInt32 = 0x2802
  static let textureWrapT: UInt32 = 0x2803
  static let textureBaseLevel: UInt32 = 0x813C
  static let textureMaxLevel: UInt32 = 0x813D
  static let nearest: Int32 = 0x2600
  static let clampToEdge: Int32 = 0x812F
  static let rg32f: Int32 = 0x8230
  static let rg: UInt32 = 0x8227
  static let maxTextureSize: UInt32 = 0x0D33
  static let drawFramebufferBinding: UInt32 = 0x8CA6
}
