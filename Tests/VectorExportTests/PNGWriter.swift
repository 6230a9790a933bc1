import CSwiftLoaderCairo
import Foundation

/// Writes `0xAARRGGBB` pixels (premultiplied, as rlottie and Cairo give them) as a PNG through
/// Cairo, for a person to look at renders (`VECTOR_EXPORT_PNG_DIR`).
func writePNG(_ pixels: [UInt32], width: Int, height: Int, to path: String) {
  var copy = pixels
  copy.withUnsafeMutableBytes { raw in
    guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self),
      let surface = cairo_image_surface_create_for_data(
        base, CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(width * 4))
    else { return }
    cairo_surface_write_to_png(surface, path)
    cairo_surface_destroy(surface)
  }
}
