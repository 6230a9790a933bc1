import LoaderSDL
import SwiftLoaderCanvas
import SwiftLoaderSupport

extension OffscreenCanvas {
  /// The canvas as a PNG at `path`, through the one output writer.
  func savePNG(to path: String) throws {
    try OutputFile.write(pngData(), to: path)
  }
}
