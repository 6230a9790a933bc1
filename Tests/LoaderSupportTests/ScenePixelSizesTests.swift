import LoaderCore
import SwiftLoaderHarness
import Testing

/// The derived pixel sizes every backend is promised: each limit accepted at its edge and
/// refused just past it, and every non-finite or absurd input refused, never trapping.
@Suite struct ScenePixelSizesTests {
  @Test func seedRowAtDensities() throws {
    for density in [1.0, 2, 3, 10.24] {
      let s = try ScenePixelSizes(width: 390, height: 120, density: density, style: .seed)
      #expect(s.width == Int((390 * density).rounded()))
      #expect(s.height == Int((120 * density).rounded()))
      #expect(s.ringRadius == 25 * density)
      #expect(s.cellWidth == 390 * density && s.cellHeight == 120 * density)
    }
  }

  @Test func ringRadiusLimitIsExact() throws {
    // 25 pt rings: 10.24 is 256 px exactly, the next representable density is past it.
    #expect(throws: Never.self) {
      try ScenePixelSizes(width: 390, height: 120, density: 10.24, style: .seed)
    }
    let past = (10.24).nextUp
    #expect(
      throws: ScenePixelSizes.Error.ringRadius(
        25 * past, frameSize: 50, fit: 1, density: past)
    ) {
      try ScenePixelSizes(width: 390, height: 120, density: past, style: .seed)
    }
    // Sizes that once trapped a backend (0x1.1p-1026 is the denormal 3e-309).
    for (w, h, d) in [
      (390.0, 120.0, 23.0), (1, 1, 16384), (0.01, 0.01, 100), (0x1.1p-1026, 0x1.1p-1026, 1.7e308),
      (1e-300, 1e-300, 1e300),
    ] {
      #expect(throws: ScenePixelSizes.Error.self, "\(w)x\(h) at \(d)") {
        try ScenePixelSizes(width: w, height: h, density: d, style: .seed)
      }
    }
  }

  @Test func frameSideLimits() throws {
    let max = Double(ScenePixelSizes.maximumSide)
    let s = try ScenePixelSizes(width: max, height: 1, density: 1, style: .seed)
    #expect(s.width == ScenePixelSizes.maximumSide && s.height == 1)
    for (w, h) in [(max + 1, 100.0), (100, max + 1), (0.4, 100), (100, 0.4), (1e19, 1e19)] {
      #expect(throws: ScenePixelSizes.Error.frame(width: w, height: h)) {
        try ScenePixelSizes(width: w, height: h, density: 1, style: .seed)
      }
    }
    for bad in [Double.nan, .infinity, -.infinity, -1, 0] {
      #expect(throws: ScenePixelSizes.Error.self) {
        try ScenePixelSizes(width: bad, height: 100, density: 1, style: .seed)
      }
      do {
        _ = try ScenePixelSizes(width: 100, height: 100, density: bad, style: .seed)
        Issue.record("density \(bad) accepted")
      } catch {
        guard case .density = error else {
          Issue.record("density \(bad): \(error)")
          continue
        }
      }
    }
  }

  @Test func gridRingsShrinkWithTheFit() throws {
    for count in [1, 2, 10, 1000, 1_000_000] {
      let grid = try GridLayout(count: count, width: 1280, height: 720)
      let s = try ScenePixelSizes(
        width: 1280, height: 720, density: 2, style: .seed, gridCount: count)
      #expect(s.ringRadius == 25 * grid.fit * 2, "\(count)")
      #expect(s.cellWidth == 1280 / Double(grid.columns) * 2)
      #expect(s.cellHeight == 720 / Double(grid.rows) * 2)
    }
    // A grid of one at density 10.25 is over the radius limit like the row; a grid of four
    // in the same container fits (each loader is scaled down).
    #expect(throws: ScenePixelSizes.Error.self) {
      try ScenePixelSizes(width: 390, height: 120, density: 10.25, style: .seed, gridCount: 1)
    }
    #expect(throws: Never.self) {
      try ScenePixelSizes(width: 390, height: 120, density: 10.25, style: .seed, gridCount: 4)
    }
    // A million loaders in one pixel: rings far below the smallest radius drawn.
    #expect(throws: ScenePixelSizes.Error.self) {
      try ScenePixelSizes(width: 1, height: 1, density: 1e-3, style: .seed, gridCount: 1_000_000)
    }
  }

  @Test func anInvalidStyleIsRefusedFirst() throws {
    var style = LoaderStyle.seed
    style.lineWidth = 30
    #expect(throws: ScenePixelSizes.Error.self) {
      try ScenePixelSizes(width: 390, height: 120, density: 1, style: style)
    }
    // The largest style frame is refused by the pixel limit, not trapped on.
    style = .seed
    style.frameSize = LoaderStyle.maximumFrameSize
    #expect(throws: ScenePixelSizes.Error.self) {
      try ScenePixelSizes(width: 390, height: 120, density: 1, style: style)
    }
  }
}

/// `LoaderStyle.validate()`'s limits, each at its edge.
@Suite struct LoaderStyleLimitTests {
  static func valid(_ change: (inout LoaderStyle) -> Void) -> Bool {
    var s = LoaderStyle.seed
    change(&s)
    return (try? s.validate()) != nil
  }

  @Test func limits() {
    #expect(Self.valid { $0.ringCount = LoaderStyle.maximumRingCount })
    #expect(!Self.valid { $0.ringCount = LoaderStyle.maximumRingCount + 1 })
    #expect(!Self.valid { $0.ringCount = 0 })
    #expect(Self.valid { $0.colors = Array(repeating: RGBAColor(hex: 0), count: 1024) })
    #expect(!Self.valid { $0.colors = Array(repeating: RGBAColor(hex: 0), count: 1025) })
    #expect(!Self.valid { $0.colors = [] })
    #expect(Self.valid { $0.lineWidth = 25 })
    #expect(!Self.valid { $0.lineWidth = 25.000001 })
    for field in [\LoaderStyle.turnDuration, \LoaderStyle.stagger] {
      #expect(Self.valid { $0[keyPath: field] = LoaderStyle.minimumDuration })
      #expect(Self.valid { $0[keyPath: field] = LoaderStyle.maximumDuration })
      for bad in [0.000999, 86_400.001, 0, -1, .nan, .infinity, 1e-300] {
        #expect(!Self.valid { $0[keyPath: field] = bad }, "\(field) = \(bad)")
      }
    }
  }

  @Test func reasonsGiveTheValueAndTheLimit() {
    var s = LoaderStyle.seed
    s.stagger = 1e-6
    #expect(
      throws: LoaderStyle.Error.invalid(
        field: "stagger", reason: "must be 0.001...86400 seconds, got 1e-06")
    ) {
      try s.validate()
    }
    s = .seed
    s.lineWidth = 26
    #expect(
      throws: LoaderStyle.Error.invalid(
        field: "lineWidth",
        reason: "must be finite, > 0 and <= half the frame size (25.0), got 26.0")
    ) { try s.validate() }
  }
}
