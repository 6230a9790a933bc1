import CSwiftLoaderSDL2
import Foundation
import LoaderCore
import SwiftLoaderCanvas
import SwiftLoaderSupport
import SwiftLoaderTestSupport
import Testing

@testable import LoaderSDL

@Suite struct OffscreenCanvasTests {
  @Test func clearsAndSavesAPNG() throws {
    let c = try OffscreenCanvas(width: 8, height: 4)
    c.clear(RGBAColor(hex: 0x102030))
    #expect(c.pixel(x: 7, y: 3) == RGBAColor(hex: 0x102030))
    let dir = try ScratchDirectory("canvas")
    defer { dir.remove() }
    let bytes = try c.pngData()
    #expect(bytes.prefix(4) == [0x89, 0x50, 0x4E, 0x47])
    try OutputFile.write(bytes, to: dir.file("a.png"))
    let image = try PNGImage(path: dir.file("a.png"))
    #expect(image.width == 8 && image.height == 4)
    #expect(image.pixels.allSatisfy { $0 == 0x102030 })
    #expect(dir.contents() == ["a.png"])
    #expect(throws: SDLError.self) { try OffscreenCanvas(width: 0, height: 4) }
  }

  /// A host's video subsystem stays up, windows and all, when a library call makes an OpenGL
  /// canvas: the canvas joins the driver that is up (`SDL_VideoInit` would shut it down
  /// first, closing every window). The video the "host" finds up was brought up by a canvas
  /// (`OffscreenCanvas.openGLAvailable` makes one before this test runs), which is the same
  /// situation as a host's own: one driver up, the host's window on it.
  @Test(
    .enabled(
      if: OffscreenCanvas.openGLAvailable, "no OpenGL renderer on SDL's offscreen driver here"))
  func anOpenGLCanvasLeavesTheHostsWindowsOpen() throws {
    // The "host" brings video up through the canvases' lock: an `SDL_VideoInit` of its own
    // racing a canvas's on another test's thread would leave one of them without a driver.
    // Its own window too: SDL's window list is not thread-safe, and other tests' canvases open
    // and close windows on other threads (under that lock).
    try OffscreenCanvas.bringUpVideo()
    let made = OffscreenCanvas.withVideoLock {
      SDL_CreateWindow("host", 0, 0, 16, 16, SDL_WINDOW_HIDDEN.rawValue)
    }
    let window = try #require(made, "SDL_CreateWindow: \(String(cString: SDL_GetError()))")
    defer { OffscreenCanvas.withVideoLock { SDL_DestroyWindow(window) } }
    let id = SDL_GetWindowID(window)
    let canvas = try OffscreenCanvas.openGL(width: 8, height: 8)
    let found = OffscreenCanvas.withVideoLock { SDL_GetWindowFromID(id) }
    #expect(found == window, "the host's window was closed")
    #expect(OffscreenCanvas.withVideoLock { SDL_GetCurrentVideoDriver() } != nil)
    withExtendedLifetime(canvas) {}
  }
}
