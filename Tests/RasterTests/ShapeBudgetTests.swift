import LoaderCore
import SwiftLoaderCanvas
import Testing

@testable import LoaderSDL

/// The renderer's one byte budget (`ShapeStore`): past it, the shapes a draw does not use go,
/// least recently drawn first, whatever their backend; the shapes a draw uses stay (each cache
/// bounded by its own share), so a frame over the budget is not rebuilt every draw.
@Suite struct ShapeBudgetTests {
  static let seed = DashedRing(style: .seed)
  static let ring = [
    RingInstance(centerX: 60, centerY: 60, angle: 30, color: RGBAColor(hex: 0xFF3B30))
  ]

  /// A budget smaller than one shape's caches: drawing that shape again and again lets
  /// nothing go.
  @Test func theShapesOfTheDrawKeepTheirCaches() throws {
    let canvas = try OffscreenCanvas(width: 120, height: 120)
    let loaders = LoaderRenderer(canvas.renderer, surface: canvas.surface, budgetBytes: 1)
    for backend in RingBackend.allCases {
      for _ in 0..<4 {
        try loaders.draw(Self.ring, shape: Self.seed, with: loaders.rasterizer(backend))
      }
    }
    #expect(loaders.shapes.evictedBytes == 0)
    #expect(loaders.cachedBytes > 0)
  }

  /// Over the budget, shapes the draw does not use go, least recently drawn first, the
  /// caches of every backend counted together (the gfx atlas's textures and its painter's
  /// surface too): what stays is the most recently drawn, within the budget.
  @Test func shapesTheDrawDoesNotUseGoLeastRecentFirst() throws {
    let canvas = try OffscreenCanvas(width: 120, height: 120)
    let loaders = LoaderRenderer(canvas.renderer, surface: canvas.surface, budgetBytes: 1)
    let gfx = try loaders.rasterizer(.gfx)
    let spans = try loaders.rasterizer(.spans)
    let shapes = (0..<12).map { Self.seed.scaled(by: 1 + Double($0) / 4) }
    for (k, shape) in shapes.enumerated() {
      try loaders.draw(Self.ring, shape: shape, with: k % 2 == 0 ? gfx : spans)
      let store = loaders.shapes
      #expect(store.bytes <= loaders.budgetBytes || store.heldShapes == [shape], "draw \(k)")
    }
    let atlas = try #require(loaders.cache(of: shapes[10], drawnWith: gfx) as? GfxAtlas)
    #expect(atlas.bytes > atlas.textureBytes, "the painter's surface counts")
    let held = Set(loaders.shapes.heldShapes)
    #expect(loaders.shapes.evictedBytes > 0)
    #expect(held == Set(shapes.suffix(held.count)), "the most recently drawn stay")
    #expect(held.count < shapes.count && held.contains(shapes[11]))
  }
}
