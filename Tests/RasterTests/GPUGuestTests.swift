import CSwiftLoaderSDL2
import LoaderCore
import SwiftLoaderCanvas
import SwiftLoaderTestSupport
import Testing

@testable import LoaderSDL

/// `gpu` as a guest in SDL's own OpenGL context, on SDL's `opengl` renderer and on its
/// `opengles2` renderer: under every render state a host sets (`HostRenderStateCase`) it
/// leaves every piece of GL state it touches as it found it, and the host's own draws after it
/// (textured copies, fills in several blend modes, lines, geometry, a clip of its own) come
/// out exactly as they do without it. The ring pictures themselves are held to Cairo under
/// the same states by `HostRenderStateTests`.
@Suite(.serialized) struct GPUGuestTests {
  static let drivers = ["opengl", "opengles2"]

  /// An OpenGL canvas of the host-state size on `driver`, or nil (with the reason recorded)
  /// where SDL cannot make that renderer here.
  static func canvas(_ driver: String) throws -> OffscreenCanvas {
    let c = try OffscreenCanvas.openGL(
      width: HostRenderStateCase.canvasWidth, height: HostRenderStateCase.canvasHeight,
      driver: driver)
    #expect(c.rendererName == driver, "asked for \(driver), got \(c.rendererName)")
    return c
  }

