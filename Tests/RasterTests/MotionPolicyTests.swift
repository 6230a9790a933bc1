import CSwiftLoaderSDL2
import LoaderCore
import SwiftLoaderCanvas
import Testing

@testable import LoaderSDL

/// The reduced-motion policies a user picks (`LoaderField.Motion`) and the frame-rate cap.
@Suite struct MotionPolicyTests {
  static let row = SDL_FRect(x: 0, y: 0, w: 390, h: 120)

  /// `.slow(factor:)`: every ring at `factor` times the full motion's unwrapped angle, the
  /// schedule unchanged; `.still`: every ring at 0, opaque, at every time.
  @Test func slowAndStillDrawWhatTheyPromise() throws {
    let reference = LoaderTimeline(style: .seed, animatingFrom: 0)
    for factor in [0.1, 0.25, 0.5, 0.99] {
      let view = LoaderView(isAnimating: true)
      try view.setMotion(.slow(factor: factor))
      for t in stride(from: 0.0, through: 4, by: 0.05) {
        for (i, ring) in try view.field.rings(in: Self.row, at: t).enumerated() {
          let want = (reference.angle(ofRing: i, at: t) * factor).truncatingRemainder(
            dividingBy: 360)
          #expect(abs(Double(ring.angle) - want) < 1e-3, "factor \(factor) t \(t) ring \(i)")
          #expect(ring.color.a == 255)
        }
      }
    }
    let still = LoaderView(isAnimating: true)
    try still.setMotion(.still)
    for t in stride(from: 0.0, through: 4, by: 0.05) {
      for ring in try still.field.rings(in: Self.row, at: t) {
        #expect(ring.angle == 0 && ring.color.a == 255, "t \(t)")
      }
      #expect(still.nextChange(after: t) == nil, "nothing moves at \(t)")
    }
  }

  @Test func aSlowFactorOutsideZeroToOneIsRefused() throws {
    let view = LoaderView(isAnimating: true)
    for bad in [0, 1, -0.5, 2, .nan, .infinity] {
      #expect(throws: LoaderField.Error.self) { try view.setMotion(.slow(factor: bad)) }
    }
    #expect(view.motion == .full)
  }

  /// Pixels: `.still` draws the same frame at every time; the seed's motion does not.
  @Test func stillFramesAreIdentical() throws {
    let canvas = try OffscreenCanvas(width: 390, height: 120)
    func frame(_ view: LoaderView, at t: Double) throws -> [UInt32] {
      canvas.clear(LoaderPalette.light.background)
      try view.draw(on: canvas.loaderRenderer, in: Self.row, at: t)
      canvas.flush()
      return canvas.argbPixels()
    }
    let still = LoaderView(isAnimating: true)
    try still.setMotion(.still)
    let first = try frame(still, at: 0.3)
    #expect(first.contains { $0 != first[0] }, "the rings show")
    #expect(try frame(still, at: 0.9) == first)
    let moving = LoaderView(isAnimating: true)
    #expect(try frame(moving, at: 0.3) != frame(moving, at: 0.9))
  }

  /// With a cap of 20 frames a second, a moving loader asks for its next frame 50 ms after the
  /// last one drawn; without, at once; a stopped one never.
  @Test func theFrameRateCapSpacesNextChange() throws {
    let canvas = try OffscreenCanvas(width: 390, height: 120)
    let view = LoaderView(isAnimating: true)
    try view.draw(on: canvas.loaderRenderer, in: Self.row, at: 1)
    #expect(view.nextChange(after: 1.01) == 1.01)
    try view.setMaximumFrameRate(20)
    #expect(view.nextChange(after: 1.01) == 1 + 1.0 / 20)
    #expect(view.nextChange(after: 1.2) == 1.2, "later than a frame: at once")
    try view.setAnimating(false, at: 1.1)
    #expect(view.nextChange(after: 5) == nil, "its last turn has ended")
    for bad in [0, -1, Double.nan, .infinity] {
      #expect(throws: LoaderField.Error.self) { try view.setMaximumFrameRate(bad) }
    }
    #expect(view.maximumFrameRate == 20)
    try view.setMaximumFrameRate(nil)
    #expect(view.maximumFrameRate == nil)
  }
}
