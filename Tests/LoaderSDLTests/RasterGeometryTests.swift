import CSDL2
import CairoReference
import LoaderCore
import LoaderSupport
import Testing

@testable import LoaderSDL

/// An OpenGL renderer on SDL's "offscreen" video driver (EGL; Mesa's software GL where there
/// is no GPU), drawing into a target texture: a renderer that takes vertices at full
/// precision, like the GPU renderers the geometry backend is for.
final class AcceleratedCanvas {
  let window: OpaquePointer
  let renderer: OpaquePointer
  let texture: OpaquePointer
  let width: Int
  let height: Int

  /// SDL's video subsystem is process-wide: brought up once, on the offscreen driver.
  static let videoReady: Bool = SDL_VideoInit("offscreen") == 0

  init(width: Int, height: Int) throws {
    guard Self.videoReady else { throw SDLError("SDL_VideoInit(offscreen)") }
    guard
      let w = SDL_CreateWindow(
        "raster-test", 0, 0, Int32(width), Int32(height),
        SDL_WINDOW_HIDDEN.rawValue | SDL_WINDOW_OPENGL.rawValue)
    else { throw SDLError("SDL_CreateWindow") }
    guard let r = SDL_CreateRenderer(w, -1, SDL_RENDERER_ACCELERATED.rawValue) else {
      SDL_DestroyWindow(w)
      throw SDLError("SDL_CreateRenderer")
    }
    guard
      let t = SDL_CreateTexture(
        r, SDL_PIXELFORMAT_ARGB8888.rawValue, Int32(SDL_TEXTUREACCESS_TARGET.rawValue),
        Int32(width), Int32(height))
    else {
      SDL_DestroyRenderer(r)
      SDL_DestroyWindow(w)
      throw SDLError("SDL_CreateTexture")
    }
    SDL_SetRenderTarget(r, t)
    window = w
    renderer = r
    texture = t
    self.width = width
    self.height = height
  }

  deinit {
    SDL_DestroyTexture(texture)
    SDL_DestroyRenderer(renderer)
    SDL_DestroyWindow(window)
  }

  var rendererName: String {
    var info = SDL_RendererInfo()
    guard SDL_GetRendererInfo(renderer, &info) == 0, let n = info.name else { return "?" }
    return String(cString: n)
  }

  func render(_ scene: RasterScene, with backend: any RingRasterizer) throws -> [UInt32] {
    let bg = scene.palette.background
    SDL_SetRenderDrawColor(renderer, bg.r, bg.g, bg.b, 255)
    SDL_RenderClear(renderer)
    try backend.draw(scene.rings, shape: scene.shape, on: renderer)
    var pixels = [UInt32](repeating: 0, count: width * height)
    guard
      SDL_RenderReadPixels(
        renderer, nil, SDL_PIXELFORMAT_ARGB8888.rawValue, &pixels, Int32(width * 4)) == 0
    else { throw SDLError("SDL_RenderReadPixels") }
    return pixels
  }
}

