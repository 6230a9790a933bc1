import CSwiftLoaderSDL2

/// What SDL says about a render driver or a renderer (`SDL_RendererInfo`), in words: the
/// `--info` report and `--renderer`'s list of names.
package struct RenderDriverInfo: Sendable, Equatable {
  /// SDL's name (`software`, `opengl`, `opengles2`, ...), the one `SDL_HINT_RENDER_DRIVER`
  /// and `LoaderWindow(renderDriver:)` take.
  package var name: String
  /// `SDL_RENDERER_*` flags set, as SDL names them without the prefix (`ACCELERATED`, ...).
  package var flags: [String]
  /// Texture formats, as `SDL_GetPixelFormatName` names them without `SDL_PIXELFORMAT_`.
  package var textureFormats: [String]
  package var maximumTextureWidth: Int
  package var maximumTextureHeight: Int

  package init(_ info: SDL_RendererInfo) {
    name = info.name.map { String(cString: $0) } ?? "unknown"
    let named: [(SDL_RendererFlags, String)] = [
      (SDL_RENDERER_SOFTWARE, "SOFTWARE"), (SDL_RENDERER_ACCELERATED, "ACCELERATED"),
      (SDL_RENDERER_PRESENTVSYNC, "PRESENTVSYNC"), (SDL_RENDERER_TARGETTEXTURE, "TARGETTEXTURE"),
    ]
    flags = named.filter { info.flags & $0.0.rawValue != 0 }.map(\.1)
    let count = min(Int(info.num_texture_formats), 16)
    textureFormats = withUnsafeBytes(of: info.texture_formats) { raw in
      raw.bindMemory(to: UInt32.self).prefix(count).map { format in
        let full = String(cString: SDL_GetPixelFormatName(format))
        return full.hasPrefix("SDL_PIXELFORMAT_") ? String(full.dropFirst(16)) : full
      }
    }
    maximumTextureWidth = Int(info.max_texture_width)
    maximumTextureHeight = Int(info.max_texture_height)
  }

  /// Every render driver this SDL was built with, in SDL's order of preference. Needs no
  /// `SDL_Init`: the list is compiled into SDL.
  package static var available: [RenderDriverInfo] {
    let n = max(0, Int(SDL_GetNumRenderDrivers()))
    return (0..<n).compactMap { i in
      var info = SDL_RendererInfo()
      return SDL_GetRenderDriverInfo(Int32(i), &info) == 0 ? RenderDriverInfo(info) : nil
    }
  }

  /// The renderer's own info (its driver, and the flags it was created with).
  package static func of(renderer: OpaquePointer) -> RenderDriverInfo? {
    var info = SDL_RendererInfo()
    return SDL_GetRendererInfo(renderer, &info) == 0 ? RenderDriverInfo(info) : nil
  }

  /// One line: `opengl: ACCELERATED, TARGETTEXTURE; max texture 8192x8192; formats ARGB8888, ...`
  /// (SDL reports 0 for a driver not yet created, or one with no limit).
  package var summary: String {
    let limit =
      maximumTextureWidth > 0
      ? "max texture \(maximumTextureWidth)x\(maximumTextureHeight)" : "no texture size limit known"
    return "\(name): \(flags.isEmpty ? "no flags" : flags.joined(separator: ", ")); \(limit)"
      + "; formats \(textureFormats.isEmpty ? "none" : textureFormats.joined(separator: ", "))"
  }
}
