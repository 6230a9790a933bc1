/// An 8-bit-per-channel sRGB colour, straight (not premultiplied) alpha.
public struct RGBAColor: Sendable, Hashable, CustomStringConvertible {
  /// Red, 0 to 255.
  public var r: UInt8
  /// Green, 0 to 255.
  public var g: UInt8
  /// Blue, 0 to 255.
  public var b: UInt8
  /// Opacity, 0 (transparent) to 255 (opaque), not multiplied into the other channels.
  public var a: UInt8

  /// A colour of these channels, opaque unless `a` says otherwise.
  /// - Parameters:
  ///   - r: red, 0 to 255.
  ///   - g: green, 0 to 255.
  ///   - b: blue, 0 to 255.
  ///   - a: opacity, 0 (transparent) to 255 (opaque, the default), straight alpha.
  public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
    self.r = r
    self.g = g
    self.b = b
    self.a = a
  }

  /// An opaque colour from its hex code, as design tools write it: `RGBAColor(hex: 0xFF3B30)`.
  /// - Parameter hex: `0xRRGGBB`; bits above the low 24 are ignored.
  public init(hex: UInt32) {
    self.init(
      r: UInt8((hex >> 16) & 0xFF), g: UInt8((hex >> 8) & 0xFF), b: UInt8(hex & 0xFF))
  }

  /// `#RRGGBB` or `RRGGBB`; nil for anything else.
  package init?(hexString: String) {
    var s = Substring(hexString)
    if s.hasPrefix("#") { s = s.dropFirst() }
    // All six must be hex digits: `UInt32(_:radix:)` alone would take a sign ("+FFFFF").
    guard s.count == 6, s.allSatisfy(\.isHexDigit), let v = UInt32(s, radix: 16) else {
      return nil
    }
    self.init(hex: v)
  }

  /// `#RRGGBB`, upper case (alpha is not shown).
  public var description: String {
    let hex = (UInt32(r) << 16) | (UInt32(g) << 8) | UInt32(b)
    let digits = String(hex, radix: 16, uppercase: true)
    return "#" + String(repeating: "0", count: 6 - digits.count) + digits
  }
}
