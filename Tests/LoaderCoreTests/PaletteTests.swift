import LoaderCore
import Testing

/// SPEC's colour table ("One ring"), the themes that name its columns, and the colour
/// parsing and printing behind them.
@Suite struct PaletteTests {
  /// SPEC's table, column by column: ring 0...4, then the background.
  static let table: [(LoaderTheme, [String], String)] = [
    (.light, ["#FF3B30", "#FF9500", "#FFCC00", "#34C759", "#007AFF"], "#FFFFFF"),
    (.dark, ["#FF453A", "#FF9F0A", "#FFD60A", "#30D158", "#0A84FF"], "#000000"),
    (.light26, ["#FF383C", "#FF8D28", "#FFCC00", "#34C759", "#0088FF"], "#FFFFFF"),
    (.dark26, ["#FF4245", "#FF9230", "#FFD600", "#30D158", "#0091FF"], "#000000"),
  ]

  @Test func everyThemeHasSpecsColours() {
    #expect(Self.table.map(\.0) == LoaderTheme.allCases)
    for (theme, rings, background) in Self.table {
      #expect(theme.palette.ringColors.map(\.description) == rings, "\(theme)")
      #expect(theme.palette.background.description == background, "\(theme)")
      #expect(theme.palette.ringColors.allSatisfy { $0.a == 255 })
    }
  }

  /// `with(palette:)` changes the colours and nothing else; ring `i` takes colour `i mod n`.
  @Test func styleTakesThePalettesColoursInTurn() {
    let dark = LoaderStyle.seed.with(palette: .dark)
    var expected = LoaderStyle.seed
    expected.colors = LoaderPalette.dark.ringColors
    #expect(dark == expected)
    #expect(LoaderStyle.seed.colors == LoaderPalette.light.ringColors)
    for i in 0..<12 {
      #expect(dark.color(ofRing: i) == LoaderPalette.dark.ringColors[i % 5])
    }
  }

  @Test func hexStringsParseAndPrint() {
    for (text, value) in [
      ("#FF3B30", 0xFF3B30), ("ff3b30", 0xFF3B30), ("#000000", 0), ("FFFFFF", 0xFFFFFF),
      ("#0a84Ff", 0x0A84FF),
    ] as [(String, UInt32)] {
      #expect(RGBAColor(hexString: text) == RGBAColor(hex: value), "\(text)")
    }
    for bad in [
      "", "#", "#FFF", "FF3B3", "#FF3B300", "GG0000", "+FFFFF", "-00000", "#+FFFFF", " FFFFF",
    ] {
      #expect(RGBAColor(hexString: bad) == nil, "'\(bad)'")
    }
    for value: UInt32 in [0, 0x0A, 0xA00, 0x0A84FF, 0xFFFFFF] {
      let color = RGBAColor(hex: value)
      #expect(RGBAColor(hexString: color.description) == color)
      #expect(color.description.count == 7)
    }
    // Only the low 24 bits are a colour; it is opaque.
    #expect(RGBAColor(hex: 0x7F12_3456) == RGBAColor(r: 0x12, g: 0x34, b: 0x56, a: 255))
  }
}
