import Foundation
import LoaderCore
import SwiftLoaderCairoReference
import SwiftLoaderCanvas
import SwiftLoaderSupport
import SwiftLoaderTestSupport
import Testing

@testable import LoaderPixels
@testable import LoaderSDL

@Suite struct RasterSpanTests {
  /// Without a surface to write, the span backend draws into a streaming texture and SDL
  /// composites it (straight alpha on the software renderer): the same picture.
  @Test func overlayPathMatchesCairo() throws {
    for palette in [LoaderPalette.light, .dark] {
      let scene = RasterScene.seedRow(
        density: 1, palette: palette, angles: [0, 17, 60, 123.4, 359])
      let reference = try scene.renderCairo()
      let canvas = try OffscreenCanvas(width: scene.width, height: scene.height)
      // A renderer without its surface: the span backend cannot write the pixels.
      let loaders = LoaderRenderer(canvas.renderer)
      canvas.clear(palette.background)
      try loaders.draw(scene.rings, shape: scene.shape, with: CoverageSpanRasterizer())
      let pixels = canvas.argbPixels()
      for i in scene.rings.indices {
        let db = ImageComparison.psnr(
          pixels, reference, width: scene.width, rect: scene.crop(ofRing: i))
        #expect(db >= 30, "ring \(i): \(db) dB")
      }
    }
  }

  /// The streaming texture counts in the renderer's bytes while it lives, and not once it is
  /// gone (a reset of the renderer's textures, `close()`); the next draw makes a new one.
  @Test func theOverlayIsCountedUntilItIsGone() throws {
    let scene = RasterScene.seedRow(density: 1, palette: .light, angles: [0, 17, 60, 123.4, 359])
    let canvas = try OffscreenCanvas(width: scene.width, height: scene.height)
    let loaders = LoaderRenderer(canvas.renderer)
    let spans = CoverageSpanRasterizer()
    #expect(spans.ownBytes == 0)
    try loaders.draw(scene.rings, shape: scene.shape, with: spans)
    let held = spans.ownBytes
    #expect(held >= scene.width * scene.height * 4)
    spans.renderTargetsDidReset()
    #expect(spans.ownBytes == 0, "a reset texture still counted")
    try loaders.draw(scene.rings, shape: scene.shape, with: spans)
    #expect(spans.ownBytes == held)
    spans.close()
    #expect(spans.ownBytes == 0, "a closed texture still counted")
  }

  /// Rings across every edge are clipped exactly, rings wholly outside are culled, and
  /// non-finite or absurd positions draw nothing instead of crashing.
  @Test(arguments: [1.0, 2.0])
  func clipsAndCullsAtTheEdges(scale: Double) throws {
    let w = 160
    let h = 100
    let colors = LoaderPalette.dark.ringColors
    var rings: [RingInstance] = []
    let positions: [(Float, Float)] = [
      (0, 50), (160, 50), (80, 0), (80, 100), (3.3, 97.6), (157.2, 2.1), (-30, 50), (200, 50),
      (80, -40), (80, 150), (-1e9, 3), (4e9, 4e9),
    ]
    for (i, p) in positions.enumerated() {
      rings.append(
        RingInstance(
          centerX: p.0 * Float(scale), centerY: p.1 * Float(scale), angle: Float(i) * 41,
          color: colors[i % 5]))
    }
    let finiteScene = RasterScene(
      width: w * Int(scale), height: h * Int(scale), density: scale, palette: .dark, rings: rings)
    var scene = finiteScene
    scene.rings.append(RingInstance(centerX: .nan, centerY: 10, angle: 0, color: colors[0]))
    scene.rings.append(RingInstance(centerX: 10, centerY: .infinity, angle: 0, color: colors[1]))
    scene.rings.append(RingInstance(centerX: 10, centerY: 10, angle: .nan, color: colors[2]))
    let pixels = try scene.render(with: CoverageSpanRasterizer())
    let reference = try finiteScene.renderCairo()
    let db = ImageComparison.psnr(pixels, reference, width: scene.width)
    #expect(db >= 30, "\(db) dB")
  }
}

@Suite struct RasterCairoReferenceTests {
  /// The reference itself: SPEC's seam straight from Cairo (ink on both sides of 3 o'clock,
  /// background in the 6-long gap before the last dash), bad sizes refused, PNGs atomic.
  @Test func cairoDrawsTheSeedRingAndRefusesBadInput() throws {
    let cairo = try CairoRingRenderer(width: 60, height: 60)
    cairo.clear(RGBAColor(hex: 0xFFFFFF))
    cairo.strokeRing(
      style: .seed, density: 1, centerX: 30, centerY: 30, angle: 0, color: RGBAColor(hex: 0x007AFF))
    let pixels = cairo.argbPixels()
    func at(arc s: Double) -> UInt32 {
      let a = s / 23
      let x = Int((30 + 23 * cos(a)).rounded(.down))
      let y = Int((30 + 23 * sin(a)).rounded(.down))
      return pixels[y * 60 + x] & 0xFF_FFFF
    }
    #expect(at(arc: 144.3) == 0x007AFF)
    #expect(at(arc: 0.5) == 0x007AFF)
    #expect(at(arc: 141) == 0xFFFFFF)
    #expect(throws: CairoRingRenderer.Error.self) { try CairoRingRenderer(width: 0, height: 5) }
    #expect(throws: CairoRingRenderer.Error.self) {
      try cairo.savePNG(to: "/nonexistent-dir/ring.png")
    }
  }
}

