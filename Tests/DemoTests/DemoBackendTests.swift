import Foundation
import LoaderCore
import LoaderSDL
import SwiftLoaderSupport
import SwiftLoaderTestSupport
import Testing

/// `--backend`: every backend renders the demo's frames headless, and they agree.
@Suite struct DemoBackendTests {
  /// The first frame, and whether the run said its backend draws below the quality bar.
  func frame(_ arguments: [String]) throws -> (image: PNGImage, belowBar: Bool) {
    let dir = try ScratchDirectory("backend")
    defer { dir.remove() }
    let r = try DemoProcess.run(arguments + ["--out", dir.path])
    try #require(r.status == 0, "stderr: \(r.stderr)")
    let name = try #require(dir.contents().first { $0.hasPrefix("frame-0000-") })
    return (try PNGImage(path: dir.file(name)), r.stderr.contains("quality bar"))
  }

  /// The seed row (scale 2, dark) and a grid of 60 (rings 11 pixels across) from each
  /// backend, compared pairwise over the whole frame, at least 30 dB. Headless, `gfx` and
  /// `spans` draw on SDL's software renderer and `gpu` on OpenGL through SDL's offscreen
  /// (EGL) driver; no run says it is below the quality bar.
  @Test(arguments: [
    ["--at", "0.35", "--zoom", "2", "--theme", "dark"],
    ["--count", "60", "--size", "640x360", "--at", "1.3", "--toggle-random", "3"],
  ])
  func everyBackendDrawsTheSameFrame(arguments: [String]) throws {
    var frames: [(RingBackend, PNGImage)] = []
    var belowBar: Set<RingBackend> = []
    for backend in RingBackend.allCases {
      let (image, below) = try frame(arguments + ["--backend", backend.rawValue])
      frames.append((backend, image))
      if below { belowBar.insert(backend) }
    }
    #expect(belowBar.isEmpty, "\(belowBar) said below the bar")
    for (backend, image) in frames {
      // Something was drawn: at least 5% of the pixels are not the background's colour.
      let bg = image.pixels[0]
      let inked = image.pixels.count { $0 != bg }
      #expect(inked * 20 > image.pixels.count, "\(backend): \(inked) pixels drawn")
    }
    for i in frames.indices {
      for j in frames.indices where j > i {
        let a = frames[i]
        let b = frames[j]
        try #require(a.1.width == b.1.width && a.1.height == b.1.height)
        let db = ImageComparison.psnr(a.1.pixels, b.1.pixels, width: a.1.width)
        let bar = belowBar.contains(a.0) || belowBar.contains(b.0) ? 22.0 : 30.0
        #expect(db >= bar, "\(a.0) vs \(b.0) \(arguments): \(db) dB")
      }
    }
  }
}
