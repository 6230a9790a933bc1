/// A caller's pixels the loaders draw into, with no SDL renderer: a Cairo image surface, a
/// raylib or GTK texture's bytes, a framebuffer, a PNG in the making
/// (`LoaderView.draw(into:in:at:cache:)`, `LoaderField.draw(into:in:at:cache:)`).
///
/// Pixel `(x, y)` is the 4 bytes at `base + y * bytesPerRow + x * 4`, in `format`'s order. A
/// point of a frame is `density` pixels, as on a renderer whose scale is `density`; `clip`
/// limits the pixels a draw may change. The buffer is the caller's: a draw reads and writes it
/// while it runs and keeps no pointer to it afterwards.
public struct PixelBuffer {
  /// The byte order and alpha of each pixel.
  public enum Format: Sendable, Hashable, CaseIterable {
    /// Bytes B, G, R, A (the 32-bit word `0xAARRGGBB` on a little-endian machine),
    /// premultiplied: Cairo's `ARGB32`, SDL's `ARGB8888`.
    case bgraPremultiplied
    /// Bytes R, G, B, A, straight alpha: raylib's `R8G8B8A8`, GDK's `R8G8B8A8`.
    case rgbaStraight
    /// Bytes R, G, B, A, premultiplied: GDK's `R8G8B8A8_PREMULTIPLIED`.
    case rgbaPremultiplied
  }

  /// A rectangle of pixels: `x ..< x + width` by `y ..< y + height`.
  public struct Rect: Sendable, Hashable {
    /// The first column.
    public var x: Int
    /// The first row.
    public var y: Int
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int

    /// The pixels from `(x, y)`, `width` by `height`.
    public init(x: Int, y: Int, width: Int, height: Int) {
      self.x = x
      self.y = y
      self.width = width
      self.height = height
    }
  }

  /// The first byte of pixel `(0, 0)`: 4-byte aligned.
  public var base: UnsafeMutableRawPointer?
  /// Pixels a row.
  public var width: Int
  /// Rows.
  public var height: Int
  /// Bytes from one row to the next: at least `4 * width`, a multiple of 4.
  public var bytesPerRow: Int
  /// The pixels' byte order and alpha.
  public var format: Format
  /// Pixels per point: finite and > 0.
  public var density: Double
  /// The pixels a draw may change (cut to the buffer); nil for the whole buffer.
  public var clip: Rect?
  /// The bytes at `base`, when known (`init(bytes:width:height:bytesPerRow:format:density:clip:)`):
  /// every draw checks that `height` rows of `bytesPerRow` fit in them.
  public private(set) var byteCount: Int?

  /// A buffer; nothing is checked until a draw (which throws for a bad one).
  /// - Parameters:
  ///   - base: the first byte of pixel `(0, 0)`.
  ///   - width: pixels a row.
  ///   - height: rows.
  ///   - bytesPerRow: bytes from one row to the next.
  ///   - format: the pixels' byte order and alpha.
  ///   - density: pixels per point (default 1).
  ///   - clip: the pixels a draw may change (default: all).
  public init(
    base: UnsafeMutableRawPointer?, width: Int, height: Int, bytesPerRow: Int, format: Format,
    density: Double = 1, clip: Rect? = nil
  ) {
    self.base = base
    self.width = width
    self.height = height
    self.bytesPerRow = bytesPerRow
    self.format = format
    self.density = density
    self.clip = clip
  }

