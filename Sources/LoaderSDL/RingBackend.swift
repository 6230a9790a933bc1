import LoaderCore

/// The rasterizers `--backend` can pick, by name.
///
/// Each case makes its `RingRasterizer` for a given renderer, so a backend that keeps
/// textures on the renderer can create them up front.
public enum RingBackend: String, CaseIterable, Sendable {
  /// SDL2_gfx primitives: filled polygons with antialiased outlines.
  case gfx

  /// The backend the demo uses when `--backend` is not given.
  public static let defaultBackend: RingBackend = .gfx

  /// Every name `--backend` accepts, comma-separated, in declaration order.
  public static var namesList: String { allCases.map(\.rawValue).joined(separator: ",") }

  public func makeRasterizer(for renderer: OpaquePointer) throws(SDLError) -> any RingRasterizer {
    switch self {
    case .gfx: GfxRingRasterizer()
    }
  }
}
