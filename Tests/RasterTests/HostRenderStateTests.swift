import CSwiftLoaderSDL2
import LoaderCore
import SwiftLoaderCanvas
import SwiftLoaderSupport
import SwiftLoaderTestSupport
import Testing

@testable import LoaderSDL

/// The library as a guest in a host's renderer: under every render state an SDL program sets
/// (`HostRenderStateCase`), each backend draws the seed row where SDL's own calls would draw
/// it, crisp at the renderer's density (>= 30 dB per ring against Cairo at the expected
/// place, nothing inked off the rings), and leaves the renderer's state as it found it. The
/// same states are drawn by a package outside the repository in `HostConsumerTests`.
@Suite struct HostRenderStateTests {
  /// The renderers a host may have: SDL's software renderer on a surface it owns (given to the
  /// `LoaderRenderer`, so `spans` writes the pixels), the same without the surface (`spans`
  /// goes through its texture), and OpenGL on SDL's offscreen driver (Mesa's llvmpipe here).
  enum Host: String, CaseIterable {
    case softwareSurface
    case software
    case openGL

    func make() throws -> (OffscreenCanvas, LoaderRenderer) {
      let w = HostRenderStateCase.canvasWidth
      let h = HostRenderStateCase.canvasHeight
      switch self {
      case .softwareSurface:
        let c = try OffscreenCanvas(width: w, height: h)
        return (c, c.loaderRenderer)
      case .software:
        let c = try OffscreenCanvas(width: w, height: h)
        return (c, LoaderRenderer(c.renderer))
      case .openGL:
        let c = try OffscreenCanvas.openGL(width: w, height: h)
        return (c, c.loaderRenderer)
      }
    }

    /// `gpu` runs on OpenGL only (the software renderer refuses it: `RasterGPUTests`); every
    /// other pair is held to the bar.
    var backends: [RingBackend] { self == .openGL ? RingBackend.allCases : [.spans, .gfx] }
  }

  func check(_ host: Host) throws {
    let (canvas, loaders) = try host.make()
    defer { withExtendedLifetime(canvas) {} }
    for state in HostRenderStateCase.allCases {
      let expected = try HostDrawingCheck(state)
      for backend in host.backends {
        let drawing = try HostDrawing.draw(
          state, backend: backend, on: loaders, renderer: canvas.renderer)
        let label = "\(host.rawValue) \(backend.rawValue) \(state.rawValue)"
        #expect(drawing.stateAfter == drawing.stateBefore, "\(label): state changed")
        let problems = expected.problems(in: drawing.pixels)
        #expect(problems.isEmpty, "\(label): \(problems.joined(separator: "; "))")
      }
    }
  }

  @Test func softwareRendererWithItsSurface() throws { try check(.softwareSurface) }

  @Test func softwareRendererThroughTextures() throws { try check(.software) }

  @Test(
    .enabled(
      if: OffscreenCanvas.openGLAvailable, "no OpenGL renderer on SDL's offscreen driver here"))
  func openGLRenderer() throws { try check(.openGL) }

  /// Every backend's picture matches every other's under a scale and a letterbox, on one
  /// renderer (>= 30 dB ring by ring).
  @Test(
    .enabled(
      if: OffscreenCanvas.openGLAvailable, "no OpenGL renderer on SDL's offscreen driver here"))
  func backendsAgreeWithEachOther() throws {
    let (canvas, loaders) = try Host.openGL.make()
    defer { withExtendedLifetime(canvas) {} }
    for state in [HostRenderStateCase.scale2, .logicalLetterbox, .viewportScaled] {
      let scene = try HostDrawingCheck(state).scene
      let pictures = try RingBackend.allCases.map {
        try HostDrawing.draw(state, backend: $0, on: loaders, renderer: canvas.renderer).pixels
      }
      for (a, b) in [(0, 1), (0, 2), (1, 2)] {
        for i in scene.rings.indices {
          let db = ImageComparison.psnr(
            pictures[a], pictures[b], width: scene.width, rect: scene.crop(ofRing: i))
          #expect(db >= 30, "\(state) ring \(i): backends \(a) and \(b) at \(db) dB")
        }
      }
    }
  }
}
