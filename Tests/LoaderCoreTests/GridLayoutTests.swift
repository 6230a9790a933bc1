import Testing

@testable import LoaderCore

@Suite struct GridLayoutTests {
  @Test func oneLoaderIsTheSeedRow() throws {
    let g = try GridLayout(count: 1, width: 390, height: 120)
    #expect(g.columns == 1 && g.rows == 1 && g.fit == 1)
    let rings = g.ringFrames(ofLoader: 0)
    #expect(rings.map(\.frame) == RowLayout.frames(width: 390, height: 120))
    #expect(rings.map(\.centerX) == [53, 131, 209, 287, 365])
    #expect(rings.allSatisfy { $0.centerY == 60 && $0.radius == 25 })
  }

  @Test func fewLoadersKeepNativeSize() throws {
    let g = try GridLayout(count: 4, width: 1280, height: 720)
    #expect(g.columns == 1 && g.rows == 4 && g.fit == 1)
    // Cells 1280 x 180; spacers (1280 - 250) / 5 = 206.
    let rings = g.ringFrames(ofLoader: 2)
    #expect(rings.map(\.centerX) == [231, 487, 743, 999, 1255])
    #expect(rings.allSatisfy { $0.centerY == 450 && $0.radius == 25 })
  }

  @Test func manyLoadersShrinkToFit() throws {
    // Six columns of 17 rows: scale min(1280 / (6 * 290), 720 / (17 * 58)) = 720 / 986.
    let g = try GridLayout(count: 100, width: 1280, height: 720)
    #expect(g.columns == 6 && g.rows == 17)
    #expect(abs(g.fit - 720.0 / 986) < 1e-15)
    let first = g.ringFrames(ofLoader: 0)
    let expectedX = [
      24.411088573360377, 67.07775524002705, 109.74442190669372, 152.4110885733604,
      195.07775524002705,
    ]
    for (f, x) in zip(first, expectedX) {
      #expect(abs(f.centerX - x) < 1e-9)
      #expect(abs(f.centerY - 720.0 / 34) < 1e-9)
      #expect(abs(f.radius - 25 * 720.0 / 986) < 1e-12)
    }
    let seventh = g.ringFrames(ofLoader: 7)  // row 1, column 1
    #expect(abs(seventh[0].centerX - (1280.0 / 6 + expectedX[0])) < 1e-9)
    #expect(abs(seventh[0].centerY - 3 * 720.0 / 34) < 1e-9)
  }

  @Test func everyRingIsVisibleAndNoneOverlap() throws {
    for count in [0, 1, 2, 3, 5, 10, 99, 1000, 10_000] {
      for (w, h) in [(1280.0, 720.0), (390, 844), (300, 60)] {
        let g = try GridLayout(count: count, width: w, height: h)
        #expect(g.columns * g.rows >= count && g.fit > 0 && g.fit <= 1)
        for i in stride(from: 0, to: count, by: Swift.max(1, count / 50)) {
          let rings = g.ringFrames(ofLoader: i)
          #expect(rings.count == 5)
          for r in rings {
            #expect(
              r.centerX - r.radius >= -1e-9 && r.centerX + r.radius <= w + 1e-9,
              "\(count) in \(w)x\(h)")
            #expect(r.centerY - r.radius >= -1e-9 && r.centerY + r.radius <= h + 1e-9)
          }
          for (a, b) in zip(rings, rings.dropFirst()) {
            #expect(b.centerX - a.centerX >= 2 * a.radius + 8 * g.fit - 1e-9)
          }
        }
      }
    }
  }

  @Test func badInputIsRejected() {
    #expect(throws: GridLayout.Error.invalidCount(-1)) {
      try GridLayout(count: -1, width: 10, height: 10)
    }
    #expect(throws: GridLayout.Error.invalidSize(width: 0, height: 10)) {
      try GridLayout(count: 1, width: 0, height: 10)
    }
    #expect(throws: GridLayout.Error.self) { try GridLayout(count: 1, width: .nan, height: 10) }
  }

  /// A gutter `g` shrinks each loader by `1 - g` about its cell's centre: same columns, scale
  /// times `1 - g`, every ring `g / 2` of the cell or more inside it; 0 is the packed grid.
  @Test func gutterShrinksEachLoaderAboutItsCellsCentre() throws {
    for count in [1, 2, 7, 60, 2000] {
      let packed = try GridLayout(count: count, width: 1280, height: 720)
      #expect(try GridLayout(count: count, width: 1280, height: 720, gutter: 0) == packed)
      for g in [0.1, 0.25, 0.5] {
        let grid = try GridLayout(count: count, width: 1280, height: 720, gutter: g)
        #expect(grid.columns == packed.columns && grid.rows == packed.rows)
        #expect(abs(grid.fit - packed.fit * (1 - g)) < 1e-12)
        for i in [0, count / 2, count - 1] {
          let cell = grid.cell(ofLoader: i)
          let (cx, cy) = (cell.x + cell.width / 2, cell.y + cell.height / 2)
          for (f, f0) in zip(grid.ringFrames(ofLoader: i), packed.ringFrames(ofLoader: i)) {
            #expect(abs(f.centerX - (cx + (f0.centerX - cx) * (1 - g))) < 1e-9)
            #expect(abs(f.centerY - (cy + (f0.centerY - cy) * (1 - g))) < 1e-9)
            #expect(abs(f.radius - f0.radius * (1 - g)) < 1e-12)
            #expect(f.centerX - f.radius >= cell.x + cell.width * g / 2 - 1e-9)
            #expect(f.centerY + f.radius <= cell.y + cell.height * (1 - g / 2) + 1e-9)
          }
        }
      }
    }
    for bad in [-0.1, 1, .nan, .infinity] {
      #expect(throws: GridLayout.Error.self) {
        try GridLayout(count: 1, width: 10, height: 10, gutter: bad)
      }
    }
  }
}
