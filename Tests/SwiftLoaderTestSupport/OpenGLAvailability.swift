import LoaderSDL
import SwiftLoaderCanvas

extension OffscreenCanvas {
  /// Whether this process can make an OpenGL canvas (`openGL(width:height:)`: SDL's offscreen
  /// driver with EGL and a GL renderer, Mesa's llvmpipe without a GPU). The condition of every
  /// test that needs one, `@Test(.enabled(if: OffscreenCanvas.openGLAvailable, "no OpenGL
  /// renderer on SDL's offscreen driver here"))`, so that a machine without one shows those
  /// tests skipped, with the reason, rather than passing them without their OpenGL half.
  /// Asked once per process (the first canvas brings up SDL's video when none is up).
  package static let openGLAvailable = (try? OffscreenCanvas.openGL(width: 8, height: 8)) != nil
}