  /// A 4x4 texture of the host's, a pattern of opaque and translucent texels.
  static func hostTexture(_ r: OpaquePointer) throws -> OpaquePointer {
    let t = try #require(
      SDL_CreateTexture(
        r, SDL_PIXELFORMAT_ARGB8888.rawValue, Int32(SDL_TEXTUREACCESS_STATIC.rawValue), 4, 4))
    var texels = (0..<16).map { i -> UInt32 in
      i % 3 == 0 ? 0x80FF_2040 : UInt32(0xFF00_0000) | UInt32(i * 0x0F0B07)
    }
    SDL_UpdateTexture(t, nil, &texels, 16)
    return t
  }

  /// The host's frame under `state`: its draws before, the loaders (`gpu`) when `withLoaders`,
  /// and its draws after, one of them an opaque copy over the loaders' frame; the target's
  /// pixels read back.
  static func hostFrame(
    _ state: HostRenderStateCase, on canvas: OffscreenCanvas, texture: OpaquePointer,
    withLoaders: Bool
  ) throws -> [UInt32] {
    let r = canvas.renderer
    let outer = SDL_GetRenderTarget(r)
    let made = try state.apply(to: r)
    defer {
      SDL_SetRenderTarget(r, outer)
      if let made { SDL_DestroyTexture(made) }
      SDL_RenderSetClipRect(r, nil)
      SDL_RenderSetLogicalSize(r, 0, 0)
      SDL_RenderSetViewport(r, nil)
      SDL_RenderSetScale(r, 1, 1)
    }
    SDL_SetRenderDrawColor(r, 255, 255, 255, 255)
    SDL_RenderClear(r)
    // Before: a blended copy and an additive fill.
    SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
    var a = SDL_FRect(x: 2, y: 3, w: 40, h: 30)
    SDL_RenderCopyF(r, texture, nil, &a)
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_ADD)
    SDL_SetRenderDrawColor(r, 40, 0, 90, 128)
    var b = SDL_FRect(x: 300, y: 100, w: 60, h: 20)
    SDL_RenderFillRectF(r, &b)
    if withLoaders {
      let view = try LoaderView(isAnimating: true, style: .seed, backend: .gpu, appearingAt: 0)
      try view.draw(on: canvas.loaderRenderer, in: state.frame, at: HostRenderStateCase.time)
      #expect(view.activeBackend == .gpu)
    }
    // After: first the same draws as before, clear of the rings, so that SDL, whose cached
    // state says it is all set already, sets nothing again (a program, blend factors or
    // vertex arrays left changed would show here); then the loaders' frame covered by an
    // opaque copy, blended and modulated draws over it and beside it, a line, geometry, and
    // a clip of the host's own.
    SDL_RenderFillRectF(r, &b)
    SDL_RenderCopyF(r, texture, nil, &a)
    SDL_RenderFillRectF(r, &b)
    SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_NONE)
    var cover = state.frame
    SDL_RenderCopyF(r, texture, nil, &cover)
    SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_MOD)
    var c = SDL_FRect(x: cover.x + 10, y: cover.y + 5, w: 120, h: 40)
    SDL_RenderCopyF(r, texture, nil, &c)
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND)
    SDL_SetRenderDrawColor(r, 0, 200, 40, 100)
    var d = SDL_FRect(x: cover.x + 60, y: cover.y + 20, w: 200, h: 60)
    SDL_RenderFillRectF(r, &d)
    SDL_RenderDrawLineF(r, 0, 0, 390, 120)
    let triangle = [
      SDL_Vertex(
        position: SDL_FPoint(x: 100, y: 10), color: SDL_Color(r: 255, g: 0, b: 0, a: 200),
        tex_coord: SDL_FPoint()),
      SDL_Vertex(
        position: SDL_FPoint(x: 180, y: 100), color: SDL_Color(r: 0, g: 0, b: 255, a: 90),
        tex_coord: SDL_FPoint()),
      SDL_Vertex(
        position: SDL_FPoint(x: 20, y: 110), color: SDL_Color(r: 0, g: 255, b: 0, a: 255),
        tex_coord: SDL_FPoint()),
    ]
    SDL_RenderGeometry(r, nil, triangle, 3, nil, 0)
    var clip = SDL_Rect(x: 50, y: 40, w: 100, h: 50)
    SDL_RenderSetClipRect(r, &clip)
    SDL_SetRenderDrawColor(r, 10, 20, 30, 255)
    var e = SDL_FRect(x: 0, y: 0, w: 400, h: 300)
    SDL_RenderFillRectF(r, &e)
    SDL_RenderSetClipRect(r, nil)
    // Read back in target pixels.
    SDL_RenderSetLogicalSize(r, 0, 0)
    SDL_RenderSetViewport(r, nil)
    SDL_RenderSetScale(r, 1, 1)
    let w = HostRenderStateCase.canvasWidth
    var pixels = [UInt32](repeating: 0, count: w * HostRenderStateCase.canvasHeight)
    let status = pixels.withUnsafeMutableBytes {
      SDL_RenderReadPixels(r, nil, SDL_PIXELFORMAT_ARGB8888.rawValue, $0.baseAddress, Int32(w * 4))
    }
    try #require(status == 0, "SDL_RenderReadPixels: \(String(cString: SDL_GetError()))")
    return pixels
  }

  @Test(
    .enabled(
      if: OffscreenCanvas.openGLAvailable, "no OpenGL renderer on SDL's offscreen driver here"),
    arguments: drivers)
  func theHostsDrawsAfterOursComeOutAsWithoutUs(driver: String) throws {
    let canvas = try Self.canvas(driver)
    let texture = try Self.hostTexture(canvas.renderer)
    defer { SDL_DestroyTexture(texture) }
    for state in HostRenderStateCase.allCases {
      let without = try Self.hostFrame(state, on: canvas, texture: texture, withLoaders: false)
      let with = try Self.hostFrame(state, on: canvas, texture: texture, withLoaders: true)
      let differing = zip(without, with).count { $0 != $1 }
      #expect(differing == 0, "\(driver) \(state): \(differing) pixels differ")
    }
  }

  /// Every piece of GL state the backend touches reads the same before and after its draw.
  @Test(
    .enabled(
      if: OffscreenCanvas.openGLAvailable, "no OpenGL renderer on SDL's offscreen driver here"),
    arguments: drivers)
  func theContextIsLeftAsFound(driver: String) throws {
    let canvas = try Self.canvas(driver)
    let r = canvas.renderer
    let texture = try Self.hostTexture(r)
    defer { SDL_DestroyTexture(texture) }
    let support = GPUSupport(r)
    try #require(support.isOffered, "\(driver): \(support.reason)")
    #expect(support.openGLES == (driver == "opengles2"), "\(support.version)")
    let gl = try #require(support.functions)
    for state in HostRenderStateCase.allCases {
      let made = try state.apply(to: r)
      var a = SDL_FRect(x: 2, y: 3, w: 40, h: 30)
      SDL_RenderCopyF(r, texture, nil, &a)
      GPUSupport.makeContextCurrent(r)
      let before = GLStateSnapshot(
        gl, unit: GPURingRasterizer.tableUnit, openGLES: support.openGLES)
      let view = try LoaderView(isAnimating: true, style: .seed, backend: .gpu, appearingAt: 0)
      try view.draw(on: canvas.loaderRenderer, in: state.frame, at: HostRenderStateCase.time)
      SDL_RenderFlush(r)
      let after = GLStateSnapshot(gl, unit: GPURingRasterizer.tableUnit, openGLES: support.openGLES)
      #expect(before == after, "\(driver) \(state): GL state changed")
      #expect(gl.getError() == 0, "\(driver) \(state): a GL error")
      SDL_SetRenderTarget(r, nil)
      if let made { SDL_DestroyTexture(made) }
      SDL_RenderSetClipRect(r, nil)
      SDL_RenderSetLogicalSize(r, 0, 0)
      SDL_RenderSetViewport(r, nil)
      SDL_RenderSetScale(r, 1, 1)
    }
  }

  /// The seed row under every host state on SDL's GLES2 renderer: where SDL's own calls put
  /// it, at least 30 dB per ring against Cairo, nothing inked off the rings, the renderer's
  /// state as found (`HostRenderStateTests` does the same on `opengl`).
  @Test(
    .enabled(
      if: OffscreenCanvas.openGLAvailable, "no OpenGL renderer on SDL's offscreen driver here"))
  func theRowIsRightOnOpenGLES() throws {
    let canvas = try Self.canvas("opengles2")
    for state in HostRenderStateCase.allCases {
      let expected = try HostDrawingCheck(state)
      for backend in RingBackend.allCases {
        let drawing = try HostDrawing.draw(
          state, backend: backend, on: canvas.loaderRenderer, renderer: canvas.renderer)
        #expect(drawing.stateAfter == drawing.stateBefore, "\(backend) \(state): state changed")
        let problems = expected.problems(in: drawing.pixels)
        #expect(problems.isEmpty, "\(backend) \(state): \(problems.joined(separator: "; "))")
      }
    }
  }
}

