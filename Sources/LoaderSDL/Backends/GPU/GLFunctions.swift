internal import CSwiftLoaderGL
import CSwiftLoaderSDL2

/// A context's `GL_VERSION`, parsed: `"4.5 (Core Profile) Mesa 22.3.6"`, `"OpenGL ES 3.2 Mesa"`.
struct GLVersion: Equatable, CustomStringConvertible {
  let major: Int
  let minor: Int
  let openGLES: Bool
  /// The string as the context gave it.
  let description: String

  init(_ string: String) {
    description = string
    openGLES = string.hasPrefix("OpenGL ES")
    let numbers = string.split(whereSeparator: { !"0123456789.".contains($0) }).first {
      $0.contains(".")
    }
    let parts = (numbers ?? "").split(separator: ".").compactMap { Int($0) }
    major = parts.count >= 2 ? parts[0] : 0
    minor = parts.count >= 2 ? parts[1] : 0
  }

  /// Whether the version is `major.minor` or later.
  func isAtLeast(_ major: Int, _ minor: Int) -> Bool {
    (self.major, self.minor) >= (major, minor)
  }

  /// Whether its core has every entry point the `gpu` backend calls: instanced draws with
  /// per-instance attributes, `texelFetch`, samplers (OpenGL 3.3, OpenGL ES 3.0).
  var runsTheBackend: Bool { openGLES ? isAtLeast(3, 0) : isAtLeast(3, 3) }
}

/// The OpenGL (ES) entry points the `gpu` backend calls, typed by the Khronos header
/// (`CSwiftLoaderGL`) and loaded through `SDL_GL_GetProcAddress` from the library SDL's
/// renderer already loaded: no link dependency of our own. One table per context, loaded while
/// it is current.
///
/// A pointer proves nothing: on GLX `SDL_GL_GetProcAddress` returns a dispatch stub for any
/// name. So the table is loaded only for a context whose `GL_VERSION` says its core has every
/// entry point (`GLVersion.runsTheBackend`), and the one optional entry point,
/// `glGetGraphicsResetStatus`, only where the version (OpenGL 4.5, OpenGL ES 3.2) or a
/// robustness extension offers it.
struct GLFunctions {
  let getString: PFNGLGETSTRINGPROC
  let getIntegerv: PFNGLGETINTEGERVPROC
  let getError: PFNGLGETERRORPROC
  let isEnabled: PFNGLISENABLEDPROC
  let enable: PFNGLENABLEPROC
  let disable: PFNGLDISABLEPROC
  let createShader: PFNGLCREATESHADERPROC
  let shaderSource: PFNGLSHADERSOURCEPROC
  let compileShader: PFNGLCOMPILESHADERPROC
  let getShaderiv: PFNGLGETSHADERIVPROC
  let getShaderInfoLog: PFNGLGETSHADERINFOLOGPROC
  let deleteShader: PFNGLDELETESHADERPROC
  let createProgram: PFNGLCREATEPROGRAMPROC
  let attachShader: PFNGLATTACHSHADERPROC
  let bindAttribLocation: PFNGLBINDATTRIBLOCATIONPROC
  let linkProgram: PFNGLLINKPROGRAMPROC
  let getProgramiv: PFNGLGETPROGRAMIVPROC
  let getProgramInfoLog: PFNGLGETPROGRAMINFOLOGPROC
  let deleteProgram: PFNGLDELETEPROGRAMPROC
  let useProgram: PFNGLUSEPROGRAMPROC
  let getUniformLocation: PFNGLGETUNIFORMLOCATIONPROC
  let uniform1i: PFNGLUNIFORM1IPROC
  let uniform2f: PFNGLUNIFORM2FPROC
  let genVertexArrays: PFNGLGENVERTEXARRAYSPROC
  let bindVertexArray: PFNGLBINDVERTEXARRAYPROC
  let deleteVertexArrays: PFNGLDELETEVERTEXARRAYSPROC
  let genBuffers: PFNGLGENBUFFERSPROC
  let bindBuffer: PFNGLBINDBUFFERPROC
  let bufferData: PFNGLBUFFERDATAPROC
  let bufferSubData: PFNGLBUFFERSUBDATAPROC
  let deleteBuffers: PFNGLDELETEBUFFERSPROC
  let vertexAttribPointer: PFNGLVERTEXATTRIBPOINTERPROC
  let enableVertexAttribArray: PFNGLENABLEVERTEXATTRIBARRAYPROC
  let vertexAttribDivisor: PFNGLVERTEXATTRIBDIVISORPROC
  let drawArraysInstanced: PFNGLDRAWARRAYSINSTANCEDPROC
  let blendFuncSeparate: PFNGLBLENDFUNCSEPARATEPROC
  let blendEquationSeparate: PFNGLBLENDEQUATIONSEPARATEPROC
  let viewport: PFNGLVIEWPORTPROC
  let scissor: PFNGLSCISSORPROC
  let colorMask: PFNGLCOLORMASKPROC
  let genTextures: PFNGLGENTEXTURESPROC
  let bindTexture: PFNGLBINDTEXTUREPROC
  let deleteTextures: PFNGLDELETETEXTURESPROC
  let activeTexture: PFNGLACTIVETEXTUREPROC
  let texParameteri: PFNGLTEXPARAMETERIPROC
  let texImage2D: PFNGLTEXIMAGE2DPROC
  let texSubImage2D: PFNGLTEXSUBIMAGE2DPROC
  let pixelStorei: PFNGLPIXELSTOREIPROC
  let bindSampler: PFNGLBINDSAMPLERPROC
  let genFramebuffers: PFNGLGENFRAMEBUFFERSPROC
  let bindFramebuffer: PFNGLBINDFRAMEBUFFERPROC
  let framebufferTexture2D: PFNGLFRAMEBUFFERTEXTURE2DPROC
  let checkFramebufferStatus: PFNGLCHECKFRAMEBUFFERSTATUSPROC
  let deleteFramebuffers: PFNGLDELETEFRAMEBUFFERSPROC
  let readPixels: PFNGLREADPIXELSPROC
  let getStringi: PFNGLGETSTRINGIPROC
  /// `glGetGraphicsResetStatus` (or its extension's), where the context offers it.
  let getGraphicsResetStatus: PFNGLGETGRAPHICSRESETSTATUSPROC?
  /// The context's version, read when the table was loaded.
  let version: GLVersion

