/// How rings become pixels on an SDL renderer (LoaderSDL). Every backend draws the same
/// picture (within 30 dB of Cairo's and of each other's) under every render state; they differ
/// in cost per renderer. A draw into a `PixelBuffer` always uses the `spans` kernel.
///
/// `LoaderRenderer` keeps one of each in use per renderer, with its caches shared by every
/// view drawing there; LoaderSDL's `preferred(for:rings:)` picks the one that views asking for none use there.
/// The raw values name the backends in settings and command lines:
/// `RingBackend(rawValue: "spans")`.
public enum RingBackend: String, CaseIterable, Sendable {
  /// SDL2_gfx: on an accelerated renderer the ring painted once, at twice its size, into one
  /// texture, every ring an upright square sampling it turned back by the ring's angle (one
  /// `SDL_RenderGeometry` call a draw); on SDL's software renderer each rotation phase painted
  /// once into a texture atlas, one tinted copy a ring. The default for draws of fewer than
  /// `spansFromRings(on:)` rings on accelerated renderers that `gpu` is not chosen for.
  case gfx
  /// Precomputed coverage masks blended span by span in Swift into the target's pixels. The
  /// default on SDL's software renderer, and for larger draws where `gfx` is the default.
  case spans
  /// The GPU computes every pixel's coverage: one instanced OpenGL draw call a frame, a quad
  /// per ring from a small record (centre, radius, angle, colour, its shape's dashes and caps).
  /// Offered on SDL's `opengl` renderer (OpenGL 3.3 or later) and `opengles2` renderer (OpenGL
  /// ES 3.0 or later); asked for anywhere else, a draw throws an `.unsupported` error.
  case gpu

  /// What a renderer is, for the choice of a backend: SDL's software renderer; an OpenGL
  /// renderer that offers `gpu`, on a GPU or on a CPU rasterizer (Mesa's llvmpipe and
  /// softpipe, SwiftShader); or any other accelerated renderer (Direct3D, Metal, an OpenGL
  /// context without instanced draws), where `gpu` is not offered.
  package enum RendererKind: String, Sendable, CaseIterable {
    case software
    case softwareGL
    case hardwareGL
    case otherAccelerated
  }

  /// Rings in a draw from which `spans` beats `gfx` where `gpu` is not offered (see
  /// `preferred(kind:rings:)`): 1,000 on a CPU rasterizer behind OpenGL, 25,000 on any other
  /// accelerated renderer, taken for a GPU.
  package static func spansFromRings(on kind: RendererKind) -> Int {
    kind == .softwareGL ? 1_000 : 25_000
  }

  /// The choice behind `preferred(for:rings:)`: the cheapest backend for a draw of `rings` rings on a
  /// renderer of `kind`, as `frame/<backend>` measures it on each (Benchmarks/README.md, the
  /// Performance article):
  /// - SDL's software renderer: `spans`, which blends its coverage masks straight into the
  ///   pixels, at every count;
  /// - OpenGL on a GPU: `gpu`, whose CPU work is one record a ring and whose pixels the GPU
  ///   computes;
  /// - OpenGL on a CPU rasterizer (llvmpipe): `gfx` (one upright square a ring over one
  ///   texture a shape) below 1,000 rings, `spans` from there, where a square a ring costs the
  ///   rasterizer more than one upload of the rings' box. `gpu` is never chosen there: a CPU
  ///   rasterizer runs its vertex pipeline once per instance;
  /// - any other accelerated renderer (taken for a GPU): `gfx` below 25,000 rings and `spans`
  ///   from there, where the CPU's vertex work for `gfx` passes one upload.
  ///
  /// Benchmarks/README.md has the timings behind both thresholds.
  package static func preferred(kind: RendererKind, rings: Int) -> RingBackend {
    switch kind {
    case .software: .spans
    case .hardwareGL: .gpu
    case .softwareGL, .otherAccelerated: rings < spansFromRings(on: kind) ? .gfx : .spans
    }
  }

  /// The next backend in declaration order (a window's "switch backend" key).
  package var next: RingBackend {
    let all = RingBackend.allCases
    let i = all.firstIndex(of: self) ?? all.startIndex
    let j = all.index(after: i)
    return j == all.endIndex ? all[all.startIndex] : all[j]
  }
}
