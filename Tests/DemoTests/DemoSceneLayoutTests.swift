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
