// The `gpu` backend's check under a fault, in a process of its own: Mesa reads the variables
// that make llvmpipe pose as a GPU (`force_gl_renderer`), replace a shader
// (`MESA_SHADER_READ_PATH`) or lower the context's version (`MESA_GL_VERSION_OVERRIDE`) once,
// when the process first makes a context, so `DefaultBackendTests` sets them for this child.
// Usage: `SwiftLoaderGPUTrustChild FAULT [FRAMES]`, FAULT one of `none`, `shader`
// (a fragment shader the compiler rejects), `probe` (the probe reads back wrong pixels),
// `gl-error` (every draw from the third raises a GL error), or `by-name` (no fault, the view
// asks for `gpu` by name: no check, for the first frame's cost without it).
//
// It draws the seed's row at 390x120 on an OpenGL canvas (SDL's offscreen driver) with no
// backend asked for, FRAMES frames (default 6) at 0.35 s apart, and each frame again with
// `spans` on a second OpenGL canvas, and prints, one a line:
//   description: LINE     `LoaderRenderer.backendDescription(rings: 25)` after the frames
//   kind: KIND            what the renderer is taken for
//   used: B1,B2,...       the backend each frame drew with
//   throws: N             frames whose draw threw
//   psnr: DB              the worst frame's PSNR against spans
//   check-ms: MS          the gpu check's time, when it ran
//   first-frame-ms: MS    the first frame's draw, the check included when it ran
// and exits 0; 2 for bad arguments, 1 when no OpenGL canvas comes up.
import Foundation
import LoaderCore
import LoaderSDL
import SwiftLoaderCanvas
import SwiftLoaderSupport

let arguments = Array(CommandLine.arguments.dropFirst())
let faults = ["none", "shader", "probe", "gl-error", "by-name"]
guard (1...2).contains(arguments.count), faults.contains(arguments[0]),
  let frames = arguments.count == 2 ? Int(arguments[1]) : 6, frames > 0
else {
  FileHandle.standardError.write(
    Data("usage: SwiftLoaderGPUTrustChild none|shader|probe|gl-error|by-name [FRAMES]\n".utf8))
  exit(2)
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("GPUTrustChild: \(message)\n".utf8))
  exit(1)
}

let width = 390
let height = 120
let canvas: OffscreenCanvas
let reference: OffscreenCanvas
do {
  canvas = try .openGL(width: width, height: height)
  reference = try .openGL(width: width, height: height)
} catch {
  fail("no OpenGL canvas: \(error)")
}
let loaders = canvas.loaderRenderer
if let gpu = try? loaders.rasterizer(.gpu) as? GPURingRasterizer {
  switch arguments[0] {
  case "shader": gpu.faults.fragmentSuffix = "\nvoid broken() { notAFunction(); }\n"
  case "probe": gpu.faults.wrongProbePixels = true
  case "gl-error": gpu.faults.glErrorFromDraw = 3
  default: break
  }
}

let frame = SDL_FRect(x: 0, y: 0, w: Float(width), h: Float(height))
let view = try! LoaderView(
  isAnimating: true, style: .seed, backend: arguments[0] == "by-name" ? .gpu : nil)
var firstFrame = 0.0
let spans = try! LoaderView(isAnimating: true, style: .seed, backend: .spans)
var used: [String] = []
var thrown = 0
var worst = Double.infinity
for i in 0..<frames {
  let t = 0.35 * Double(i + 1)
  canvas.clear(RGBAColor(r: 255, g: 255, b: 255))
  reference.clear(RGBAColor(r: 255, g: 255, b: 255))
  do {
    let start = DispatchTime.now().uptimeNanoseconds
    try view.draw(on: loaders, in: frame, at: t)
    canvas.flush()
    if i == 0 { firstFrame = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 }
  } catch {
    thrown += 1
    FileHandle.standardError.write(Data("frame \(i): \(error)\n".utf8))
  }
  used.append(view.activeBackend?.rawValue ?? "none")
  do {
    try spans.draw(on: reference.loaderRenderer, in: frame, at: t)
  } catch {
    fail("spans: \(error)")
  }
  worst = min(
    worst,
    ImageComparison.psnr(canvas.argbPixels(), reference.argbPixels(), width: width))
}
print("description: \(loaders.backendDescription(rings: 25))")
print("kind: \(loaders.kind.rawValue)")
print("used: \(used.joined(separator: ","))")
print("throws: \(thrown)")
print("psnr: \(worst)")
print("first-frame-ms: \(String(format: "%.2f", firstFrame))")
if let seconds = loaders.gpuCheckSeconds {
  print("check-ms: \(String(format: "%.2f", seconds * 1000))")
}
