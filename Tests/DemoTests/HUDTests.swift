import CSwiftLoaderSDL2
import Foundation
import LoaderCore
import LoaderSDL
import SwiftLoaderCanvas
import SwiftLoaderTestSupport
import Testing

@testable import SwiftLoaderDemo

/// The HUD's figures (no SDL), and its pixels on an offscreen frame.
@Suite struct HUDStatisticsTests {
  @Test func emptyShowsZeros() {
    let s = HUDStatistics()
    #expect(s.framesPerSecond == 0)
    #expect(s.percentile(0.5) == 0)
    #expect(s.graph().isEmpty)
  }

  /// 60 frames of 10 ms then 1 of 50 ms: the last second holds 96 frames (0.05 + 95 * 0.01 =
  /// 1.0), the p99 is the slow one, the p50 a 10 ms one.
  @Test func percentilesAndRateCoverTheLastSecond() {
    var s = HUDStatistics()
    for _ in 0..<200 { s.record(frameTime: 0.010) }
    s.record(frameTime: 0.050)
    #expect(s.lastSecond().count == 96)
    #expect(s.percentile(0.5) == 0.010)
    #expect(s.percentile(0.99) == 0.050)
    #expect(s.percentile(0.98) == 0.010)
    #expect(abs(s.framesPerSecond - 96.0) < 1e-9)
    // A second of 20 ms frames pushes the slow frame out.
    for _ in 0..<50 { s.record(frameTime: 0.020) }
    #expect(s.percentile(1) == 0.020)
    #expect(abs(s.framesPerSecond - 50) < 1e-6)
  }

  @Test func graphKeepsTheLast240OldestFirst() {
    var s = HUDStatistics()
    for n in [0, 1, 2, 239, 240, 241, 5000] {
      s = HUDStatistics()
      for k in 0..<n { s.record(frameTime: Double(k) / 1e6) }
      let g = s.graph()
      #expect(g.count == min(n, 240), "n = \(n)")
      #expect(g.last == (n > 0 ? Double(n - 1) / 1e6 : nil))
      #expect(g.first == (n > 0 ? Double(max(0, n - 240)) / 1e6 : nil))
    }
  }

  @Test func dropsTimesThatAreNotTimes() {
    var s = HUDStatistics()
    for t in [Double.nan, .infinity, -1, -.infinity] { s.record(frameTime: t) }
    #expect(s.count == 0)
    s.record(frameTime: 0)
    #expect(s.framesPerSecond == 0)
  }

  @Test func budgetColours() {
    #expect(HUDStatistics.budget(of: 0.016) == .met)
    #expect(HUDStatistics.budget(of: 1.0 / 60) == .met)
    #expect(HUDStatistics.budget(of: 0.020) == .missed)
    #expect(HUDStatistics.budget(of: 0.034) == .far)
  }
}

@Suite struct HUDPixelTests {
  static let info = HUD.Info(
    loaders: 1, rings: 5, animating: 1, backend: "spans", renderer: "software", speed: 1)

  /// The seed row at t = 0.35 on a 640 x 360 canvas.
  func seedFrame() throws -> OffscreenCanvas {
    let canvas = try OffscreenCanvas(width: 640, height: 360)
    let timeline = LoaderTimeline(style: .seed, animatingFrom: 0)
    let frames = RowLayout.frames(width: 640, height: 360)
    let angles = timeline.angles(at: 0.35)
    let rings = frames.indices.map {
      RingInstance(
        centerX: Float(frames[$0].midX), centerY: Float(frames[$0].midY),
        angle: Float(angles[$0]), color: LoaderPalette.light.ringColors[$0])
    }
    canvas.clear(LoaderPalette.light.background)
    try GfxRingPainter().draw(rings, shape: DashedRing(style: .seed), on: canvas.renderer)
    return canvas
  }

  /// Text pixels (light, on the dark panel) in the top-left corner; every pixel outside the
  /// panel as it was.
  @Test func hudDrawsTextInItsCornerOnly() throws {
    let canvas = try seedFrame()
    let before = canvas.argbPixels()
    let hud = try HUD()
    for k in 0..<300 { hud.record(frameTime: k % 50 == 0 ? 0.040 : 0.012) }
    let rect = try #require(try hud.draw(on: canvas.renderer, stats: Self.info))
    let after = canvas.argbPixels()
    #expect(rect.x < 20 && rect.y < 20, "top-left corner: \(rect)")
    #expect(rect.x + rect.w < 640 && rect.y + rect.h < 360)
    var text = 0
    var outsideChanged = 0
    for y in 0..<360 {
      for x in 0..<640 {
        let inside = x >= rect.x && x < rect.x + rect.w && y >= rect.y && y < rect.y + rect.h
        let p = after[y * 640 + x]
        if inside {
          let r = (p >> 16) & 0xFF
          let g = (p >> 8) & 0xFF
          let b = p & 0xFF
          if r > 180, g > 180, b > 180 { text += 1 }
        } else if p != before[y * 640 + x] {
          outsideChanged += 1
        }
      }
    }
    #expect(text > 200, "light text pixels on the panel: \(text)")
    #expect(outsideChanged == 0)
    // Bars of each colour: frames of 12 ms (green) and 40 ms (red).
    let green = after.filter { $0 & 0xFF_FFFF == 0x34C759 }.count
    let red = after.filter { $0 & 0xFF_FFFF == 0xFF3B30 }.count
    #expect(green > 100 && red > 10, "green \(green), red \(red)")
  }

