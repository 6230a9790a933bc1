/// How rings become pixels on an SDL renderer (LoaderSDL). Every backend draws the same
/// picture (within 30 dB of Cairo's and of each other's) under every render state; they differ
/// in cost per renderer. A draw into a `PixelBuffer` always uses the `spans` kernel.
///
/// `LoaderRenderer` keeps one of each in use per renderer, with its caches shared by every
/// view drawing there; LoaderSDL's `preferred(for:)` picks the one that views asking for none use there.
/// The raw values name the backends in settings and command lines:
/// `RingBackend(rawValue: "spans")`.
public enum RingBackend: String, CaseIterable, Sendable {
  /// SDL2_gfx: on an accelerated renderer the ring painted once, at twice its size, into one
  /// texture, every ring an upright square sampling it turned back by the ring's angle (one
  /// `SDL_RenderGeometry` call a draw); on SDL's software renderer each rotation phase painted
  /// once into a texture atlas, one tinted copy a ring. The default on accelerated renderers.
  case gfx
  /// Precomputed coverage masks blended span by span in Swift into the target's pixels. The
  /// default on SDL's software renderer.
  case spans
  /// Every dash tessellated, with an antialiasing fringe, into one `SDL_RenderGeometry` call
  /// per frame: for GPU renderers; SDL's software renderer rounds its vertices to whole
  /// pixels, which costs it the quality bar.
  case geometry

  /// The choice behind `preferred(for:)`, the cheapest backend in a host's frame as
  /// `host/<renderer>/<backend>` measures it (the Performance article has the figures):
  /// - SDL's software renderer: `spans`, which blends its coverage masks straight into the
  ///   pixels (`geometry` misses the quality bar there: the software renderer rounds vertices
  ///   to whole pixels);
  /// - an accelerated renderer: `gfx`, one upright square a ring over one texture a shape, where
  ///   `spans` uploads the rings' box every frame and `geometry` sends thousands of triangles a
  ///   ring.
  package static func preferred(accelerated: Bool) -> RingBackend {
    accelerated ? .gfx : .spans
  }

  /// The next backend in declaration order (a window's "switch backend" key).
  package var next: RingBackend {
    let all = RingBackend.allCases
    let i = all.firstIndex(of: self) ?? all.startIndex
    let j = all.index(after: i)
    return j == all.endIndex ? all[all.startIndex] : all[j]
  }
}
