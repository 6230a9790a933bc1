/// `N` loader rows in a grid that fits a `width x height` container, all visible at once.
///
/// The choice: fit to the window by one uniform shrink factor, `fit`, never above 1 (a few
/// loaders look like the seed; many shrink instead of scrolling).
/// - A loader's natural cell is its row at minimum spacing plus one spacer of air below:
///   `cellW = n * (frame + minimumSpacing)`, `cellH = frame + minimumSpacing` (290 x 58 for
///   the seed), so neighbouring rings are never closer than in the seed's tightest row.
/// - For every column count `c` (rows `r = ceil(N / c)`), the fit is
///   `s(c) = min(1, width / (c * cellW), height / (r * cellH))`; the grid takes the `c` with the
///   largest `s` (the fewest columns on a tie).
/// - The container is cut into `c x r` equal cells, filled row by row. Each cell holds one
///   loader row laid out by `RowLayout` at the cell's size divided by `s`, then scaled by `s`:
///   extra width goes to the spacers as in the seed, extra height centres the row.
/// - A `gutter` `g` in `[0, 1)` then shrinks each loader by `1 - g` about its cell's centre,
///   so a band of `g / 2` of the cell's width and height stays empty on every side and
///   neighbouring loaders are `g` cells apart: `scale = (1 - g) * s(c)`. The column choice
///   does not depend on `g`.
/// With one loader and no gutter the grid is the seed's row exactly (spacers of 28 at width
/// 390).
package struct GridLayout: Sendable, Hashable {
  package enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
    case invalidCount(Int)
    case invalidSize(width: Double, height: Double)
    case invalidStyle(LoaderStyle.Error)
    case invalidGutter(Double)
    package var description: String {
      switch self {
      case .invalidCount(let n): "loader count must be >= 0, got \(n)"
      case .invalidSize(let w, let h): "container must be finite and > 0, got \(w) x \(h)"
      case .invalidStyle(let e): "invalid loader style: \(e)"
      case .invalidGutter(let g): "gutter must be in [0, 1), got \(g)"
      }
    }
  }

  /// One ring's place: centre and frame in container points.
  package struct RingFrame: Sendable, Hashable {
    package var centerX: Double
    package var centerY: Double
    /// Half the frame's side (the frame's inscribed circle), points.
    package var radius: Double
    /// The ring's square frame.
    package var frame: LayoutRect {
      LayoutRect(x: centerX - radius, y: centerY - radius, width: 2 * radius, height: 2 * radius)
    }
  }

  package let count: Int
  /// The container, points.
  package let width: Double
  package let height: Double
  /// The style whose frame size and spacing set the cells.
  package let style: LoaderStyle
  /// Cells per row of the grid, and rows of cells (`columns * rows >= count`).
  package let columns: Int
  package let rows: Int
  /// Fraction of each cell kept empty around its loader (`0` packs them edge to edge).
  package let gutter: Double
  /// The grid's shrink factor: points of the container per point of a loader (`<= 1`), the
  /// gutter's shrink included.
  package let fit: Double

  package init(
    count: Int, width: Double, height: Double, style: LoaderStyle = .seed, gutter: Double = 0
  ) throws(Error) {
    guard count >= 0 else { throw .invalidCount(count) }
    guard gutter >= 0, gutter < 1 else { throw .invalidGutter(gutter) }
    guard width.isFinite, height.isFinite, width > 0, height > 0 else {
      throw .invalidSize(width: width, height: height)
    }
    do { try style.validate() } catch { throw .invalidStyle(error) }
    self.count = count
    self.width = width
    self.height = height
    self.style = style
    self.gutter = gutter
    let cell = Self.naturalCell(style)
    var best = (columns: 1, rows: Swift.max(1, count), fit: -1.0)
    for c in 1...Swift.max(1, count) {
      let r = Swift.max(1, (count + c - 1) / c)
      let s = Swift.min(1, width / (Double(c) * cell.width), height / (Double(r) * cell.height))
      if s > best.fit { best = (c, r, s) }
    }
    columns = best.columns
    rows = best.rows
    fit = best.fit * (1 - gutter)
  }

  static func naturalCell(_ style: LoaderStyle) -> (width: Double, height: Double) {
    let pitch = style.frameSize + style.minimumSpacing
    return (Double(style.ringCount) * pitch, pitch)
  }

  /// Loader `i`'s cell (row `i / columns`, column `i % columns`), in container points.
  package func cell(ofLoader i: Int) -> LayoutRect {
    let w = width / Double(columns)
    let h = height / Double(rows)
    return LayoutRect(x: Double(i % columns) * w, y: Double(i / columns) * h, width: w, height: h)
  }

  /// Loader `i`'s ring frames in container points, ring 0 first.
  ///
  /// The row is laid out at the cell's size over the fit scale `s(c)` (the gutter does not
  /// change the spacing inside a loader), then placed at `scale` with its corner `g / 2` of the
  /// cell in from the cell's corner.
  package func ringFrames(ofLoader i: Int) -> [RingFrame] {
    let cell = cell(ofLoader: i)
    let cellFit = fit / (1 - gutter)
    let x0 = cell.x + cell.width * gutter / 2
    let y0 = cell.y + cell.height * gutter / 2
    return RowLayout.frames(
      width: cell.width / cellFit, height: cell.height / cellFit, style: style
    )
    .map { f in
      RingFrame(
        centerX: x0 + f.midX * fit, centerY: y0 + f.midY * fit, radius: f.width / 2 * fit)
    }
  }
}
