import CSwiftLoaderSDL2
import LoaderCore
import LoaderSDL
import SwiftLoaderCairoReference
import SwiftLoaderCanvas
import SwiftLoaderSupport
import SwiftLoaderTestSupport

/// `raster/sprite` and `raster/sprite-gl`: the peer an SDL programmer writes first. One
/// ring is painted once, white at angle 0, by the project's SDL2_gfx painter
/// (`GfxAtlasCellPainter`) into a texture, and every ring of `RasterScene` is one
/// `SDL_RenderCopyExF` of it, turned by the ring's angle about its centre, tinted by colour
/// and alpha modulation, with linear filtering (nearest sampling leaves rotated edges
/// jagged: the smooth setting is what such a programmer would reach for).
///
/// - `raster/sprite`: SDL's software renderer (`OffscreenCanvas`), which for every call
///   rotates a resampled copy of the texture (`SDLgfx_rotateSurface`) and blends it.
/// - `raster/sprite-gl`: OpenGL on SDL's offscreen video driver (EGL; Mesa's llvmpipe
///   where there is no GPU, which rasterizes on every core, unlike the other entries), into
///   a 1920x1080 target texture; its threads are the driver's (no `threads` figure). A
///   timed call ends with a one-pixel read back, so the GL
///   work is done when the clock stops. Skipped, with a note, where no OpenGL renderer
///   comes up.
///
/// Timed, compared and reported as `RasterBenchmarks` does: the draw only, PSNR against
/// Cairo's frame over `MaskedPSNR`'s mask.
enum SpriteBenchmarks {
  static let names = ["raster/sprite", "raster/sprite-gl"]

  static func run(_ run: BenchRun) throws {
    let wantSoftware = run.isSelected(names[0])
    let wantOpenGL = run.isSelected(names[1])
    guard wantSoftware || wantOpenGL else { return }
    let w = RasterScene.stressFrame.width
    let h = RasterScene.stressFrame.height
    let cairo = try CairoRingRenderer(width: w, height: h)
    let ink = RasterBenchmarks.inkPixelsPerRing(cairo)
    let fill = run.results.first { $0.name == "limit/fill" }?.frameMilliseconds
    var sprites: [Sprite] = []
    if wantSoftware {
      sprites.append(try Sprite(names[0], on: OffscreenCanvas(width: w, height: h)))
    }
    if wantOpenGL {
      let canvas: OffscreenCanvas?
      do {
        canvas = try .openGL(width: w, height: h)
      } catch {
        run.note("raster/sprite-gl: skipped, no OpenGL renderer (\(error))")
        canvas = nil
      }
      if let canvas { sprites.append(try Sprite(names[1], on: canvas)) }
    }

    for n in run.sizes.rasterRings {
      let timed = sprites.filter { !run.exceedsBudget($0.name, size: n) }
      guard !timed.isEmpty else { continue }
      let scene = RasterScene.stress(count: n, seed: BenchRun.seed ^ UInt64(n))
      let mask = MaskedPSNR(width: w, height: h, boxes: scene.crops)
      cairo.clear(scene.palette.background)
      scene.stroke(on: cairo)
      let reference = cairo.argbPixels()
      for sprite in timed {
        let canvas = sprite.canvas
        var failure: SDLError?
        let draw = {
          do throws(SDLError) {
            try sprite.draw(scene.rings)
            try canvas.finish()
          } catch {
            failure = error
          }
        }
        canvas.clear(scene.palette.background)
        let m = Sampler.measure(RasterBenchmarks.plan(n, run)) { draw() }
        canvas.clear(scene.palette.background)
        draw()
        if let failure { throw failure }
        if let dir = run.framesDirectory {
          let file = sprite.name.replacingOccurrences(of: "/", with: "-")
          try canvas.savePNG(to: "\(dir)/\(file)-\(n).png")
        }
        record(
          sprite.name, n, m, pixels: canvas.argbPixels(), mask: mask, reference: reference,
          ink: ink, fill: canvas.isOpenGL ? nil : fill, renderer: canvas.rendererDescription,
          run: run)
      }
    }
  }

  private static func record(
    _ name: String, _ n: Int, _ m: Measurement, pixels: [UInt32], mask: MaskedPSNR,
    reference: [UInt32], ink: Int, fill: Double?, renderer: String, run: BenchRun
  ) {
    run.noteCallCost(name, size: n, seconds: m.nanosecondsPerCall.p50 * 1e-9)
    var r = RasterBenchmarks.result(
      name, n, m, ink: ink, fill: fill, psnr: mask.psnr(pixels, reference))
    // The software sprite runs on the calling thread; OpenGL's threads are the driver's
    // (llvmpipe uses every core), which the bench does not set.
    r.threads = name == names[0] ? 1 : nil
    r.details.append(renderer)
    run.record(r)
  }
}

/// The sprite peer's one ring texture on `renderer`: `shape` painted white at angle 0 with its
/// centre at the middle of an even square, so `SDL_RenderCopyExF`'s default rotation centre
/// (the rectangle's middle) is the ring's centre; blended and linearly filtered. `half` is the
/// square's half side in pixels. (`raster/sprite` and the hosts' `sprite` content both use it.)
func makeRingSprite(_ shape: DashedRing, on renderer: OpaquePointer) throws(SDLError) -> (
  texture: OpaquePointer, half: Int
) {
  let o = Int((shape.radius + shape.halfWidth + 0.5).rounded(.up))
  let t = try GfxAtlasCellPainter.texture(of: shape, side: 2 * o, center: Float(o), on: renderer)
  return (t, o)
}

/// The one ring texture (`makeRingSprite`) and the copies that draw rings with it.
private final class Sprite {
  /// The entry it is timed as.
  let name: String
  let texture: OpaquePointer
  /// Where it draws; kept alive while the texture exists.
  let canvas: OffscreenCanvas
  /// The texture's half side: a ring centred at `c` is copied to `c - half`.
  let half: Float
  private let side: Int32

  init(_ name: String, on canvas: OffscreenCanvas) throws(SDLError) {
    let (t, o) = try makeRingSprite(RasterScene.stressFrame.shape, on: canvas.renderer)
    self.name = name
    texture = t
    self.canvas = canvas
    half = Float(o)
    side = Int32(2 * o)
  }

  deinit { SDL_DestroyTexture(texture) }

  func draw(_ rings: [RingInstance]) throws(SDLError) {
    let renderer = canvas.renderer
    for r in rings {
      SDL_SetTextureColorMod(texture, r.color.r, r.color.g, r.color.b)
      SDL_SetTextureAlphaMod(texture, r.color.a)
      var dst = SDL_FRect(
        x: r.centerX - half, y: r.centerY - half, w: Float(side), h: Float(side))
      guard
        SDL_RenderCopyExF(renderer, texture, nil, &dst, Double(r.angle), nil, SDL_FLIP_NONE) == 0
      else { throw SDLError("SDL_RenderCopyExF") }
    }
  }
}
