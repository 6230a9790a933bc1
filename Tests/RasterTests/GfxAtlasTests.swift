import Foundation
import LoaderCore
import SwiftLoaderCairoReference
import SwiftLoaderCanvas
import SwiftLoaderSupport
import SwiftLoaderTestSupport
import Testing

@testable import LoaderSDL

/// `GfxRingRasterizer`: SDL2_gfx's rings painted once per phase and copied per ring.
@Suite struct GfxAtlasTests {
  static let angles: [Float] = [0, 17, 60, 123.4, 359, 359.9]

  // Each ring's crop against Cairo at every angle: `RasterQualityTests`, which draws `gfx`.

  /// Centres between pixels take the nearest of the 4 x 4 sub-pixel cells: still 30 dB per
  /// ring against Cairo at the exact position, for offsets across a pixel.
  @Test(arguments: [1.0, 2.0])
  func fractionalCentresMatchCairo(scale: Double) throws {
    let offsets: [Float] = [0.1, 0.3, 0.45, 0.6, 0.87]
    var scene = RasterScene.seedRow(
      density: scale, palette: .light, angles: [33, 90, 181, 250, 300])
    for i in scene.rings.indices {
      scene.rings[i].centerX += offsets[i] * Float(scale)
      scene.rings[i].centerY += offsets[(i + 2) % 5] * Float(scale)
    }
    let reference = try scene.renderCairo()
    let pixels = try scene.render(with: GfxRingRasterizer())
    for i in scene.rings.indices {
      let db = ImageComparison.psnr(
        pixels, reference, width: scene.width, rect: scene.crop(ofRing: i))
      #expect(db >= 30, "ring \(i) at +\(offsets[i]) px, scale \(scale): \(db) dB")
    }
  }

  /// On an accelerated renderer a shape is one texture turned per ring: 30 dB a ring against
  /// Cairo at any angle and sub-pixel position, at densities 1, 1.5 and 2, opaque and
  /// translucent.
  @Test(
    .enabled(
      if: OffscreenCanvas.openGLAvailable, "no OpenGL renderer on SDL's offscreen driver here"),
    arguments: [1.0, 1.5, 2.0])
  func turnedTexturesMatchCairo(density: Double) throws {
    var worst = Double.infinity
    for round in 0..<6 {
      var scene = RasterScene.seedRow(
        density: density, palette: round % 2 == 0 ? .light : .dark,
        angles: (0..<5).map { Float(round * 61 + $0 * 37) + 0.37 * Float(round) })
      for i in scene.rings.indices {
        scene.rings[i].centerX += Float((round * 5 + i) % 7) * 0.137 * Float(density)
        scene.rings[i].centerY += Float((round * 3 + i) % 5) * 0.211 * Float(density)
        if round == 5 { scene.rings[i].color.a = 128 }
      }
      let canvas = try OffscreenCanvas.openGL(width: scene.width, height: scene.height)
      let reference = try scene.renderCairo()
      let pixels = try scene.render(with: GfxRingRasterizer(), on: canvas)
      for i in scene.rings.indices {
        let db = ImageComparison.psnr(
          pixels, reference, width: scene.width, rect: scene.crop(ofRing: i))
        worst = min(worst, db)
        #expect(db >= 30, "round \(round), ring \(i), density \(density): \(db) dB")
      }
    }
    print("turned textures at density \(density): worst ring \(worst) dB")
  }

