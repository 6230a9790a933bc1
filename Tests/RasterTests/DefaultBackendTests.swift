import CSwiftLoaderSDL2
import Foundation
import LoaderCore
import SwiftLoaderCanvas
import SwiftLoaderSupport
import SwiftLoaderTestSupport
import Testing

@testable import LoaderSDL

/// The backend a draw that asks for none gets (`LoaderRenderer.defaultBackend(rings:)`): the
/// rule by renderer and ring count, and the `gpu` backend's check, which a renderer on a GPU
/// runs before its default trusts `gpu` and which falls back, said once, when a driver fails it.
@Suite(.serialized) struct DefaultBackendTests {
  /// The rule, as `frame/*` measured: `spans` on SDL's software renderer at every count;
  /// `gpu` on OpenGL on a GPU once trusted; without it (a CPU rasterizer behind OpenGL, any
  /// other accelerated renderer, a GPU whose check failed) `gfx` below `spansFromRings` rings
  /// and `spans` from there: 1,000 on llvmpipe, 25,000 elsewhere.
  @Test func theRuleFollowsTheRendererAndTheRingCount() throws {
    #expect(RendererKind.softwareGL.spansFromRings == 1_000)
    #expect(RendererKind.otherAccelerated.spansFromRings == 25_000)
    #expect(RendererKind.hardwareGL.spansFromRings == 25_000)
    for kind in [RendererKind.softwareGL, .otherAccelerated, .hardwareGL] {
      let edge = kind.spansFromRings
      for rings in [0, 1, 5, 100, edge - 1, edge, edge + 1, 50_000, 5_000_000] {
        let withoutGPU: RingBackend = rings < edge ? .gfx : .spans
        #expect(RendererKind.software.preferred(rings: rings, gpuTrusted: true) == .spans)
        #expect(
          kind.preferred(rings: rings, gpuTrusted: true)
            == (kind == .hardwareGL ? .gpu : withoutGPU),
          "\(rings) rings, \(kind), trusted")
        #expect(
          kind.preferred(rings: rings, gpuTrusted: false) == withoutGPU,
          "\(rings) rings, \(kind), not trusted")
      }
    }
    let software = try OffscreenCanvas(width: 8, height: 8)
    #expect(software.loaderRenderer.kind == .software)
    #expect(software.loaderRenderer.defaultBackend(rings: 5) == .spans)
    #expect(software.loaderRenderer.backendDescription(rings: 5) == "spans")
    #expect(RingBackend.preferred(for: software.renderer) == .spans)
  }

  /// CPU rasterizers behind OpenGL are named as such, GPUs are not.
  @Test func cpuRasterizersAreNamed() {
    for name in [
      "llvmpipe (LLVM 15.0.6, 256 bits)", "softpipe", "zink (llvmpipe (LLVM 15.0.6, 256 bits))",
      "zink (Lavapipe)", "Google SwiftShader", "D3D12 (Microsoft Basic Render Driver)",
      "Software Rasterizer",
    ] {
      #expect(GPUSupport.isSoftwareRasterizer(name), "\(name)")
    }
    for name in [
      "NVIDIA GeForce RTX 4090/PCIe/SSE2", "AMD Radeon RX 7900 XTX (radeonsi, navi31, LLVM 15)",
      "Mesa Intel(R) UHD Graphics 620 (KBL GT2)", "D3D12 (NVIDIA GeForce RTX 3080)",
      "Apple M2",
    ] {
      #expect(!GPUSupport.isSoftwareRasterizer(name), "\(name)")
    }
  }

  /// An OpenGL renderer on Mesa's llvmpipe reads as a CPU rasterizer behind OpenGL (on a GPU,
  /// as a GPU), and a field with no backend set draws each frame with what the rule gives for
  /// its ring count: past `spansFromRings` rings the choice changes.
  @Test(
    .enabled(
      if: OffscreenCanvas.openGLAvailable, "no OpenGL renderer on SDL's offscreen driver here"))
  func onOpenGLTheDefaultFollowsTheRingCount() throws {
    let gl = try OffscreenCanvas.openGL(width: 320, height: 240)
    let llvmpipe = (gl.glRendererName ?? "").contains("llvmpipe")
    let loaders = gl.loaderRenderer
    let kind = loaders.kind
    #expect(kind == (llvmpipe ? .softwareGL : .hardwareGL), "\(gl.rendererDescription)")
    #expect(RingBackend.preferred(for: gl.renderer, rings: 5) == (llvmpipe ? .gfx : .gpu))
    if llvmpipe {
      #expect(loaders.backendDescription(rings: 5).hasPrefix("gfx: llvmpipe"))
      #expect(loaders.backendDescription(rings: 5).hasSuffix("rasterizes on the CPU"))
    }
    let field = try LoaderField(style: .seed, layout: .grid)
    var seen: [RingBackend] = []
    let edge = kind.spansFromRings
    for count in [1, 10, edge / 5 - 1, edge / 5] {
      while field.count < count { try field.addLoader(isAnimating: true, at: 0) }
      try field.draw(on: loaders, at: 0.3)
      #expect(field.activeBackend == loaders.defaultBackend(rings: 5 * count), "\(count) loaders")
      seen.append(field.activeBackend ?? .spans)
    }
    if llvmpipe { #expect(seen == [.gfx, .gfx, .gfx, .spans]) }
  }

  // MARK: - The gpu backend's check, llvmpipe posing as a GPU

  /// What `SwiftLoaderGPUTrustChild` printed, by key.
  struct ChildRun {
    var lines: [String: String] = [:]
    var stderr = ""
    var used: [String] { (lines["used"] ?? "").split(separator: ",").map(String.init) }
    var psnr: Double { Double(lines["psnr"] ?? "") ?? 0 }
    var description: String { lines["description"] ?? "" }
  }

  static func child(_ fault: String, environment: [String: String] = [:]) throws -> ChildRun {
    var env: [String: String?] = ["SDL_VIDEODRIVER": "offscreen"]
    for (k, v) in MesaFaults.posingAsGPU.merging(environment, uniquingKeysWith: { $1 }) {
      env[k] = v
    }
    let r = try BuiltProduct.run(
      executable: BuiltProduct.executable(named: "SwiftLoaderGPUTrustChild"), [fault],
      environment: env, timeout: .seconds(300))
    try #require(r.status == 0, "child \(fault) exited \(r.status): \(r.stderr)")
    var run = ChildRun(stderr: r.stderr)
    for line in r.stdout.split(separator: "\n") {
      guard let colon = line.firstIndex(of: ":") else { continue }
      run.lines[String(line[..<colon])] = String(line[line.index(after: colon)...].dropFirst())
    }
    return run
  }

  /// Each fault's scene drawn by the default: at least 30 dB against `spans` in every frame,
  /// no draw thrown, and the description naming the fallback and what failed.
  static func expectFellBack(_ run: ChildRun, to backend: String, saying reason: String) {
    #expect(run.lines["kind"] == "hardwareGL", "\(run.lines)")
    #expect(run.lines["throws"] == "0", "\(run.stderr)")
    #expect(run.psnr >= 30, "\(run.psnr) dB against spans")
    #expect(run.description.hasPrefix("\(backend): "), "\(run.description)")
    #expect(run.description.contains(reason), "\(run.description)")
  }

  @Test(
    .enabled(
      if: OffscreenCanvas.openGLAvailable, "no OpenGL renderer on SDL's offscreen driver here"))
  func posingAsAGPUTheDefaultIsGPUOnceItsProbePasses() throws {
    let run = try Self.child("none")
    #expect(run.lines["kind"] == "hardwareGL", "\(run.lines)")
    #expect(run.description == "gpu")
    #expect(run.used.allSatisfy { $0 == "gpu" }, "\(run.used)")
    #expect(run.lines["throws"] == "0")
    #expect(run.psnr >= 30, "\(run.psnr) dB")
    #expect(run.lines["check-ms"] != nil)
  }

  /// A fragment shader the compiler rejects (the package's fault hook: a call to a function
  /// GLSL lacks).
  @Test(
    .enabled(
      if: OffscreenCanvas.openGLAvailable, "no OpenGL renderer on SDL's offscreen driver here"))
  func aShaderTheCompilerRejectsFallsBack() throws {
    let run = try Self.child("shader")
    Self.expectFellBack(run, to: "gfx", saying: "the gpu fragment shader did not compile: ")
    #expect(run.description.contains("notAFunction"), "\(run.description)")
    #expect(!run.description.contains(" | "), "one line: \(run.description)")
    #expect(run.used.allSatisfy { $0 == "gfx" })
  }

  /// A probe that reads back wrong pixels.
  @Test(
    .enabled(
      if: OffscreenCanvas.openGLAvailable, "no OpenGL renderer on SDL's offscreen driver here"))
  func aProbeThatReadsBackWrongPixelsFallsBack() throws {
    let run = try Self.child("probe")
    Self.expectFellBack(run, to: "gfx", saying: "the gpu probe's pixels are ")
    #expect(run.used.allSatisfy { $0 == "gfx" })
  }

  /// A GL error after a later draw (the third): the frame that found it is drawn by the
  /// fallback, and every frame after it.
  @Test(
    .enabled(
      if: OffscreenCanvas.openGLAvailable, "no OpenGL renderer on SDL's offscreen driver here"))
  func aGLErrorAfterALaterDrawFallsBackFromThatFrame() throws {
    let run = try Self.child("gl-error")
    Self.expectFellBack(run, to: "gfx", saying: "a gpu draw raised GL_INVALID_ENUM")
    #expect(run.used == ["gpu", "gpu", "gfx", "gfx", "gfx", "gfx"], "\(run.used)")
  }

  /// A context too old for the backend (`MESA_GL_VERSION_OVERRIDE=3.0`).
  @Test(
    .enabled(
      if: OffscreenCanvas.openGLAvailable, "no OpenGL renderer on SDL's offscreen driver here"))
  func aContextTooOldFallsBack() throws {
    let run = try Self.child("none", environment: ["MESA_GL_VERSION_OVERRIDE": "3.0"])
    #expect(run.lines["kind"] == "otherAccelerated", "\(run.lines)")
    #expect(run.lines["throws"] == "0", "\(run.stderr)")
    #expect(run.psnr >= 30, "\(run.psnr) dB")
    #expect(
      run.description.hasPrefix("gfx: the gpu backend needs OpenGL 3.3 or OpenGL ES 3.0;"),
      "\(run.description)")
  }

  /// The driver's own compiler handed a replaced fragment shader (Mesa's
  /// `MESA_SHADER_READ_PATH` reads `FS_<sha1 of the source>.glsl` in place of the source): one
  /// it rejects, and one it compiles that draws every pixel magenta.
  @Test(
    .enabled(
      if: OffscreenCanvas.openGLAvailable, "no OpenGL renderer on SDL's offscreen driver here"),
    arguments: MesaFaults.Replacement.allCases)
  func aDriverWithAReplacedShaderFallsBack(replacement: MesaFaults.Replacement) throws {
    let dir = try ScratchDirectory("shader-read")
    defer { dir.remove() }
    try MesaFaults.replaceFragmentShader(in: dir.path, with: replacement)
    let run = try Self.child("none", environment: ["MESA_SHADER_READ_PATH": dir.path])
    if replacement == .rejected {
      Self.expectFellBack(run, to: "gfx", saying: "the gpu fragment shader did not compile: ")
    } else {
      Self.expectFellBack(run, to: "gfx", saying: "the gpu probe's pixels are ")
    }
  }
}
