/// The system colours the seed's rings use, and the system background, per appearance.
///
/// Values from SPEC "One ring": iOS 13-18 (`light`, `dark`) and iOS 26 (`light26`, `dark26`).
public struct LoaderPalette: Sendable, Hashable {
  /// Red, orange, yellow, green, blue.
  public var ringColors: [RGBAColor]
  /// The system background the rings are shown on.
  public var background: RGBAColor

  /// A palette of your own: ring `i` takes `ringColors[i % count]`.
  /// - Parameters:
  ///   - ringColors: the rings' colours, ring 0 first, cycled when there are fewer colours
  ///     than rings; at least one for a style to validate.
  ///   - background: the colour the rings are meant to be shown on.
  public init(ringColors: [RGBAColor], background: RGBAColor) {
    self.ringColors = ringColors
    self.background = background
  }

  /// iOS 13 to 18, light appearance: the system colours on white.
  public static let light = LoaderPalette(
    ringColors: [0xFF3B30, 0xFF9500, 0xFFCC00, 0x34C759, 0x007AFF].map(RGBAColor.init(hex:)),
    background: RGBAColor(hex: 0xFFFFFF))
  /// iOS 13 to 18, dark appearance: the system colours on black.
  public static let dark = LoaderPalette(
    ringColors: [0xFF453A, 0xFF9F0A, 0xFFD60A, 0x30D158, 0x0A84FF].map(RGBAColor.init(hex:)),
    background: RGBAColor(hex: 0x000000))
  /// iOS 26, light appearance.
  public static let light26 = LoaderPalette(
    ringColors: [0xFF383C, 0xFF8D28, 0xFFCC00, 0x34C759, 0x0088FF].map(RGBAColor.init(hex:)),
    background: RGBAColor(hex: 0xFFFFFF))
  /// iOS 26, dark appearance.
  public static let dark26 = LoaderPalette(
    ringColors: [0xFF4245, 0xFF9230, 0xFFD600, 0x30D158, 0x0091FF].map(RGBAColor.init(hex:)),
    background: RGBAColor(hex: 0x000000))
}

/// The appearances a user can pick by name (`--theme`).
package enum LoaderTheme: String, Sendable, CaseIterable {
  case light, dark, light26, dark26

  package var palette: LoaderPalette {
    switch self {
    case .light: .light
    case .dark: .dark
    case .light26: .light26
    case .dark26: .dark26
    }
  }
}
