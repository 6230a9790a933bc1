import CSwiftLoaderSDL2

/// Whether an SDL renderer can run the `gpu` backend, and what draws under it: SDL's
/// `opengl` or `opengles2` renderer on a context with instanced draws (OpenGL 3.3, OpenGL ES
/// 3.0), read with `glGetString` in the renderer's own context.
package struct GPUSupport {
  /// `GL_VERSION`, `GL_RENDERER` ("" off OpenGL).
  package let version: String
  package let glRenderer: String
  /// Whether the context is OpenGL ES.
  package let openGLES: Bool
  /// Whether the backend runs here.
  package let isOffered: Bool
  /// Why not, when it is not: one line.
  package let reason: String
  let functions: GLFunctions?

  /// What `renderer` offers. Unless `contextIsCurrent`, SDL is first made to make its
  /// context current (`makeContextCurrent(_:)`).
  package init(_ renderer: OpaquePointer, contextIsCurrent: Bool = false) {
    var info = SDL_RendererInfo()
    let name =
      SDL_GetRendererInfo(renderer, &info) == 0 ? info.name.map { String(cString: $0) } ?? "" : ""
    guard name == "opengl" || name == "opengles2" else {
      self.init(
        version: "", glRenderer: "", openGLES: false, functions: nil,
        reason: "needs SDL's opengl or opengles2 renderer; this one is \"\(name)\"")
      return
    }
    if !contextIsCurrent { Self.makeContextCurrent(renderer) }
    guard SDL_GL_GetCurrentContext() != nil, let gl = GLFunctions() else {
      self.init(
        version: "", glRenderer: "", openGLES: false, functions: nil,
        reason: "the \(name) renderer's context lacks instanced draws (OpenGL 3.3, OpenGL ES 3.0)")
      return
    }
    let version = gl.string(GL.version)
    let es = version.hasPrefix("OpenGL ES")
    let offered = GPURingProgram.header(version: version) != nil
    self.init(
      version: version, glRenderer: gl.string(GL.renderer), openGLES: es,
      functions: offered ? gl : nil,
      reason: offered
        ? "" : "needs OpenGL 3.3 or OpenGL ES 3.0 for instanced draws; the context is \(version)")
  }

  private init(
    version: String, glRenderer: String, openGLES: Bool, functions: GLFunctions?, reason: String
  ) {
    self.version = version
    self.glRenderer = glRenderer
    self.openGLES = openGLES
    self.functions = functions
    self.isOffered = functions != nil
    self.reason = reason
  }

  /// Whether `GL_RENDERER` names a rasterizer that runs on the CPU (Mesa's llvmpipe and
  /// softpipe, SwiftShader): a GPU backend there costs CPU time like the others.
  package var isSoftwareGL: Bool {
    let r = glRenderer.lowercased()
    return r.contains("llvmpipe") || r.contains("softpipe") || r.contains("swiftshader")
      || r.contains("software rasterizer")
  }

  /// Makes SDL make `renderer`'s GL context current, whatever context this thread had: the
  /// host's queued commands are flushed, and a fill of zero area (no pixel) is queued and
  /// flushed, which SDL runs in its own context. SDL2 has no call that returns the context,
  /// and an empty flush does nothing.
  package static func makeContextCurrent(_ renderer: OpaquePointer) {
    SDL_RenderFlush(renderer)
    var nothing = SDL_FRect(x: 0, y: 0, w: 0, h: 0)
    SDL_RenderFillRectF(renderer, &nothing)
    SDL_RenderFlush(renderer)
  }
}
