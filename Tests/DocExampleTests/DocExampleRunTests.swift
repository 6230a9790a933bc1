import CSwiftLoaderCairo
import Foundation
import LoaderSDL
import SwiftLoaderCanvas
import Testing

/// The documentation's examples that can run headless do, and do what they say: on an
/// `OffscreenCanvas` (SDL's software renderer), into buffers and a Cairo surface. (The event
/// loop, the whole SDL programs, which initialise and quit SDL, and the 10,000-loader grid are
/// only compiled.)
@Suite struct DocExampleRunTests {
  /// Whether `words` holds more than one value: something was drawn on a plain fill.
  static func drewSomething(_ words: [UInt32]) -> Bool { words.contains { $0 != words[0] } }

  @Test func theExportsWriteFiles() throws {
    let (svg, json) = try DocExamples.loaderExport()
    #expect(svg.hasPrefix("<svg") && !json.isEmpty)
    let (svg2, lottie) = try DocExamples.exportingForTheWeb()
    #expect(svg2.contains("<svg") && !lottie.isEmpty)
    #expect(try DocExamples.loaderCore().contains("<svg"))
    #expect(try DocExamples.gettingStartedWithTheModel().validate() == ())
  }

  @Test func theViewAndFieldExamplesDraw() throws {
    let canvas = try OffscreenCanvas(width: 390, height: 120)
    canvas.clear(LoaderPalette.light.background)
    var words = [UInt32](repeating: 0xFFFF_FFFF, count: 1280 * 720)
    try words.withUnsafeMutableBytes { raw in
      let buffer = PixelBuffer(
        base: raw.baseAddress, width: 1280, height: 720, bytesPerRow: 1280 * 4,
        format: .bgraPremultiplied, density: 1)
      let view = try DocExamples.loaderView(
        loaders: canvas.loaderRenderer, buffer: buffer, now: 0.35)
      #expect(!view.isAnimating)
      let field = try DocExamples.loaderField(renderer: canvas.renderer, buffer: buffer, now: 0.35)
      #expect(field.count == 1000)
      try DocExamples.loaderPixels(view: view, buffer: buffer, now: 0.4)
    }
    #expect(Self.drewSomething(words))
    canvas.flush()
    #expect(Self.drewSomething(canvas.argbPixels()))
    try DocExamples.loaderRenderer(renderer: canvas.renderer, event: SDL_Event(), now: 0.35)
    try DocExamples.loaderSDL(
      view: LoaderView(isAnimating: true), loaders: canvas.loaderRenderer, now: 0.35)
    #expect(Self.drewSomething(try DocExamples.readmePixels(now: 0.35)))
  }

  /// The error example replaces a closed renderer's `LoaderRenderer`, as it says.
  @Test func theErrorExampleReplacesAClosedRenderer() throws {
    let canvas = try OffscreenCanvas(width: 390, height: 120)
    var loaders = LoaderRenderer(canvas.renderer)
    let closed = loaders
    closed.close()
    DocExamples.loaderFieldError(
      view: LoaderView(isAnimating: true), loaders: &loaders, renderer: canvas.renderer,
      frame: SDL_FRect(x: 0, y: 0, w: 390, h: 120), now: 0)
    #expect(loaders !== closed && !loaders.isClosed)
  }

  @Test func theArticlesExamplesRun() throws {
    let canvas = try OffscreenCanvas(width: 390, height: 120)
    let view = LoaderView(isAnimating: true)
    let styled = try DocExamples.gettingStartedToggleAndStyle(view: view, now: 0.2)
    #expect(!view.isAnimating && styled.style.lineCap == .butt)
    let field = try DocExamples.manyLoadersFree(loaders: canvas.loaderRenderer, now: 0.35)
    #expect(try field.isHidden(field.loaders[0]) && field.opacity(of: field.loaders[0]) == 0.5)
    try DocExamples.reducedMotion(view: view, userPrefersReducedMotion: true)
    #expect(view.motion == .pulse)
    let surface = try #require(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 580, 100))
    defer { cairo_surface_destroy(surface) }
    try DocExamples.inAnyProgramCairo(surface: surface, view: view, now: 0.35)
    cairo_surface_flush(surface)
    let data = try #require(cairo_image_surface_get_data(surface))
    let bytes = Array(UnsafeBufferPointer(start: data, count: 580 * 100 * 4))
    #expect(bytes.contains { $0 != 0 }, "nothing drawn on the Cairo surface")
    // The whole program of "In any program": ink on its white.
    #expect(try DocExamples.inAnyProgram().contains { $0 != 255 }, "nothing drawn")
  }

  @Test func theRecorderExampleWritesAGIF() throws {
    let canvas = try OffscreenCanvas(width: 390, height: 120)
    let view = LoaderView(isAnimating: true)
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("doc-example-\(getpid()).gif").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    var drawn = 0
    try DocExamples.frameRecorder(canvas: canvas, temporary: path) { t in
      canvas.clear(LoaderPalette.light.background)
      try view.draw(on: canvas.loaderRenderer, in: SDL_FRect(x: 0, y: 0, w: 390, h: 120), at: t)
      canvas.flush()
      drawn += 1
    }
    #expect(drawn == 62)
    let head = try #require(FileManager.default.contents(atPath: path)).prefix(6)
    #expect(String(decoding: head, as: UTF8.self) == "GIF89a")
  }
}