  /// A buffer over `bytes`, checked now: a buffer that holds fewer bytes than `height` rows
  /// of `bytesPerRow` (the last row `4 * width`) need, a null or misaligned base, or a bad
  /// size or density is refused (a `LoaderField.Error` whose reason is `.buffer`), and every
  /// later draw checks its rows still fit.
  /// ```swift
  /// var pixels = [UInt8](repeating: 0, count: 390 * 120 * 4)
  /// try pixels.withUnsafeMutableBytes { bytes in
  ///   let buffer = try PixelBuffer(bytes: bytes, width: 390, height: 120, format: .rgbaStraight)
  ///   try view.draw(into: buffer, in: LoaderRect(x: 0, y: 0, width: 390, height: 120), at: now)
  /// }
  /// ```
  /// - Parameters:
  ///   - bytes: the pixels' memory, pixel `(0, 0)` first.
  ///   - width: pixels a row.
  ///   - height: rows.
  ///   - bytesPerRow: bytes from one row to the next (default `4 * width`, rows packed).
  ///   - format: the pixels' byte order and alpha.
  ///   - density: pixels per point (default 1).
  ///   - clip: the pixels a draw may change (default: all).
  /// - Throws: `LoaderField.Error` naming what is wrong.
  public init(
    bytes: UnsafeMutableRawBufferPointer, width: Int, height: Int, bytesPerRow: Int? = nil,
    format: Format, density: Double = 1, clip: Rect? = nil
  ) throws(LoaderField.Error) {
    let (packed, wide) = width.multipliedReportingOverflow(by: 4)
    self.init(
      base: bytes.baseAddress, width: width, height: height,
      bytesPerRow: bytesPerRow ?? (wide ? .max : packed), format: format, density: density,
      clip: clip)
    byteCount = bytes.count
    _ = try checked()
  }

  /// The pixels a draw may change, checked: the base, the pointer and the pixels of the
  /// clipped region (an empty region when the clip misses the buffer).
  func checked() throws(LoaderField.Error) -> (
    base: UnsafeMutableRawPointer, region: PixelRegion
  ) {
    func bad(_ why: String) -> LoaderField.Error { .invalidBuffer(why) }
    guard let base else { throw bad("its base pointer is null") }
    guard UInt(bitPattern: base) % 4 == 0 else { throw bad("its base is not 4-byte aligned") }
    guard width > 0, height > 0 else { throw bad("its size must be > 0, got \(width)x\(height)") }
    let (rowBytes, wide) = width.multipliedReportingOverflow(by: 4)
    guard !wide, bytesPerRow >= rowBytes else {
      throw bad("a row of \(bytesPerRow) bytes is shorter than \(width) pixels of 4 bytes")
    }
    guard bytesPerRow % 4 == 0 else {
      throw bad("bytesPerRow \(bytesPerRow) is not a multiple of 4")
    }
    let (total, tall) = bytesPerRow.multipliedReportingOverflow(by: height)
    guard !tall, !UInt(bitPattern: base).addingReportingOverflow(UInt(total)).overflow else {
      throw bad("\(height) rows of \(bytesPerRow) bytes overflow the address space")
    }
    if let byteCount {
      // Rows before the last are whole; the last needs its pixels only.
      let (before, o1) = bytesPerRow.multipliedReportingOverflow(by: height - 1)
      let (needed, o2) = before.addingReportingOverflow(rowBytes)
      guard !o1, !o2, needed <= byteCount else {
        throw bad(
          "\(height) rows of \(bytesPerRow) bytes (\(width) pixels) need \(o1 || o2 ? "more" : "\(needed)")"
            + " bytes, the memory holds \(byteCount)")
      }
    }
    guard density.isFinite, density > 0 else {
      throw bad("its density must be finite and > 0, got \(density)")
    }
    // Pixel positions are Int32-safe in every kernel below this size.
    guard width <= 1 << 24, height <= 1 << 24 else {
      throw bad("its size must be at most 16777216 pixels a side, got \(width)x\(height)")
    }
    var x0 = 0
    var y0 = 0
    var x1 = width
    var y1 = height
    if let c = clip {
      x0 = max(x0, c.x)
      y0 = max(y0, c.y)
      let (cx1, o1) = c.x.addingReportingOverflow(max(0, c.width))
      let (cy1, o2) = c.y.addingReportingOverflow(max(0, c.height))
      x1 = o1 ? x1 : min(x1, cx1)
      y1 = o2 ? y1 : min(y1, cy1)
    }
    let region = PixelRegion(
      originX: 0, originY: 0, x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    return (base, region)
  }
}