  /// A ring whose texture at twice its size would pass `GfxShapeTexture.fineBytes` is painted
  /// at its own size: still 30 dB a ring against Cairo (the bound forced down here, for rings
  /// of every size from the seed's at density 2 to 200 pixels across).
  @Test(
    .enabled(
      if: OffscreenCanvas.openGLAvailable, "no OpenGL renderer on SDL's offscreen driver here"),
    arguments: [2.0, 4.0])
  func turnedTexturesAtTheirOwnSizeMatchCairo(density: Double) throws {
    var scene = RasterScene.seedRow(
      density: density, palette: .light, angles: [11.1, 97.3, 181.7, 263.2, 333.9])
    for i in scene.rings.indices { scene.rings[i].centerX += 0.37 * Float(i) }
    let canvas = try OffscreenCanvas.openGL(width: scene.width, height: scene.height)
    let reference = try scene.renderCairo()
    let backend = GfxRingRasterizer(subpixelSteps: 4, cellBudgetBytes: 1)
    let pixels = try scene.render(with: backend, on: canvas)
    let cell = try #require(
      canvas.loaderRenderer.cache(of: scene.shape, drawnWith: backend) as? GfxShapeTexture)
    #expect(cell.supersampling == 1)
    for i in scene.rings.indices {
      let db = ImageComparison.psnr(
        pixels, reference, width: scene.width, rect: scene.crop(ofRing: i))
      #expect(db >= 30, "ring \(i), density \(density), at its own size: \(db) dB")
    }
  }

  /// A colour of alpha 0.5 blends straight, source-over: `bg + (c - bg) * coverage * 0.5`.
  /// Against Cairo stroking the same translucent colour, and on the centreline (coverage 1)
  /// the pixel is the half-way colour.
  @Test func halfAlphaBlendsSourceOver() throws {
    let translucent = LoaderPalette.light.ringColors.map {
      RGBAColor(r: $0.r, g: $0.g, b: $0.b, a: 128)
    }
    var scene = RasterScene.seedRow(density: 1, palette: .dark, angles: [0, 45, 90, 200, 300])
    for i in scene.rings.indices { scene.rings[i].color = translucent[i] }
    let reference = try scene.renderCairo()
    let pixels = try scene.render(with: GfxRingRasterizer())
    for i in scene.rings.indices {
      let db = ImageComparison.psnr(
        pixels, reference, width: scene.width, rect: scene.crop(ofRing: i))
      #expect(db >= 30, "ring \(i) at alpha 128: \(db) dB")
    }
    // The first dash starts at 3 o'clock; the ring at angle 0 has ink 1 px along it there.
    let ring = scene.rings[0]
    let x = Int(ring.centerX + Float(scene.shape.radius))
    let y = Int(ring.centerY) + 1
    let got = RGBAColor(hex: pixels[y * scene.width + x] & 0xFF_FFFF)
    let bg = scene.palette.background
    for (g, c, b) in [
      (got.r, ring.color.r, bg.r), (got.g, ring.color.g, bg.g), (got.b, ring.color.b, bg.b),
    ] {
      let want = Double(b) + (Double(c) - Double(b)) * 128 / 255
      #expect(abs(Double(g) - want) <= 2, "centreline pixel \(got) against \(want)")
    }
  }

  /// After `renderTargetsDidReset` the atlas is painted afresh and the frame is the same;
  /// a transparent colour draws nothing.
  @Test func aResetRendererDrawsTheSameFrame() throws {
    let scene = RasterScene.seedRow(density: 1, palette: .dark, angles: [12, 100, 200, 300, 359.5])
    let canvas = try OffscreenCanvas(width: scene.width, height: scene.height)
    let backend = GfxRingRasterizer()
    func frame(_ rings: [RingInstance]) throws -> [UInt32] {
      canvas.clear(scene.palette.background)
      try canvas.loaderRenderer.draw(rings, shape: scene.shape, with: backend)
      return canvas.argbPixels()
    }
    func atlas() -> GfxAtlas? {
      canvas.loaderRenderer.cache(of: scene.shape, drawnWith: backend) as? GfxAtlas
    }
    let blank = try frame([])
    let before = try frame(scene.rings)
    #expect(before != blank)
    let first = try #require(atlas())
    canvas.loaderRenderer.renderTargetsDidReset()
    #expect(atlas() == nil)
    let after = try frame(scene.rings)
    #expect(after == before)
    #expect(atlas() !== first, "the atlas was painted again")
    var clear = scene.rings
    for i in clear.indices { clear[i].color.a = 0 }
    #expect(try frame(clear) == blank)
  }

  /// The atlas's sizes for the seed ring, as its documentation states them, and a scene
  /// larger than a tiny budget still draws the same pixels (cells evicted and repainted).
  @Test func atlasSizesAndEviction() throws {
    let scene = RasterScene.seedRow(density: 1, palette: .light, angles: [5, 77, 140, 222, 333])
    let canvas = try OffscreenCanvas(width: scene.width, height: scene.height)
    let atlas = try GfxAtlas(shape: scene.shape, renderer: canvas.renderer)
    #expect(atlas.phases == 786)
    #expect(atlas.cellSide == 53)
    #expect(atlas.capacity == (64 << 20) / (53 * 53 * 4))
    let roomy = try scene.render(with: GfxRingRasterizer())
    let tight = try scene.render(with: GfxRingRasterizer(subpixelSteps: 4, cellBudgetBytes: 1))
    #expect(roomy == tight)
  }

  /// Where the atlas quantizes nothing (an angle on a phase, a centre on a quarter pixel)
  /// its copy is the direct SDL2_gfx drawing up to the blitter's 8-bit rounding, for every
  /// kind of style (caps, solid, dots, thin and thick lines), two overlapping colours, on
  /// light and dark. Opaque colours only: the direct backend, drawing a translucent colour,
  /// leaves out some fully covered pixels (`halfAlphaBlendsSourceOver` holds the atlas to
  /// Cairo there instead).
  @Test func copiesEqualTheDirectDrawingOnPhase() throws {
    let styles = [LoaderStyle.seed] + (try GfxRingPainterTests.otherStyles())
    let colors = [RGBAColor(hex: 0x0A84FF), RGBAColor(hex: 0xFF3B30)]
    for style in styles {
      for background in [RGBAColor(hex: 0xFFFFFF), RGBAColor(hex: 0x000000)] {
        let shape = DashedRing(style: style)
        let canvas = try OffscreenCanvas(width: 64, height: 64)
        let atlas = try GfxAtlas(shape: shape, renderer: canvas.renderer)
        let onPhase = Float(Double(37) * 360 / Double(atlas.phases))
        let rings = colors.enumerated().map { k, c in
          RingInstance(centerX: 30.25 + Float(k), centerY: 29.5, angle: onPhase, color: c)
        }
        canvas.clear(background)
        try GfxRingPainter().draw(rings, shape: shape, on: canvas.renderer)
        let direct = canvas.argbPixels()
        canvas.clear(background)
        try canvas.loaderRenderer.draw(rings, shape: shape, with: GfxRingRasterizer())
        let copied = canvas.argbPixels()
        var worst = 0
        for (a, b) in zip(direct, copied) {
          for shift: UInt32 in [0, 8, 16] {
            worst = max(worst, abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF)))
          }
        }
        #expect(worst <= 2, "\(style.dash) \(style.lineCap) width \(style.lineWidth): \(worst)")
      }
    }
  }

  /// A ring too large for any texture is an error naming its size, not a crash; a shape
  /// with no dashes draws nothing.
  @Test func shapesWithoutAnAtlas() throws {
    let canvas = try OffscreenCanvas(width: 16, height: 16)
    canvas.clear(.init(hex: 0xFFFFFF))
    let ring = RingInstance(centerX: 8, centerY: 8, angle: 0, color: .init(hex: 0xFF3B30))
    let huge = DashedRing(style: .seed).scaled(by: 400)
    #expect(throws: SDLError.self) {
      try canvas.loaderRenderer.draw([ring], shape: huge, with: GfxRingRasterizer())
    }
    do {
      try canvas.loaderRenderer.draw([ring], shape: huge, with: GfxRingRasterizer())
    } catch {
      #expect(error.description.contains("10000.0 px exceeds the gfx backend's limit"), "\(error)")
    }
    var empty = DashedRing(style: .seed)
    empty.dashes = []
    try canvas.loaderRenderer.draw([ring], shape: empty, with: GfxRingRasterizer())
    #expect(canvas.argbPixels().allSatisfy { $0 & 0xFF_FFFF == 0xFF_FFFF })
  }

  /// Rings partly or wholly off the target, at negative and huge coordinates, and with
  /// non-finite angles: clipped or skipped, never a crash.
  @Test func ringsOffTheTarget() throws {
    let canvas = try OffscreenCanvas(width: 64, height: 64)
    canvas.clear(.init(hex: 0xFFFFFF))
    let red = RGBAColor(hex: 0xFF3B30)
    let rings = [
      RingInstance(centerX: -3.3, centerY: 10, angle: 10, color: red),
      RingInstance(centerX: 60, centerY: 63.9, angle: -725, color: red),
      RingInstance(centerX: -1e9, centerY: 1e12, angle: 0, color: red),
      RingInstance(centerX: .nan, centerY: 5, angle: 0, color: red),
      RingInstance(centerX: 30, centerY: 30, angle: .infinity, color: red),
    ]
    try canvas.loaderRenderer.draw(
      rings, shape: DashedRing(style: .seed), with: GfxRingRasterizer())
    let white = RGBAColor(hex: 0xFFFFFF)
    #expect((0..<64).contains { canvas.pixel(x: 0, y: $0) != white }, "the ring crossing x = 0")
    #expect(canvas.pixel(x: 30 + 23, y: 31) == white, "the ring at angle inf")
  }
}