@Suite struct RasterSpanThreadTests {
  /// Bands on several threads give the one thread's frame byte for byte: a crowd of
  /// overlapping, half-transparent rings across every edge, on a direct surface and through
  /// the overlay texture.
  @Test func everyThreadCountDrawsTheSameBytes() throws {
    var scene = RasterScene(width: 640, height: 480, density: 1, palette: .dark, rings: [])
    var g = SplitMix64(seed: 12)
    for i in 0..<1500 {
      var color = LoaderPalette.dark.ringColors[i % 5]
      color.a = i % 3 == 0 ? 128 : 255
      scene.rings.append(
        RingInstance(
          centerX: Float(g.nextUnit() * 700 - 30), centerY: Float(g.nextUnit() * 540 - 30),
          angle: Float(g.nextUnit() * 720 - 360), color: color))
    }
    let one = try scene.render(with: CoverageSpanRasterizer(), threads: 1)
    for threads in [2, 3, 4, 7, 64] {
      #expect(
        try scene.render(with: CoverageSpanRasterizer(), threads: threads) == one,
        "\(threads) threads")
    }
    // ... and the bands really were shared: another thread blended some at 2 threads.
    if RotationEngine.availableCores > 1 {
      let elsewhere = try LoaderFieldThreadsTests.piecesRunElsewhere {
        _ = try scene.render(with: CoverageSpanRasterizer(), threads: 2)
      }
      #expect(elsewhere > 0, "2 threads, yet every band was blended on one")
    }
    let canvas = try OffscreenCanvas(width: scene.width, height: scene.height)
    // Without the canvas's surface: through the overlay texture.
    let loaders = LoaderRenderer(canvas.renderer)
    func overlay(_ threads: Int) throws -> [UInt32] {
      canvas.clear(scene.palette.background)
      try scene.rings.withUnsafeBufferPointer { (buf) throws(SDLError) in
        _ = try loaders.draw(
          buf, shape: scene.shape, with: CoverageSpanRasterizer(), threads: threads)
      }
      return canvas.argbPixels()
    }
    #expect(try overlay(4) == overlay(1), "through the overlay")
  }

  /// A ring across a band edge draws every one of its rows: small rings (whose rows reach far
  /// less than their columns) at every sixteenth of a pixel from 7 px above the first band
  /// edge to 7 px below it give, byte for byte, what the same rings give 100 px lower, clear
  /// of any edge. (A 256-pixel-wide target has bands of 384 rows.) The kernel's own bands say
  /// that rings did cross an edge there, and none did 100 px lower, so a change of the bands'
  /// size cannot leave the test comparing two frames that cross nothing.
  @Test func ringsAcrossABandEdgeKeepEveryRow() throws {
    let shape = DashedRing(style: .seed).scaled(by: 3.0 / 23)
    let colors = LoaderPalette.light.ringColors
    /// The frame, the band rows, and how many rings were drawn in two bands.
    func draw(height: Int, shift: Float) throws -> (
      pixels: [UInt32], bandRows: Int, straddling: Int
    ) {
      let canvas = try OffscreenCanvas(width: 256, height: height)
      canvas.clear(LoaderPalette.light.background)
      var rings: [RingInstance] = []
      for i in 0..<224 {
        rings.append(
          RingInstance(
            centerX: 6 + Float(i % 24) * 10 + Float(i) / 64,
            centerY: 377 + Float(i) / 16 + shift, angle: Float(i) * 7.3,
            color: colors[i % colors.count]))
      }
      let spans = CoverageSpanRasterizer()
      try canvas.loaderRenderer.draw(rings, shape: shape, with: spans)
      // Every ring is visible: band entries past one a ring are rings drawn in two bands.
      let bands = spans.kernel.bands
      let entries = Int(bands.bandStart[bands.bandCount])
      return (canvas.argbPixels(), bands.bandRows, entries - rings.count)
    }
    let (across, rows, crossing) = try draw(height: 600, shift: 0)
    let (clear, _, clearCrossing) = try draw(height: 700, shift: 100)
    #expect(crossing > 0, "no ring crossed a band edge (bands of \(rows) rows)")
    #expect(clearCrossing == 0, "\(clearCrossing) rings 100 px lower crossed an edge too")
    #expect(across.contains { $0 != across[0] }, "the rings drew nothing")
    let differing = (360..<410).filter { y in
      across[(y * 256)..<(y * 256 + 256)] != clear[((y + 100) * 256)..<((y + 100) * 256 + 256)]
    }
    #expect(differing.isEmpty, "rows \(differing) differ")
  }
}