  /// The table for the current context, or nil when its version lacks an entry point.
  init?() {
    guard let version = Self.currentVersion(), version.runsTheBackend else { return nil }
    struct Missing: Error {}
    func load<F>(_ name: String) throws(Missing) -> F {
      guard let f: F = Self.load(name) else { throw Missing() }
      return f
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
      genFramebuffers = try load("glGenFramebuffers")
      bindFramebuffer = try load("glBindFramebuffer")
      framebufferTexture2D = try load("glFramebufferTexture2D")
      checkFramebufferStatus = try load("glCheckFramebufferStatus")
      deleteFramebuffers = try load("glDeleteFramebuffers")
      readPixels = try load("glReadPixels")
      getStringi = try load("glGetStringi")
    } catch {
      return nil
    }
    self.version = version
    getGraphicsResetStatus = Self.resetStatusFunction(
      version: version, getIntegerv: getIntegerv, getStringi: getStringi)
  }

  /// The one loader of GL entry points: `name` in the current context, typed as `F`.
  static func load<F>(_ name: String) -> F? {
    SDL_GL_GetProcAddress(name).map { unsafeBitCast($0, to: F.self) }
  }

  /// `glGetString(name)` of the current context, read before a table is loaded (nil with no
  /// context current).
  static func currentString(_ name: Int32) -> String? {
    guard SDL_GL_GetCurrentContext() != nil,
      let getString: PFNGLGETSTRINGPROC = load("glGetString")
    else { return nil }
    return getString(GLenum(name)).map { String(cString: $0) }
  }

  /// The current context's `GL_VERSION`.
  static func currentVersion() -> GLVersion? {
    currentString(GL_VERSION).map(GLVersion.init)
  }

  /// `glGetGraphicsResetStatus` where the context offers it: core in OpenGL 4.5 and OpenGL ES
  /// 3.2, else `GL_KHR_robustness`, `GL_ARB_robustness` or `GL_EXT_robustness`.
  private static func resetStatusFunction(
    version: GLVersion, getIntegerv: PFNGLGETINTEGERVPROC,
    getStringi: PFNGLGETSTRINGIPROC
  ) -> PFNGLGETGRAPHICSRESETSTATUSPROC? {
    if version.openGLES ? version.isAtLeast(3, 2) : version.isAtLeast(4, 5) {
      return load("glGetGraphicsResetStatus")
    }
    var count: GLint = 0
    getIntegerv(GLenum(GL_NUM_EXTENSIONS), &count)
    var offered: Set<String> = []
    for i in 0..<max(0, count) {
      if let s = getStringi(GLenum(GL_EXTENSIONS), GLuint(i)) { offered.insert(String(cString: s)) }
    }
    let suffix = version.openGLES ? "KHR" : ""
    for (extensionName, function) in [
      ("GL_KHR_robustness", "glGetGraphicsResetStatus" + suffix),
      ("GL_ARB_robustness", "glGetGraphicsResetStatusARB"),
      ("GL_EXT_robustness", "glGetGraphicsResetStatusEXT"),
    ] where offered.contains(extensionName) {
      return load(function)
    }
    return nil
  }

  /// `glGetString(name)`, or "" when the context gives none.
  func string(_ name: Int32) -> String {
    getString(GLenum(name)).map { String(cString: $0) } ?? ""
  }

  /// `glGetIntegerv(name)` for a value of up to four integers (no allocation).
  func integers(_ name: Int32) -> SIMD4<Int32> {
    var v = SIMD4<Int32>()
    withUnsafeMutableBytes(of: &v) {
      getIntegerv(GLenum(name), $0.baseAddress!.assumingMemoryBound(to: GLint.self))
    }
    return v
  }

  /// `glGetIntegerv(name)` for one integer.
  func integer(_ name: Int32) -> Int32 { integers(name)[0] }

  /// The errors GL has recorded since the last call, oldest first (`glGetError` until it says
  /// none; at most 8, as a lost context may report its loss on every call).
  func errors() -> [GLenum] {
    var found: [GLenum] = []
    while found.count < 8 {
      let e = getError()
      if e == GLenum(GL_NO_ERROR) { break }
      found.append(e)
    }
    return found
  }

  /// GL's name for an error code (`GL_INVALID_ENUM`), or its hexadecimal value.
  static func name(ofError code: GLenum) -> String {
    switch Int32(code) {
    case GL_INVALID_ENUM: "GL_INVALID_ENUM"
    case GL_INVALID_VALUE: "GL_INVALID_VALUE"
    case GL_INVALID_OPERATION: "GL_INVALID_OPERATION"
    case GL_INVALID_FRAMEBUFFER_OPERATION: "GL_INVALID_FRAMEBUFFER_OPERATION"
    case GL_OUT_OF_MEMORY: "GL_OUT_OF_MEMORY"
    case GL_STACK_OVERFLOW: "GL_STACK_OVERFLOW"
    case GL_STACK_UNDERFLOW: "GL_STACK_UNDERFLOW"
    case GL_CONTEXT_LOST: "GL_CONTEXT_LOST"
    default: "GL error 0x" + String(code, radix: 16)
    }
  }
}