  @Test func hiddenHUDDrawsNothing() throws {
    let canvas = try seedFrame()
    let before = canvas.argbPixels()
    let hud = try HUD()
    hud.isVisible = false
    #expect(try hud.draw(on: canvas.renderer, stats: Self.info) == nil)
    #expect(canvas.argbPixels() == before)
  }

  /// The keys overlay: centred, and every listed key drawn (its panel holds text).
  @Test func keysOverlayIsCentred() throws {
    let canvas = try seedFrame()
    let hud = try HUD()
    hud.isVisible = false
    hud.showsKeys = true
    let rect = try #require(try hud.draw(on: canvas.renderer, stats: Self.info))
    #expect(abs(Int(rect.x) * 2 + Int(rect.w) - 640) <= 1)
    #expect(abs(Int(rect.y) * 2 + Int(rect.h) - 360) <= 1)
    #expect(rect.h > Int32(HUD.keyHelp.count) * 10)
  }

  @Test func fontIsDejaVuFromTheSystem() throws {
    let path = try HUDFont.locate()
    #expect(path.hasSuffix(".ttf"))
    #expect(path.contains("DejaVuSansMono"))
    #expect(HUDFont.Missing().description.contains("fonts-dejavu-core"))
  }
}

/// `Screenshot` reads back what a renderer drew.
@Suite struct ScreenshotTests {
  @Test func readsTheRenderersPixels() throws {
    let canvas = try HUDPixelTests().seedFrame()
    canvas.flush()
    let shot = try Screenshot(of: canvas.renderer)
    #expect(shot.width == 640 && shot.height == 360)
    let expected = canvas.argbPixels()
    var got = [UInt32](repeating: 0, count: 640 * 360)
    let pitch = Int(shot.surface.pointee.pitch)
    let base = try #require(shot.surface.pointee.pixels)
    for y in 0..<360 {
      let row = base.advanced(by: y * pitch).assumingMemoryBound(to: UInt32.self)
      for x in 0..<640 { got[y * 640 + x] = row[x] | 0xFF00_0000 }
    }
    #expect(got == expected.map { $0 | 0xFF00_0000 })
  }

  @Test func savesAPNGThatLoadsBack() throws {
    let canvas = try HUDPixelTests().seedFrame()
    canvas.flush()
    let scratch = try ScratchDirectory("screenshot")
    defer { scratch.remove() }
    let dir = scratch.path
    let path = try Screenshot.save(of: canvas.renderer, in: dir)
    #expect(path.hasPrefix(dir + "/screenshot-") && path.hasSuffix(".png"))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: dir).count == 1, "no temporary left")
    let loaded = try #require(IMG_Load(path))
    defer { SDL_FreeSurface(loaded) }
    #expect(loaded.pointee.w == 640 && loaded.pointee.h == 360)
    let name = Screenshot.fileName(at: Date(timeIntervalSince1970: 1_800_000_000.25))
    #expect(name.wholeMatch(of: /screenshot-\d{8}-\d{6}-250\.png/) != nil, "\(name)")
  }

  @Test func unwritableDirectoryIsAnError() throws {
    let canvas = try HUDPixelTests().seedFrame()
    #expect(throws: SDLError.self) {
      _ = try Screenshot.save(of: canvas.renderer, in: "/nonexistent-\(getpid())")
    }
  }
}

/// `--hud on|off` headless, through the demo: the HUD is drawn into the PNG, in its corner.
@Suite struct DemoHUDTests {
  func frame(_ extra: [String]) throws -> PNGImage {
    let dir = try ScratchDirectory("hud")
    defer { dir.remove() }
    let r = try DemoProcess.run(
      ["--at", "0.35", "--size", "640x360", "--out", dir.path] + extra)
    try #require(r.status == 0, "\(r.stderr)")
    return try PNGImage(path: dir.file("frame-0000-t0.350.png"))
  }

  /// With `--hud on`: light grey text on the dark panel in the top-left corner, and every
  /// pixel outside that corner (the rings included) as `--hud off` draws it; `--hud off` is
  /// the default headless and draws no panel at all.
  @Test func hudOnDrawsTextInItsCornerAndNothingElse() throws {
    let on = try frame(["--hud", "on"])
    let off = try frame(["--hud", "off"])
    let plain = try frame([])
    #expect(off.pixels == plain.pixels)
    let corner = (width: 320, height: 160)
    var text = 0
    var panel = 0
    var changedOutside = 0
    var offDark = 0
    for y in 0..<360 {
      for x in 0..<640 {
        let p = on.pixels[y * 640 + x]
        let (r, g, b) = ((p >> 16) & 0xFF, (p >> 8) & 0xFF, p & 0xFF)
        if x < corner.width, y < corner.height {
          if r == g, g == b, r >= 150, r <= 245 { text += 1 }
          if r < 80, g < 80, b < 80 { panel += 1 }
          let q = off.pixels[y * 640 + x]
          if q & 0xFF < 80, (q >> 8) & 0xFF < 80, (q >> 16) & 0xFF < 80 { offDark += 1 }
        } else if p != off.pixels[y * 640 + x] {
          changedOutside += 1
        }
      }
    }
    #expect(text > 200, "text pixels in the corner: \(text)")
    #expect(panel > 10_000, "panel pixels in the corner: \(panel)")
    #expect(changedOutside == 0, "pixels changed outside the corner: \(changedOutside)")
    #expect(offDark == 0, "--hud off: dark pixels in the corner: \(offDark)")
    // The rings are still there: the seed's red outside the corner.
    #expect(on.pixels.contains(0xFF3B30))
  }
}
