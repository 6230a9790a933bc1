import CSwiftLoaderSDL2TTF
import Foundation

/// Finds the HUD's font file: DejaVu Sans Mono (Debian's fonts-dejavu-core) through
/// fontconfig, else at Debian's standard path.
enum HUDFont {
  static let family = "DejaVu Sans Mono"
  static let standardPath = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"

  struct Missing: Error, CustomStringConvertible {
    var description: String {
      "demo: HUD: no font: '\(HUDFont.family)' is known neither to fontconfig nor at "
        + "\(HUDFont.standardPath) (install fonts-dejavu-core, or run with --hud off)"
    }
  }

  /// The file fontconfig matches for the family, if it is that family (fontconfig always
  /// answers with some font; another one would read differently), else the standard path.
  static func locate() throws(Missing) -> String {
    if let path = fontconfigMatch(), FileManager.default.isReadableFile(atPath: path) {
      return path
    }
    guard FileManager.default.isReadableFile(atPath: standardPath) else { throw Missing() }
    return standardPath
  }

  private static func fontconfigMatch() -> String? {
    guard let config = FcInitLoadConfigAndFonts() else { return nil }
    defer { FcConfigDestroy(config) }
    guard let pattern = FcNameParse(family) else { return nil }
    defer { FcPatternDestroy(pattern) }
    FcConfigSubstitute(config, pattern, FcMatchPattern)
    FcDefaultSubstitute(pattern)
    var result = FcResultNoMatch
    guard let match = FcFontMatch(config, pattern, &result) else { return nil }
    defer { FcPatternDestroy(match) }
    var family: UnsafeMutablePointer<FcChar8>?
    var file: UnsafeMutablePointer<FcChar8>?
    guard FcPatternGetString(match, "family", 0, &family) == FcResultMatch,
      FcPatternGetString(match, "file", 0, &file) == FcResultMatch, let family, let file
    else { return nil }
    let name = String(cString: family)
    guard name == Self.family else { return nil }
    return String(cString: file)
  }
}
