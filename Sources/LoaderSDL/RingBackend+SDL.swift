import CSwiftLoaderSDL2
import LoaderPixels

extension RingBackend {
  /// A new rasterizer of this backend (a `LoaderRenderer` keeps one per backend it draws with).
  package func makeRasterizer() -> any RingRasterizer {
    switch self {
    case .gfx: GfxRingRasterizer()
    case .spans: CoverageSpanRasterizer()
    case .geometry: GeometryRingRasterizer()
    }
  }

  /// The cheapest backend that meets the quality bar (at least 30 dB against Cairo) on
  /// `renderer`, read from its `SDL_RendererInfo`: `spans` on SDL's software renderer, `gfx`
  /// on an accelerated one, as the package's benchmarks measured (Benchmarks/README.md).
  /// - Parameter renderer: an SDL renderer.
  /// - Returns: the backend; `spans` when SDL cannot describe the renderer.
  public static func preferred(for renderer: OpaquePointer) -> RingBackend {
    preferred(accelerated: !RendererTraits(of: renderer).isSoftware)
  }

  /// `glGetString(GL_RENDERER)` of the current OpenGL context, if there is one (SDL's GL
  /// renderers make theirs current when created).
  package static func currentGLRendererName() -> String? {
    guard SDL_GL_GetCurrentContext() != nil, let proc = SDL_GL_GetProcAddress("glGetString")
    else { return nil }
    typealias GetString = @convention(c) (UInt32) -> UnsafePointer<UInt8>?
    let glGetString = unsafeBitCast(proc, to: GetString.self)
    let glRenderer: UInt32 = 0x1F01
    return glGetString(glRenderer).map { String(cString: $0) }
  }
}
