import Foundation
import LoaderCore
import LoaderSDL
import SwiftLoaderCanvas

/// Real ring frames: the seed's row drawn by `GfxRingPainter` on an `OffscreenCanvas` at
/// the angles `LoaderTimeline` gives (on from `t = 0`), so every test encodes what the demo
/// draws.
struct SeedFrames {
  var width = 390
  var height = 120
  var palette = LoaderPalette.light
  var style = LoaderStyle.seed

  /// One `0xAARRGGBB` frame per time, row-major.
  func render(at times: [Double]) throws -> [[UInt32]] {
    let canvas = try OffscreenCanvas(width: width, height: height)
    let rasterizer = GfxRingPainter()
    let timeline = LoaderTimeline(style: style, animatingFrom: 0)
    let frames = RowLayout.frames(width: Double(width), height: Double(height), style: style)
    let shape = DashedRing(style: style)
    return try times.map { t in
      let angles = timeline.angles(at: t)
      let rings = frames.indices.map { i in
        RingInstance(
          centerX: Float(frames[i].midX), centerY: Float(frames[i].midY),
          angle: Float(angles[i].truncatingRemainder(dividingBy: 360)),
          color: palette.ringColors[i % palette.ringColors.count])
      }
      canvas.clear(palette.background)
      try rasterizer.draw(rings, shape: shape, on: canvas.renderer)
      return canvas.argbPixels()
    }
  }
}

/// A fresh path in the temporary directory, removed by nothing: tests remove what they make.
func temporaryPath(_ name: String) -> String {
  let dir = FileManager.default.temporaryDirectory.path
  return "\(dir)/frame-recording-\(getpid())-\(UInt64.random(in: 0...UInt64.max))-\(name)"
}
