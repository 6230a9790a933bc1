import CSDL2
import LoaderCore
import LoaderSDL

/// The seed's `LoaderView(isAnimating:)` on any SDL renderer: one row of five rings.
final class LoaderView {
  let palette: LoaderPalette
  let style: LoaderStyle
  private var engine: RotationEngine
  private let loader: RotationEngine.LoaderID
  private let frames: [LayoutRect]  // the rings' frames in points
  private let shape: DashedRing  // one ring in pixels
  private let scale: Double  // pixels per point
  private let rasterizer: any RingRasterizer
  private var angles: [Float] = []
  private var rings: [RingInstance] = []

  /// A `width` x `height` point container drawn at `scale` pixels per point on `renderer`.
  init(
    isAnimating: Bool, palette: LoaderPalette = .light, width: Double, height: Double,
    scale: Double, renderer: OpaquePointer
  ) throws {
    self.palette = palette
    style = LoaderStyle.seed.with(palette: palette)
    engine = try RotationEngine(dt: 1.0 / 120)
    loader = try engine.addLoader(style: style, isAnimating: isAnimating, at: 0)
    frames = RowLayout.frames(width: width, height: height, style: style)
    shape = DashedRing(style: style).scaled(by: scale)
    self.scale = scale
    // `.spans` on SDL's software renderer, `.geometry` on a GPU.
    rasterizer = try RingBackend.spans.makeRasterizer(for: renderer)
  }

  /// `isAnimating = on` at `now` seconds. The engine's past is fixed, so a toggle lands no
  /// earlier than its last step (at most `dt` late).
  func setAnimating(_ on: Bool, at now: Double) throws {
    try engine.setAnimating(on, loader: loader, at: max(now, engine.time))
  }

  /// Steps the engine up to `now` seconds and draws the rings there, over what `renderer`
  /// already shows.
  func draw(at now: Double, on renderer: OpaquePointer) throws {
    while engine.time < now { engine.step() }
    try engine.presentationAngles(at: now, into: &angles)
    let first = try engine.firstRing(of: loader)
    rings.removeAll(keepingCapacity: true)
    for (i, frame) in frames.enumerated() {
      rings.append(
        RingInstance(
          centerX: Float(frame.midX * scale), centerY: Float(frame.midY * scale),
          angle: angles[first + i], color: style.color(ofRing: i)))
    }
    try rasterizer.draw(rings, shape: shape, on: renderer)
  }
}

/// One frame of your loop: clear to the palette's background, draw the loader, present.
func drawFrame(_ view: LoaderView, at now: Double, on renderer: OpaquePointer) throws {
  let background = view.palette.background
  SDL_SetRenderDrawColor(renderer, background.r, background.g, background.b, 255)
  SDL_RenderClear(renderer)
  try view.draw(at: now, on: renderer)
  SDL_RenderPresent(renderer)
}
