internal import CSwiftLoaderGL
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

  /// The backend a `LoaderRenderer` made now for `renderer` would draw `rings` rings with by
  /// default (`LoaderRenderer.defaultBackend(rings:)`): on an OpenGL renderer on a GPU that
  /// means compiling the `gpu` backend's shaders and drawing its probe, so prefer asking the
  /// `LoaderRenderer` you draw with, which does that once and keeps the answer.
  /// - Parameters:
  ///   - renderer: an SDL renderer.
  ///   - rings: the rings the draw has (five a loader); the default, 0, asks for small draws.
  /// - Returns: the backend; `spans` when SDL cannot describe the renderer.
  public static func preferred(for renderer: OpaquePointer, rings: Int = 0) -> RingBackend {
    let loaders = LoaderRenderer(renderer)
    defer { loaders.close() }
    return loaders.defaultBackend(rings: rings)
  }

  /// `glGetString(GL_RENDERER)` of the current OpenGL context, if there is one (SDL's GL
  /// renderers make theirs current when created).
  package static func currentGLRendererName() -> String? {
    GLFunctions.currentString(GL_RENDERER)
  }
}

/// What a renderer is, for the default choice of a backend (`LoaderRenderer.defaultBackend`).
package enum RendererKind: String, Sendable, CaseIterable {
  /// SDL's software renderer.
  case software
  /// SDL's OpenGL renderers on a CPU rasterizer (`GPUSupport.isSoftwareRasterizer`) whose
  /// context runs `gpu`.
  case softwareGL
  /// SDL's OpenGL renderers on a GPU whose context runs `gpu`.
  case hardwareGL
  /// Any other accelerated renderer: Direct3D, Metal, an OpenGL context too old for `gpu`.
  case otherAccelerated

  /// What `renderer` is (on OpenGL, read in its context), and a note on why `gpu` is not its
  /// default when that is not plain: an OpenGL context too old for it, a CPU rasterizer.
  package static func of(_ renderer: OpaquePointer) -> (kind: RendererKind, note: String?) {
    if RendererTraits(of: renderer).isSoftware { return (.software, nil) }
    let gpu = GPUSupport(renderer)
    if !gpu.isOffered {
      return (.otherAccelerated, gpu.isOpenGL ? "the gpu backend \(gpu.reason)" : nil)
    }
    if gpu.isSoftwareGL { return (.softwareGL, "\(gpu.glRenderer) rasterizes on the CPU") }
    return (.hardwareGL, nil)
  }

  /// Rings in a draw from which `spans` beats `gfx` where `gpu` is not drawn with: 1,000 on a
  /// CPU rasterizer behind OpenGL, 25,000 on any other accelerated renderer, taken for a GPU
  /// (where the two cross in `frame/gfx` and `frame/spans`, Benchmarks/README.md).
  package var spansFromRings: Int { self == .softwareGL ? 1_000 : 25_000 }

  /// The default backend for a draw of `rings` rings on a renderer of this kind, `gpu` being
  /// trusted there or not (`LoaderRenderer` trusts it once its probe drew right):
  /// - SDL's software renderer: `spans`, which blends its masks straight into the pixels;
  /// - OpenGL on a GPU, `gpu` trusted: `gpu`, whose CPU work is one record a ring;
  /// - OpenGL on a CPU rasterizer (llvmpipe), where `gpu` costs the CPU a vertex pipeline a
  ///   ring, and every other accelerated renderer (or a GPU whose `gpu` failed): `gfx` (one
  ///   upright square a ring over one texture a shape) below `spansFromRings` rings, `spans`
  ///   (one upload of the rings' box) from there.
  package func preferred(rings: Int, gpuTrusted: Bool) -> RingBackend {
    switch self {
    case .software: .spans
    case .hardwareGL where gpuTrusted: .gpu
    case .hardwareGL: RendererKind.otherAccelerated.preferred(rings: rings, gpuTrusted: false)
    case .softwareGL, .otherAccelerated: rings < spansFromRings ? .gfx : .spans
    }
  }
}