@Suite(.serialized) struct RasterGeometryTests {
  /// On a renderer that keeps vertices exact, the tessellated rings match Cairo per ring at
  /// every angle, scales 1 and 2, light and dark; so does the span backend composited
  /// through its premultiplied streaming texture; and the 3 o'clock seam matches. All on one
  /// thread: one GL context.
  @Test func geometryAndOverlayMatchCairoOnOpenGL() throws {
    let angles = RasterQualityTests.angles
    for scale in [1.0, 2.0] {
      let size = RasterScene.seedRow(scale: scale, palette: .light, angles: angles)
      let canvas = try AcceleratedCanvas(width: size.width, height: size.height)
      #expect(canvas.rendererName != "software")
      for palette in [LoaderPalette.light, .dark] {
        for shift in 0..<angles.count {
          let turned = (0..<5).map { angles[($0 + shift) % angles.count] }
          let scene = RasterScene.seedRow(scale: scale, palette: palette, angles: turned)
          let reference = try scene.renderCairo()
          for backend in [GeometryRingRasterizer(), CoverageSpanRasterizer()]
            as [any RingRasterizer]
          {
            let pixels = try canvas.render(scene, with: backend)
            for i in scene.rings.indices {
              let db = ImageComparison.psnr(
                pixels, reference, width: scene.width, rect: scene.crop(ofRing: i))
              #expect(
                db >= 30,
                "\(backend.name) on OpenGL, ring \(i) at \(turned[i]) deg, scale \(scale): \(db) dB"
              )
            }
            if shift == 0 {
              let seam = scene.seamCrop(ofRing: 0)
              let db = ImageComparison.psnr(pixels, reference, width: scene.width, rect: seam)
              #expect(db >= 30, "\(backend.name) seam at scale \(scale): \(db) dB")
            }
          }
        }
      }
    }
  }

  /// `SDL_RENDER_TARGETS_RESET` / `SDL_RENDER_DEVICE_RESET`: after `renderTargetsDidReset`
  /// every backend draws the same frame again on the same renderer (the span backend's
  /// overlay texture is rebuilt, not a blank frame).
  @Test func aResetRendererDrawsTheSameFrame() throws {
    let scene = RasterScene.seedRow(scale: 1, palette: .dark, angles: [12, 100, 200, 300, 359.5])
    let canvas = try AcceleratedCanvas(width: scene.width, height: scene.height)
    let blank = try canvas.render(
      RasterScene(
        width: scene.width, height: scene.height, scale: 1, palette: .dark, rings: []),
      with: GeometryRingRasterizer())
    for backend in [CoverageSpanRasterizer(), GeometryRingRasterizer()] as [any RingRasterizer] {
      let before = try canvas.render(scene, with: backend)
      #expect(before != blank, "\(backend.name) drew nothing")
      backend.renderTargetsDidReset(on: canvas.renderer)
      let after = try canvas.render(scene, with: backend)
      #expect(after == before, "\(backend.name) after a reset")
    }
  }

  /// The same frames (the seed row, and a crowded scene of overlapping rings crossing the
  /// edges) from every backend agree with each other and with Cairo: pairwise PSNR over the
  /// whole frame, at least 33 dB. Measured: 44 to 58 dB on the row; 35.6 to 43 dB on the
  /// crowd, the lowest being `spans` (its 1/8-pixel centre steps) against Cairo at scale 1.
  /// `geometry` draws on OpenGL, the others on the software renderer.
  @Test func everyBackendDrawsTheSameFrame() throws {
    for scale in [1.0, 2.0] {
      let row = RasterScene.seedRow(
        scale: scale, palette: .dark, angles: [12, 100, 200, 300, 359.5])
      var crowd = RasterScene(
        width: Int(240 * scale), height: Int(160 * scale), scale: scale, palette: .light, rings: [])
      var g = SplitMix64(seed: 4)
      for i in 0..<40 {
        crowd.rings.append(
          RingInstance(
            centerX: Float((g.nextUnit() * 260 - 10) * scale),
            centerY: Float((g.nextUnit() * 180 - 10) * scale),
            angle: Float(g.nextUnit() * 360), color: LoaderPalette.light.ringColors[i % 5]))
      }
      for scene in [row, crowd] {
        let canvas = try AcceleratedCanvas(width: scene.width, height: scene.height)
        var frames: [(String, [UInt32])] = [("cairo", try scene.renderCairo())]
        frames.append(("geometry", try canvas.render(scene, with: GeometryRingRasterizer())))
        for backend in [CoverageSpanRasterizer(), GfxRingRasterizer()] as [any RingRasterizer] {
          frames.append((backend.name, try scene.render(with: backend)))
        }
        for i in frames.indices {
          for j in frames.indices where j > i {
            let db = ImageComparison.psnr(frames[i].1, frames[j].1, width: scene.width)
            #expect(db >= 33, "\(frames[i].0) vs \(frames[j].0), scale \(scale): \(db) dB")
          }
        }
      }
    }
  }
}
