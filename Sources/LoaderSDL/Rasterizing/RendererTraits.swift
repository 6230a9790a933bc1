import CSwiftLoaderSDL2

/// What a renderer is, from its `SDL_RendererInfo`: read when a `LoaderRenderer` is made and
/// after a reset, never per draw.
package struct RendererTraits: Sendable, Equatable {
  /// SDL's software renderer (the flag or the name `"software"`); true when SDL cannot
  /// describe the renderer (taken for the least capable).
  package var isSoftware: Bool
  /// The largest texture side, pixels; 0 when the renderer reports no limit.
  package var maximumTextureSide: Int
  /// SDL's name for it (`"opengl"`, `"software"`).
  package var name: String

  package init(of renderer: OpaquePointer) {
    var info = SDL_RendererInfo()
    guard SDL_GetRendererInfo(renderer, &info) == 0 else {
      self.init(isSoftware: true, maximumTextureSide: 0, name: "")
      return
    }
    let name = info.name.map { String(cString: $0) } ?? ""
    self.init(
      isSoftware: info.flags & SDL_RENDERER_SOFTWARE.rawValue != 0 || name == "software",
      maximumTextureSide: Int(min(info.max_texture_width, info.max_texture_height)), name: name)
  }

  package init(isSoftware: Bool, maximumTextureSide: Int, name: String) {
    self.isSoftware = isSoftware
    self.maximumTextureSide = maximumTextureSide
    self.name = name
  }
}
