import LoaderCore
import LoaderSDL
import SwiftLoaderCanvas
import SwiftLoaderTestSupport
import Testing

@testable import SwiftLoaderDemo

/// The window's click-to-loader lookup and the layout arithmetic the demo draws with, against
/// `GridLayout` and `RowLayout`; the demo's backend choice.
@Suite struct DemoSceneLayoutTests {
  static let style = LoaderStyle.seed

  @Test func seedRowIsOneLoaderFillingTheContainer() throws {
    let layout = try SceneLayout(layout: .row, count: 1, width: 390, height: 120, style: Self.style)
    for (x, y) in [(0.0, 0.0), (53, 60), (389.99, 119.99), (200, 3)] {
      #expect(layout.loader(atX: x, y: y) == 0, "(\(x), \(y))")
    }
    // Outside the container, the right and bottom edges included (a cell is [x0, x1)).
    for (x, y) in [(-0.01, 60.0), (390, 60), (200, -1), (200, 120), (.infinity, 0), (.nan, 0)] {
      #expect(layout.loader(atX: x, y: y) == nil, "(\(x), \(y))")
    }
    let frames = RowLayout.frames(width: 390, height: 120, style: Self.style)
    #expect(layout.ringOffsets.map(\.x) == frames.map(\.midX))
    #expect(layout.ringOffsets.map(\.y) == frames.map(\.midY))
    #expect(layout.origin(ofLoader: 0) == (0, 0))
  }

  /// Every loader's cell centre, cell corner and ring centres map back to it; the empty cells
  /// after the last loader and points outside the grid map to none.
  @Test(arguments: [1, 2, 3, 5, 7, 10, 64, 1000])
  func gridClicksFindTheLoaderUnderThePointer(count: Int) throws {
    for (width, height) in [(1280.0, 720.0), (390, 120), (300, 900)] {
      let layout = try SceneLayout(
        layout: .grid, count: count, width: width, height: height, style: Self.style)
      let grid = try GridLayout(count: count, width: width, height: height, style: Self.style)
      #expect(layout.columns == grid.columns)
      for i in 0..<count {
        let cell = grid.cell(ofLoader: i)
        let origin = layout.origin(ofLoader: i)
        #expect(origin.x == cell.x && origin.y == cell.y, "loader \(i) origin")
        #expect(layout.loader(atX: cell.midX, y: cell.midY) == i, "loader \(i) centre")
        #expect(layout.loader(atX: cell.x, y: cell.y) == i, "loader \(i) top-left corner")
        for (r, ring) in grid.ringFrames(ofLoader: i).enumerated() {
          #expect(
            layout.loader(atX: ring.centerX, y: ring.centerY) == i, "loader \(i) ring \(r)")
          #expect(abs(origin.x + layout.ringOffsets[r].x - ring.centerX) < 1e-9)
          #expect(abs(origin.y + layout.ringOffsets[r].y - ring.centerY) < 1e-9)
        }
      }
      for i in count..<(grid.columns * grid.rows) {
        let cell = grid.cell(ofLoader: i)
        #expect(layout.loader(atX: cell.midX, y: cell.midY) == nil, "empty cell \(i)")
      }
      #expect(layout.loader(atX: -1, y: 1) == nil)
      #expect(layout.loader(atX: 1, y: -1) == nil)
      #expect(layout.loader(atX: width, y: 1) == nil)
      #expect(layout.loader(atX: 1, y: height) == nil)
    }
  }

  /// The rule of `RingBackend.preferred(kind:rings:)`, as `frame/*` measured: `spans` on
  /// SDL's software renderer at every count; `gpu` on OpenGL on a GPU at every count; on
  /// OpenGL on a CPU rasterizer (llvmpipe) `gfx` below 1,000 rings and `spans` from there, on
  /// other accelerated renderers the same from 25,000 rings.
  @Test func defaultBackendFollowsTheRendererAndTheRingCount() throws {
    #expect(RingBackend.spansFromRings(on: .softwareGL) == 1_000)
    #expect(RingBackend.spansFromRings(on: .otherAccelerated) == 25_000)
    for kind in [RingBackend.RendererKind.softwareGL, .otherAccelerated] {
      let edge = RingBackend.spansFromRings(on: kind)
      for rings in [0, 1, 5, 100, edge - 1, edge, edge + 1, 50_000, 5_000_000] {
        #expect(RingBackend.preferred(kind: .software, rings: rings) == .spans)
        #expect(RingBackend.preferred(kind: .hardwareGL, rings: rings) == .gpu)
        #expect(
          RingBackend.preferred(kind: kind, rings: rings) == (rings < edge ? .gfx : .spans),
          "\(rings) rings, \(kind)")
      }
    }
    let software = try OffscreenCanvas(width: 8, height: 8)
    #expect(software.loaderRenderer.kind == .software)
    #expect(software.loaderRenderer.preferredBackend(rings: 5) == .spans)
    #expect(RingBackend.preferred(for: software.renderer) == .spans)
  }

  /// An OpenGL renderer on Mesa's llvmpipe reads as a CPU rasterizer behind OpenGL (on a GPU,
  /// as a GPU), and a field with no backend set draws each frame with what the rule gives for
  /// its ring count: past `spansFromRings(on:)` rings the choice changes.
  @Test(
    .enabled(
      if: OffscreenCanvas.openGLAvailable, "no OpenGL renderer on SDL's offscreen driver here"))
  func defaultBackendOnOpenGLFollowsTheRingCount() throws {
    let gl = try OffscreenCanvas.openGL(width: 320, height: 240)
    let llvmpipe = (gl.glRendererName ?? "").contains("llvmpipe")
    let kind = gl.loaderRenderer.kind
    #expect(kind == (llvmpipe ? .softwareGL : .hardwareGL), "\(gl.rendererDescription)")
    #expect(RingBackend.preferred(for: gl.renderer, rings: 5) == (llvmpipe ? .gfx : .gpu))
    let field = try LoaderField(style: .seed, layout: .grid)
    var seen: [RingBackend] = []
    let edge = RingBackend.spansFromRings(on: kind)
    for count in [1, 10, edge / 5 - 1, edge / 5] {
      while field.count < count { try field.addLoader(isAnimating: true, at: 0) }
      try field.draw(on: gl.loaderRenderer, at: 0.3)
      let expected = RingBackend.preferred(kind: kind, rings: 5 * count)
      #expect(field.activeBackend == expected, "\(count) loaders")
      seen.append(field.activeBackend ?? .spans)
    }
    if llvmpipe { #expect(seen == [.gfx, .gfx, .gfx, .spans]) }
  }

  /// `B` visits every backend once and comes back.
  @Test func nextCyclesThroughEveryBackend() {
    var seen: [RingBackend] = []
    var b = RingBackend.allCases[0]
    for _ in RingBackend.allCases {
      seen.append(b)
      b = b.next
    }
    #expect(seen == RingBackend.allCases)
    #expect(b == RingBackend.allCases[0])
  }
}
