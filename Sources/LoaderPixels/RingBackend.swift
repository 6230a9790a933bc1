/// How rings become pixels on an SDL renderer (LoaderSDL). Every backend draws the same
/// picture (within 30 dB of Cairo's and of each other's) under every render state; they differ
/// in cost per renderer. A draw into a `PixelBuffer` always uses the `spans` kernel.
///
/// `LoaderRenderer` keeps one of each in use per renderer, with its caches shared by every
/// view drawing there, and picks the one that views asking for none use there (LoaderSDL's
/// `LoaderRenderer.defaultBackend(rings:)`).
/// The raw values name the backends in settings and command lines:
/// `RingBackend(rawValue: "spans")`.
public enum RingBackend: String, CaseIterable, Sendable {
  /// SDL2_gfx: on an accelerated renderer the ring painted once, at twice its size, into one
  /// texture, every ring an upright square sampling it turned back by the ring's angle (one
  /// `SDL_RenderGeometry` call a draw); on SDL's software renderer each rotation phase painted
  /// once into a texture atlas, one tinted copy a ring. The default for small draws on
  /// accelerated renderers that do not draw with `gpu`.
  case gfx
  /// Precomputed coverage masks blended span by span in Swift into the target's pixels. The
  /// default on SDL's software renderer, and for large draws where `gpu` is not drawn with.
  case spans
  /// The GPU computes every pixel's coverage: one instanced OpenGL draw call a frame, a quad
  /// per ring from a small record (centre, radius, angle, colour, its shape's dashes and caps).
  /// Offered on SDL's `opengl` renderer (OpenGL 3.3 or later) and `opengles2` renderer (OpenGL
  /// ES 3.0 or later); asked for anywhere else, a draw throws an `.unsupported` error. The
  /// default on those renderers on a GPU once it has drawn a probe right there.
  case gpu

  /// The next backend in declaration order (a window's "switch backend" key).
  package var next: RingBackend {
    let all = RingBackend.allCases
    let i = all.firstIndex(of: self) ?? all.startIndex
    let j = all.index(after: i)
    return j == all.endIndex ? all[all.startIndex] : all[j]
  }
}
