internal import CSwiftLoaderGL
import CSwiftLoaderSDL2

/// Whether an SDL renderer can run the `gpu` backend, and what draws under it: SDL's
/// `opengl` or `opengles2` renderer on a context whose core has instanced draws (OpenGL 3.3,
/// OpenGL ES 3.0), read with `glGetString` in the renderer's own context. That the backend
/// also draws right there is the probe's to show (`GPURingRasterizer.verify(on:)`).
package struct GPUSupport {
  /// `GL_VERSION`, `GL_RENDERER` ("" off OpenGL).
  package let version: String
  package let glRenderer: String
  /// Whether the renderer is one of SDL's OpenGL renderers.
  package let isOpenGL: Bool
  /// Whether the context is OpenGL ES.
  package let openGLES: Bool
  /// Whether the backend runs here.
  package var isOffered: Bool { functions != nil }
  /// Why not, when it is not: one line, after "the gpu backend".
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
        version: "", glRenderer: "", isOpenGL: false, functions: nil,
        reason: "needs SDL's opengl or opengles2 renderer; this one is \"\(name)\"")
      return
    }
    if !contextIsCurrent { Self.makeContextCurrent(renderer) }
    guard let version = GLFunctions.currentVersion() else {
      self.init(
        version: "", glRenderer: "", isOpenGL: true, functions: nil,
        reason: "found no current GL context on SDL's \(name) renderer")
      return
    }
    let gl = GLFunctions()
    self.init(
      version: version.description, glRenderer: GLFunctions.currentString(GL_RENDERER) ?? "",
      isOpenGL: true, functions: gl,
      reason: gl != nil
        ? ""
        : "needs OpenGL 3.3 or OpenGL ES 3.0; the context is \(version)")
  }

  private init(
    version: String, glRenderer: String, isOpenGL: Bool, functions: GLFunctions?, reason: String
  ) {
    self.version = version
    self.glRenderer = glRenderer
    self.isOpenGL = isOpenGL
    self.openGLES = functions?.version.openGLES ?? version.hasPrefix("OpenGL ES")
    self.functions = functions
    self.reason = reason
  }

  /// Whether `GL_RENDERER` names a rasterizer that runs on the CPU: Mesa's llvmpipe and
  /// softpipe (and zink or lavapipe over them), SwiftShader, WSL2's Microsoft Basic Render
  /// Driver: a GPU backend there costs CPU time like the others, so the default leaves it out.
  package var isSoftwareGL: Bool { Self.isSoftwareRasterizer(glRenderer) }

  /// Whether a `GL_RENDERER` string names a CPU rasterizer (`isSoftwareGL`).
  package static func isSoftwareRasterizer(_ glRenderer: String) -> Bool {
    let r = glRenderer.lowercased()
    return [
      "llvmpipe", "softpipe", "lavapipe", "swiftshader", "software rasterizer",
      "microsoft basic render driver",
    ].contains { r.contains($0) }
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