/// What `gpu` uploads a frame: every ring's angle, and of the records (place, colour, shape)
/// only those that changed.
@Suite struct GPUUploadTests {
  @Test(
    .enabled(
      if: OffscreenCanvas.openGLAvailable, "no OpenGL renderer on SDL's offscreen driver here"))
  func aSteadyFieldUploadsItsAnglesAlone() throws {
    let canvas = try OffscreenCanvas.openGL(width: 400, height: 300)
    let field = try LoaderField(style: .seed, layout: .free, backend: .gpu)
    var ids: [LoaderID] = []
    for i in 0..<6 {
      ids.append(
        try field.addLoader(
          isAnimating: true, at: 0,
          frame: SDL_FRect(x: Float(i % 3) * 130, y: Float(i / 3) * 120, w: 120, h: 50)))
    }
    let gpu = try #require(try canvas.loaderRenderer.rasterizer(.gpu) as? GPURingRasterizer)
    try field.draw(on: canvas.loaderRenderer, at: 0.1)
    #expect(gpu.recordsUploaded == 30, "the first frame: every ring")
    let first = canvas.argbPixels()
    try field.draw(on: canvas.loaderRenderer, at: 0.4)
    #expect(gpu.recordsUploaded == 0, "the rings turned, nothing else changed")
    #expect(canvas.argbPixels() != first, "the turned rings were drawn")
    try field.setFrame(SDL_FRect(x: 200, y: 200, w: 120, h: 50), of: ids[4])
    try field.draw(on: canvas.loaderRenderer, at: 0.5)
    #expect(gpu.recordsUploaded == 5, "one loader moved: its five rings")
  }
}