/// `GfxAtlasStrips`: the copy rectangles of a painted cell.
@Suite struct GfxAtlasStripsTests {
  /// At every sub-pixel offset and a spread of phases, at scales 0.35, 1 and 2: the
  /// rectangles cover every inked pixel exactly once (never twice: a pixel blended twice
  /// would come out darker) and skip most of the cell.
  @Test(arguments: [0.35, 1.0, 2.0])
  func rectanglesCoverTheInkOnce(scale: Double) throws {
    let shape = DashedRing(style: .seed).scaled(by: scale)
    let origin = Int((shape.radius + shape.halfWidth + 0.5).rounded(.up))
    let side = 2 * origin + 1
    let painter = try GfxAtlasCellPainter(side: side)
    var strips = GfxAtlasStrips()
    for degrees: Float in [0, 13, 90, 200.5, 359] {
      for (fx, fy): (Float, Float) in [(0, 0), (0.25, 0.75), (0.5, 0.5), (0.75, 0)] {
        let p = try painter.paint(
          shape, degrees: degrees, centerX: Float(origin) + fx, centerY: Float(origin) + fy)
        strips.cover(p.pixels, pitch: p.pitch, ink: p.ink, overhead: 48)
        let rects = strips.rects
        var hits = [Int](repeating: 0, count: side * side)
        for r in rects {
          for y in Int(r.y)..<Int(r.y + r.h) {
            for x in Int(r.x)..<Int(r.x + r.w) { hits[y * side + x] += 1 }
          }
        }
        var inked = 0
        for y in 0..<side {
          let row = p.pixels.advanced(by: y * p.pitch).assumingMemoryBound(to: UInt32.self)
          for x in 0..<side where row[x] >> 24 != 0 {
            inked += 1
            #expect(hits[y * side + x] == 1, "inked pixel \(x),\(y) at \(degrees) deg")
          }
        }
        #expect(hits.allSatisfy { $0 <= 1 }, "overlapping rectangles at \(degrees) deg")
        let area = hits.reduce(0, +)
        let box = Int(p.ink.w) * Int(p.ink.h)
        #expect(inked > 0)
        if scale >= 1 {
          #expect(area * 10 < box * 6, "\(rects.count) rectangles of \(area) px in a \(box) px box")
        }
      }
    }
  }
}

