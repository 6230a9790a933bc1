import CSwiftLoaderSDL2
import Foundation
import LoaderCore
import LoaderSDL
import SwiftLoaderCanvas
import SwiftLoaderSupport

/// The renderer `BENCH_RENDERER` asks for: where `raster/<backend>` and `frame/<backend>` draw.
/// SDL's software renderer into a 1920x1080 surface (the default, what every figure of the
/// README comes from), or OpenGL on SDL's offscreen video driver (EGL) into a target texture
/// of that size, with `BENCH_RENDERER=opengl` (what `Benchmarks/gpu.sh` sets): on a machine
/// with a GPU that is the GPU; without one it is Mesa's llvmpipe, a CPU rasterizer on every
/// core. Either is an `OffscreenCanvas`, whose `finish()` ends a timed call with the work done.
enum BenchRenderer: String {
  case software
  case opengl

  /// `BENCH_RENDERER`, `software` when unset; an unknown name is a usage error.
  static func fromEnvironment() throws(UsageError) -> BenchRenderer {
    guard let v = ProcessInfo.processInfo.environment["BENCH_RENDERER"] else { return .software }
    guard let r = BenchRenderer(rawValue: v) else {
      throw UsageError(
        program: "bench", flag: "BENCH_RENDERER",
        problem: "unknown renderer \(ErrorLine.quote(v)) (software or opengl)")
    }
    return r
  }

  func makeCanvas(width: Int, height: Int) throws(SDLError) -> OffscreenCanvas {
    switch self {
    case .software: try OffscreenCanvas(width: width, height: height)
    case .opengl: try .openGL(width: width, height: height)
    }
  }
}
