internal import CSwiftLoaderGL
import CSwiftLoaderSDL2
import Foundation
import LoaderCore
import SwiftLoaderCanvas
import SwiftLoaderSupport
import SwiftLoaderTestSupport
import Testing

@testable import LoaderSDL

/// The `gpu` backend among GL contexts as a host has them: two renderers, each its own
/// context, drawn in turn; one destroyed while the other draws on; a reset that keeps the
/// context (objects deleted in it, then made again). And its shaders, exactly as the code
/// builds them, accepted by Khronos's reference compiler, so a shader only Mesa accepts fails.
@Suite(.serialized) struct GPUContextTests {
  static let scene = RasterScene.seedRow(
    density: 1, palette: .light, angles: [12, 100, 200, 300, 359.5])

  /// `scene` drawn with `gpu` (by name) on `canvas`, against the `spans` kernel's frame.
  static func psnrAgainstSpans(on canvas: OffscreenCanvas, reference: [UInt32]) throws -> Double {
    let gpu = try canvas.loaderRenderer.rasterizer(.gpu)
    let pixels = try scene.render(with: gpu, on: canvas)
    return ImageComparison.psnr(pixels, reference, width: scene.width)
  }

  @Test(
    .enabled(
      if: OffscreenCanvas.openGLAvailable, "no OpenGL renderer on SDL's offscreen driver here"))
  func twoRenderersDrawnInTurnThenOneDestroyed() throws {
    let reference = try Self.scene.render(with: CoverageSpanRasterizer())
    var first: OffscreenCanvas? = try .openGL(width: Self.scene.width, height: Self.scene.height)
    let second = try OffscreenCanvas.openGL(width: Self.scene.width, height: Self.scene.height)
    for round in 0..<3 {
      for (name, canvas) in [("first", first!), ("second", second)] {
        let db = try Self.psnrAgainstSpans(on: canvas, reference: reference)
        #expect(db >= 30, "\(name) renderer, round \(round): \(db) dB")
      }
    }
    // The first renderer goes (its loaders' objects deleted in its own context); the second
    // draws on in its own.
    first = nil
    for round in 0..<3 {
      let db = try Self.psnrAgainstSpans(on: second, reference: reference)
      #expect(db >= 30, "after the first was destroyed, round \(round): \(db) dB")
    }
  }

  /// A reset that keeps the context (SDL's GL renderers keep theirs): the backend's program
  /// is deleted in it, not leaked, and the next draw makes everything again and draws right.
  @Test(
    .enabled(
      if: OffscreenCanvas.openGLAvailable, "no OpenGL renderer on SDL's offscreen driver here"))
  func aResetDeletesTheObjectsInAContextThatSurvives() throws {
    let reference = try Self.scene.render(with: CoverageSpanRasterizer())
    let canvas = try OffscreenCanvas.openGL(width: Self.scene.width, height: Self.scene.height)
    #expect(try Self.psnrAgainstSpans(on: canvas, reference: reference) >= 30)
    let gpu = try #require(try canvas.loaderRenderer.rasterizer(.gpu) as? GPURingRasterizer)
    let program = try #require(gpu.programName)
    let isProgram: PFNGLISPROGRAMPROC = try #require(GLFunctions.load("glIsProgram"))
    GPUSupport.makeContextCurrent(canvas.renderer)
    #expect(isProgram(program) != 0)
    canvas.loaderRenderer.renderTargetsDidReset()
    GPUSupport.makeContextCurrent(canvas.renderer)
    #expect(isProgram(program) == 0, "program \(program) still alive after the reset")
    #expect(gpu.programName == nil)
    #expect(try Self.psnrAgainstSpans(on: canvas, reference: reference) >= 30)
    #expect(gpu.programName != nil)
  }

  /// Both stages of both variants (`#version 330`, `#version 300 es`), exactly as the code
  /// builds them, compile with `glslangValidator` (Debian's glslang-tools).
  @Test func theShadersPassKhronossReferenceCompiler() throws {
    let validator = "/usr/bin/glslangValidator"
    try #require(
      FileManager.default.isExecutableFile(atPath: validator),
      "glslangValidator is needed (apt: glslang-tools)")
    let dir = try ScratchDirectory("glslang")
    defer { dir.remove() }
    for openGLES in [false, true] {
      let sources = GPURingProgram.sources(openGLES: openGLES)
      for (stage, source) in [("vert", sources.vertex), ("frag", sources.fragment)] {
        let path = dir.file("ring-\(openGLES ? "es" : "core").\(stage)")
        try source.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try BuiltProduct.run(
          executable: URL(fileURLWithPath: validator), [path], timeout: .seconds(60))
        #expect(
          r.status == 0, "\(openGLES ? "300 es" : "330") \(stage): \(r.stdout) \(r.stderr)")
      }
    }
  }
}
