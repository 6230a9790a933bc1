extension LoaderField {
  /// Where a field's rings sit in a container, in points: every loader occupies one cell of a
  /// `columns`-wide grid and has its rings at the same offsets inside its cell.
  ///
  /// - `.row`: one cell, the whole container, with the rings placed by `RowLayout` (SPEC's
  ///   HStack: spacers of `max(8, (W - 250) / 5)`, centred vertically, never scaled);
  /// - `.fittedRow`: `.row` laid out in the container divided by
  ///   `fit = min(1, W / naturalWidth, H / naturalHeight)`, then scaled by `fit` about the
  ///   container's corner, so the row fills it at most at its natural size;
  /// - `.grid`: `GridLayout` fits `count` loader rows to the container by one uniform scale
  ///   (at most 1), so every loader is visible at once; rings shrink with the scale;
  /// - `.free`: no shared arrangement (each loader is laid out in its own frame,
  ///   `LoaderField.frame(of:)`): no ring offsets, and no loader under any point here (ask
  ///   `LoaderField.loader(at:)`).
  package struct Arrangement: Sendable {
    package let layout: Layout
    package let count: Int
    package let width: Double
    package let height: Double
    package let columns: Int
    package let cellWidth: Double
    package let cellHeight: Double
    /// Loader 0's ring centres, relative to its cell's top-left corner.
    package let ringOffsets: [(x: Double, y: Double)]
    /// Half a ring's frame, points.
    package let ringRadius: Double
    /// The grid's shrink factor, container points per point of a loader (1 for a row): the
    /// rings' shape is `DashedRing(style:)` scaled by this times the density.
    package let fit: Double

    /// `gutter`: `GridLayout`'s, the fraction of each cell kept empty around its loader
    /// (`.grid` only; a row has one loader).
    package init(
      layout: Layout, count: Int, width: Double, height: Double, style: LoaderStyle,
      gutter: Double = 0
    ) throws(GridLayout.Error) {
      self.layout = layout
      self.count = count
      self.width = width
      self.height = height
      switch layout {
      case .row:
        let frames = RowLayout.frames(width: width, height: height, style: style)
        columns = 1
        cellWidth = width
        cellHeight = height
        ringOffsets = frames.map { ($0.midX, $0.midY) }
        ringRadius = style.frameSize / 2
        fit = 1
      case .fittedRow:
        let row = RowLayout.Fitted(width: width, height: height, style: style)
        columns = 1
        cellWidth = width
        cellHeight = height
        ringOffsets = (0..<style.ringCount).map { (row.centerX(ofRing: $0), row.centerY) }
        ringRadius = row.ringRadius
        fit = row.fit
      case .grid:
        let grid = try GridLayout(
          count: count, width: width, height: height, style: style, gutter: gutter)
        let first = count > 0 ? grid.ringFrames(ofLoader: 0) : []
        let cell = grid.cell(ofLoader: 0)
        columns = grid.columns
        cellWidth = cell.width
        cellHeight = cell.height
        // Cell 0 is at the origin, so `cell.x + offset` below is GridLayout's own sum.
        ringOffsets = first.map { ($0.centerX, $0.centerY) }
        ringRadius = first.first?.radius ?? style.frameSize / 2 * grid.fit
        fit = grid.fit
      case .free:
        columns = 1
        cellWidth = width
        cellHeight = height
        ringOffsets = []
        ringRadius = style.frameSize / 2
        fit = 1
      }
    }

    /// Top-left corner of loader `i`'s cell (`GridLayout.cell(ofLoader:)`'s arithmetic; in
    /// `.row` every loader's cell is the container).
    @inline(__always)
    package func origin(ofLoader i: Int) -> (x: Double, y: Double) {
      if layout != .grid { return (0, 0) }
      return (Double(i % columns) * cellWidth, Double(i / columns) * cellHeight)
    }

    /// The loader whose cell holds the point `(x, y)` (container points), if any: a window's
    /// click lookup. A cell covers `[origin, next origin)` on each axis, with the origins
    /// `origin(ofLoader:)` computes, so a point on a boundary belongs to the cell that starts
    /// there. In `.row` it is the first loader, anywhere in the container.
    package func loader(atX x: Double, y: Double) -> Int? {
      guard x >= 0, y >= 0, x < width, y < height, cellWidth > 0, cellHeight > 0, count > 0
      else { return nil }
      if layout == .free { return nil }
      if layout != .grid { return 0 }
      let column = Self.cellIndex(of: x, cellSize: cellWidth)
      let row = Self.cellIndex(of: y, cellSize: cellHeight)
      guard column < columns else { return nil }
      let i = row * columns + column
      return i < count ? i : nil
    }

    /// `k` with `Double(k) * size <= v < Double(k + 1) * size`, `v >= 0`: the quotient,
    /// corrected where rounding put it one off the products `origin(ofLoader:)` uses.
    private static func cellIndex(of v: Double, cellSize size: Double) -> Int {
      let k = Int(v / size)
      if Double(k) * size > v { return k - 1 }
      if Double(k + 1) * size <= v { return k + 1 }
      return k
    }
  }
}
