/// `N` loader rows in a grid that fits a `width x height` container, all visible at once.
///
/// The choice: fit to the window by one uniform shrink factor, `fit`, never above 1 (a few loaders look like
/// the seed; many shrink instead of scrolling).
/// - A loader's natural cell is its row at minimum spacing plus one spacer of air below:
///   `cellW = n * (frame + minimumSpacing)`, `cellH = frame + minimumSpacing` (290 x 58 for
///   the seed), so neighbouring rings are never closer than in the seed's tightest row.
/// - For every column count `c` (rows `r = ceil(N / c)`), the fit is
///   `s(c) = min(1, width / (c * cellW), height / (r * cellH))`; the grid takes the `c` with the
///   largest `s` (the fewest columns on a tie).
/// - The container is cut into `c x r` equal cells, filled row by row. Each cell holds one
///   loader row laid out by `RowLayout` at the cell's size divided by `s`, then scaled by `s`:
///   extra width goes to the spacers as in the seed, extra height centres the row.
/// With one loader the grid is the seed's row exactly (spacers of 28 at width 390).
public struct GridLayout: Sendable, Hashable {
  public enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
    case invalidCount(Int)
    case invalidSize(width: Double, height: Double)
    case invalidStyle(LoaderStyle.Error)
    public var description: String {
      switch self {
      case .invalidCount(let n): "loader count must be >= 0, got \(n)"
      case .invalidSize(let w, let h): "container must be finite and > 0, got \(w) x \(h)"
      case .invalidStyle(let e): "invalid loader style: \(e)"
      }
    }
  }

  /// One ring's place: centre and frame in container points.
  public struct RingFrame: Sendable, Hashable {
    public var centerX: Double
    public var centerY: Double
    /// Half the frame's side (the frame's inscribed circle), points.
    public var radius: Double
    /// The ring's square frame.
    public var frame: LayoutRect {
      LayoutRect(x: centerX - radius, y: centerY - radius, width: 2 * radius, height: 2 * radius)
    }
  }

  /// Loaders laid out.
  public let count: Int
  /// The container, points.
  public let width: Double
  public let height: Double
  /// The style whose frame size and spacing set the cells.
  public let style: LoaderStyle
  /// Cells per row of the grid, and rows of cells (`columns * rows >= count`).
  public let columns: Int
  public let rows: Int
  /// The grid's shrink factor: points of the container per point of a loader (`<= 1`).
  public let fit: Double

  public init(count: Int, width: Double, height: Double, style: LoaderStyle = .seed) throws(Error) {
    guard count >= 0 else { throw .invalidCount(count) }
    guard width.isFinite, height.isFinite, width > 0, height > 0 else {
      throw .invalidSize(width: width, height: height)
    }
    do { try style.validate() } catch { throw .invalidStyle(error) }
    self.count = count
    self.width = width
    self.height = height
    self.style = style
    let cell = Self.naturalCell(style)
    var best = (columns: 1, rows: Swift.max(1, count), fit: -1.0)
    for c in 1...Swift.max(1, count) {
      let r = Swift.max(1, (count + c - 1) / c)
      let s = Swift.min(1, width / (Double(c) * cell.width), height / (Double(r) * cell.height))
      if s > best.fit { best = (c, r, s) }
    }
    columns = best.columns
    rows = best.rows
    fit = best.fit
  }

  static func naturalCell(_ style: LoaderStyle) -> (width: Double, height: Double) {
    let pitch = style.frameSize + style.minimumSpacing
    return (Double(style.ringCount) * pitch, pitch)
  }

  /// Loader `i`'s cell (row `i / columns`, column `i % columns`), in container points.
  public func cell(ofLoader i: Int) -> LayoutRect {
    let w = width / Double(columns)
    let h = height / Double(rows)
    return LayoutRect(x: Double(i % columns) * w, y: Double(i / columns) * h, width: w, height: h)
  }

  /// Loader `i`'s ring frames in container points, ring 0 first.
  public func ringFrames(ofLoader i: Int) -> [RingFrame] {
    let cell = cell(ofLoader: i)
    return RowLayout.frames(width: cell.width / fit, height: cell.height / fit, style: style)
      .map { f in
        RingFrame(
          centerX: cell.x + f.midX * fit, centerY: cell.y + f.midY * fit,
          radius: f.width / 2 * fit)
      }
  }
}
