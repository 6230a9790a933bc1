import CSwiftLoaderSDL2
import LoaderPixels

extension RingBackend {
  /// A new rasterizer of this backend (a `LoaderRenderer` keeps one per backend it draws with).
  package func makeRasterizer() -> any RingRasterizer {
    switch self {
    case .gfx: GfxRingRasterizer()
    case .spans: CoverageSpanRasterizer()
    case .gpu: GPURingRasterizer()
    }
  }

  /// The cheapest backend that meets the quality bar (at least 30 dB against Cairo) for a draw
  /// of `rings` rings on `renderer`, as the package's benchmarks measured (Benchmarks/README.md):
  /// `spans` on SDL's software renderer; `gpu` on SDL's OpenGL renderers on a GPU (with
  /// instanced draws); on a CPU rasterizer behind OpenGL (Mesa's llvmpipe) `gfx` for draws
  /// under 1,000 rings and `spans` from there; on any other accelerated renderer the same from
  /// 25,000 rings.
  ///
  /// On an OpenGL renderer it reads `glGetString` in the renderer's context: SDL's queued
  /// commands are flushed first. A `LoaderRenderer` asks once and keeps the answer.
  /// - Parameters:
  ///   - renderer: an SDL renderer.
  ///   - rings: the rings the draw has (five a loader); the default, 0, asks for small draws.
  /// - Returns: the backend; `spans` when SDL cannot describe the renderer.
  public static func preferred(for renderer: OpaquePointer, rings: Int = 0) -> RingBackend {
    preferred(kind: RendererKind(of: renderer), rings: rings)
  }

  /// `glGetString(GL_RENDERER)` of the current OpenGL context, if there is one (SDL's GL
  /// renderers make theirs current when created).
  package static func currentGLRendererName() -> String? {
    guard SDL_GL_GetCurrentContext() != nil, let proc = SDL_GL_GetProcAddress("glGetString")
    else { return nil }
    typealias GetString = @convention(c) (UInt32) -> UnsafePointer<UInt8>?
    let glGetString = unsafeBitCast(proc, to: GetString.self)
    return glGetString(GL.renderer).map { String(cString: $0) }
  }
}

extension RingBackend.RendererKind {
  /// What `renderer` is (on OpenGL, read in its context: `GPUSupport`).
  package init(of renderer: OpaquePointer) {
    let traits = RendererTraits(of: renderer)
    if traits.isSoftware {
      self = .software
      return
    }
    let gpu = GPUSupport(renderer)
    if !gpu.isOffered {
      self = .otherAccelerated
    } else {
      self = gpu.isSoftwareGL ? .softwareGL : .hardwareGL
    }
  }
}