/// The bench's `raster/sprite` entries, run for real (quick sizes, the debug build): each
/// size gets a row with its PSNR against Cairo, the OpenGL one or a line saying why it was
/// skipped, and the ratios against the sprite follow.
@Suite struct SpriteBenchmarkTests {
  @Test func spriteEntriesReportTimeAndPSNR() throws {
    let r = try BuiltProduct.run(
      "bench", ["--quick", "--filter", "raster/sprite"],
      environment: ["BENCH_NO_RELAUNCH": "1"])
    #expect(r.status == 0, "stderr: \(r.stderr)")
    let rows = r.stdout.split(separator: "\n").filter { $0.hasPrefix("raster/sprite ") }
    #expect(rows.count == 2, "\(r.stdout)")
    for row in rows {
      let db = row.split(separator: ",").compactMap { part -> Double? in
        let t = part.trimmingCharacters(in: .whitespaces)
        return t.hasSuffix(" dB") ? Double(t.dropLast(3)) : nil
      }
      #expect(db.count == 1 && db[0] >= 25 && db[0] < 99, "\(row)")
    }
    let gl = r.stdout.split(separator: "\n").filter { $0.hasPrefix("raster/sprite-gl ") }
    #expect(gl.count == 2 || r.stdout.contains("# raster/sprite-gl: skipped"), "\(r.stdout)")
    #expect(r.stdout.contains("raster/sprite-gl vs raster/sprite @ 100 rings: ") || gl.isEmpty)
  }
}
