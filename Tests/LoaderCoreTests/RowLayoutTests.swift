import Testing

@testable import LoaderCore

@Suite struct RowLayoutTests {
  @Test func phoneWidthRow() {
    let f = RowLayout.frames(width: 390, height: 120)
    #expect(f.map(\.x) == [28, 106, 184, 262, 340])
    #expect(f.allSatisfy { $0.y == 35 && $0.width == 50 && $0.height == 50 })
    #expect(f.last.map { $0.x + $0.width } == 390)
  }

  @Test func narrowRowsKeepMinimumSpacersAndCentre() {
    for w in [0.0, 100, 289, 290] {
      let f = RowLayout.frames(width: w, height: 50)
      #expect(f[1].x - f[0].x == 58)
      let left = f[0].x - 8
      let right = w - (f[4].x + 50)
      #expect(abs(left - right) < 1e-9)
    }
  }

  @Test func wideRows() {
    for w in [290.0, 500, 1000] {
      let f = RowLayout.frames(width: w, height: 50)
      let spacer = (w - 250) / 5
      for i in 0..<5 { #expect(abs(f[i].x - (Double(i + 1) * spacer + 50 * Double(i))) < 1e-9) }
    }
  }
}
