import CSwiftLoaderCairo
import Foundation
import LoaderCore
import SwiftLoaderSupport

/// An independent renderer for the seed's rings: Cairo strokes each ring straight from the
/// style (centreline radius, line width, cap, dash array and phase), without the project's own
/// `DashedRing` geometry, so comparing against it tests that geometry too.
///
/// One ring is, in Cairo's words (user space = output pixels, y down):
/// ```
/// cairo_translate(cx, cy); cairo_rotate(angle * pi / 180)     // clockwise on screen
/// cairo_new_path(); cairo_arc(0, 0, r * density, 0, 2 pi)      // starts at 3 o'clock
/// cairo_set_dash(pattern * density, phase * density)
/// cairo_set_line_cap(ROUND or BUTT); cairo_set_line_width(lineWidth * density)
/// cairo_set_source_rgba(colour, alpha); cairo_stroke()          // OVER, straight alpha
/// ```
/// An arc from 0 to 2 pi is an open path whose ends meet: Cairo dashes it from its start and
/// does not join its ends, which is exactly SPEC's seam (the last 0.51-long dash ends at
/// 3 o'clock and the first starts afresh there, each with its own round cap).
///
/// Test and bench only: the product never links Cairo.
package final class CairoRingRenderer {
  /// Surface size in pixels.
  package let width: Int
  package let height: Int
  private let surface: OpaquePointer
  private let context: OpaquePointer

  /// A size outside `1...16384`, or a Cairo call that failed.
  package enum Error: Swift.Error, Sendable, CustomStringConvertible {
    case badSize(width: Int, height: Int)
    case cairo(String)
    package var description: String {
      switch self {
      case .badSize(let w, let h): "Cairo surface size \(w)x\(h) is outside 1...16384"
      case .cairo(let s): "Cairo failed: \(s)"
      }
    }
  }

  /// Cairo's own flattening tolerance, pixels: arcs become lines within this of the curve.
  package static let defaultTolerance = 0.1
  /// A tolerance fine enough for rings a few pixels wide, whose arcs at Cairo's default
  /// tolerance visibly stray from the curve.
  package static let fineTolerance = 0.01

  /// An ARGB32 image surface of `width` x `height` pixels, reused for every frame, whose arcs
  /// are flattened to within `tolerance` pixels (`cairo_set_tolerance`; the peer the bench
  /// times keeps Cairo's default, the tests of small rings ask for `fineTolerance`).
  package init(width: Int, height: Int, tolerance: Double = defaultTolerance) throws(Error) {
    guard width > 0, height > 0, width <= 16384, height <= 16384 else {
      throw .badSize(width: width, height: height)
    }
    guard let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
    else { throw .cairo("cairo_image_surface_create") }
    let status = cairo_surface_status(s)
    guard status == CAIRO_STATUS_SUCCESS else {
      cairo_surface_destroy(s)
      throw .cairo(String(cString: cairo_status_to_string(status)))
    }
    guard let c = cairo_create(s) else {
      cairo_surface_destroy(s)
      throw .cairo("cairo_create")
    }
    cairo_set_tolerance(c, tolerance)
    self.width = width
    self.height = height
    surface = s
    context = c
  }

  deinit {
    cairo_destroy(context)
    cairo_surface_destroy(surface)
  }

  /// Fills the whole surface with `color`, opaque.
  package func clear(_ color: RGBAColor) {
    cairo_save(context)
    cairo_set_operator(context, CAIRO_OPERATOR_SOURCE)
    setSource(color)
    cairo_paint(context)
    cairo_restore(context)
  }

  /// Strokes one ring of `style` at `density` pixels per point, centred at
  /// `(centerX, centerY)` (pixels), turned `angle` degrees clockwise, with the style's cap
  /// (`CAIRO_LINE_CAP_BUTT` is the reference for butt ends), in `color` with its alpha,
  /// blended over what is there: `out = src * a * coverage + dst * (1 - a * coverage)`.
  package func strokeRing(
    style: LoaderStyle, density: Double, centerX: Double, centerY: Double, angle: Double,
    color: RGBAColor
  ) {
    let cr = context
    cairo_save(cr)
    cairo_translate(cr, centerX, centerY)
    cairo_rotate(cr, angle * Double.pi / 180)
    cairo_new_path(cr)
    cairo_arc(cr, 0, 0, style.centerlineRadius * density, 0, 2 * Double.pi)
    let dashes = style.dash.intervals.map { $0 * density }
    dashes.withUnsafeBufferPointer { d in
      cairo_set_dash(cr, d.baseAddress, Int32(d.count), style.dash.phase * density)
    }
    cairo_set_line_cap(cr, style.lineCap == .round ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT)
    cairo_set_line_width(cr, style.lineWidth * density)
    setSource(color)
    cairo_stroke(cr)
    cairo_restore(cr)
  }

  /// Every pixel, row-major, as `0xAARRGGBB` (premultiplied; opaque wherever the frame was
  /// cleared to an opaque colour first).
  package func argbPixels() -> [UInt32] {
    cairo_surface_flush(surface)
    var out = [UInt32](repeating: 0, count: width * height)
    guard let data = cairo_image_surface_get_data(surface) else { return out }
    let stride = Int(cairo_image_surface_get_stride(surface))
    out.withUnsafeMutableBufferPointer { o in
      for y in 0..<height {
        let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
        for x in 0..<width { o[y * width + x] = row[x] }
      }
    }
    return out
  }

  /// The surface encoded by Cairo's own PNG writer, as a file's bytes.
  package func pngData() throws(Error) -> [UInt8] {
    cairo_surface_flush(surface)
    final class Sink { var bytes: [UInt8] = [] }
    let sink = Sink()
    let status = withExtendedLifetime(sink) {
      cairo_surface_write_to_png_stream(
        surface,
        { closure, data, length in
          guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
          let sink = Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue()
          sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
          return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(sink).toOpaque())
    }
    guard status == CAIRO_STATUS_SUCCESS else {
      throw .cairo("PNG: " + String(cString: cairo_status_to_string(status)))
    }
    return sink.bytes
  }

  /// Writes the PNG through `OutputFile` (complete or absent, never half written).
  package func savePNG(to path: String) throws(Error) {
    let bytes = try pngData()
    do {
      try OutputFile.write(bytes, to: path)
    } catch {
      throw .cairo(error.description)
    }
  }

  private func setSource(_ c: RGBAColor) {
    cairo_set_source_rgba(
      context, Double(c.r) / 255, Double(c.g) / 255, Double(c.b) / 255, Double(c.a) / 255)
  }
}
