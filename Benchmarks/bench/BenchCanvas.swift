import CSDL2
import Foundation
import LoaderCore
import LoaderSDL
import LoaderSupport

/// Where `raster/<backend>` and `frame/<backend>` draw: SDL's software renderer into a
/// 1920x1080 surface (the default, what every figure of the README comes from), or OpenGL on
/// SDL's offscreen video driver (EGL) into a target texture of that size, with
/// `BENCH_RENDERER=opengl` (what `Benchmarks/gpu.sh` sets): on a machine with a GPU that is
/// the GPU; without one it is Mesa's llvmpipe, a CPU rasterizer on every core.
protocol BenchCanvas: AnyObject {
  var renderer: OpaquePointer { get }
  /// The loaders' side of `renderer` (on the software canvas, with the surface a CPU backend
  /// blends into directly).
  var loaders: LoaderRenderer { get }
  func clear(_ color: RGBAColor)
  /// Returns once everything drawn so far is in the pixels, so a timed call ends with the
  /// work done (software: the render queue flushed; OpenGL: a one-pixel read back).
  func finish() throws(SDLError)
  func argbPixels() throws(SDLError) -> [UInt32]
}

extension OffscreenCanvas: BenchCanvas {
  func finish() { flush() }
}

extension OpenGLTarget: BenchCanvas {
  var loaders: LoaderRenderer { canvas.loaders }
}

/// The renderer `BENCH_RENDERER` asks for.
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

  func makeCanvas(width: Int, height: Int) throws(SDLError) -> any BenchCanvas {
    switch self {
    case .software: try OffscreenCanvas(width: width, height: height)
    case .opengl: try OpenGLTarget(width: width, height: height)
    }
  }
}
