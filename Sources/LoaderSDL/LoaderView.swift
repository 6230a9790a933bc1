@_exported import CSwiftLoaderSDL2
@_exported import LoaderCore

/// SwiftUI's `LoaderView(isAnimating:)` on any SDL renderer: one row of five dashed rings
/// spinning in turn, laid out exactly as SPEC's HStack in the frame it is drawn in.
///
/// ```swift
/// let loaders = LoaderRenderer(renderer)   // once per SDL renderer
/// let view = LoaderView(isAnimating: true)
/// // every frame (the caller clears, as with any SDL drawing):
/// try view.draw(on: loaders, in: SDL_FRect(x: 0, y: 0, w: 390, h: 120), at: now)
/// // when work starts or stops:
/// try view.setAnimating(false, at: now)
/// ```
///
/// `frame` is in the renderer's coordinates, as `SDL_RenderFillRectF` takes them: a point of
/// the loader is a logical unit, and the rings are rasterized at the renderer's density, so a
/// host that draws HiDPI with `SDL_RenderSetScale(renderer, 2, 2)` or a logical size gets
/// crisp rings where its own rects go (see `LoaderField.draw(on:in:at:stoppingWhen:)`).
///
/// Times are seconds on the caller's clock; the view appears at 0 of it (or at `appearingAt`),
/// so with `isAnimating: true` ring 0 starts turning then and `draw(..., at: 0.35)` shows
/// SPEC's 210, 60, 0, 0, 0 degrees. It draws any time at or after `earliestTime` (the last
/// drawn step); an earlier time throws `LoaderField.Error.timeBeforePast` (make a new view to
/// go back). A thin wrapper over a one-loader `LoaderField`: every timing, speed, motion and
/// backend rule there applies.
public final class LoaderView {
  /// The one-loader field behind the view.
  package let field: LoaderField
  private let loader: LoaderID

  /// The row's ideal size in points, SwiftUI's `sizeThatFits` for the view: five 50-point
  /// rings and five 8-point spacers, 290 x 50 for the seed (`RowLayout.naturalSize`). In a
  /// narrower frame the rings overflow it unless `fitsFrame` is set.
  public var naturalSize: (width: Double, height: Double) { RowLayout.naturalSize(style: style) }

  /// Whether a frame smaller than `naturalSize` shrinks the row to fit it (one uniform scale,
  /// centred; `LoaderField.Layout.fittedRow`) instead of letting the rings overflow as SwiftUI
  /// does (the default). Never scales up.
  public var fitsFrame: Bool {
    get { field.layout == .fittedRow }
    set { field.layout = newValue ? .fittedRow : .row }
  }

  /// The seed, light palette.
  public convenience init(isAnimating: Bool) {
    do {
      try self.init(isAnimating: isAnimating, style: .seed, backend: nil, appearingAt: 0)
    } catch {
      // The seed's style is valid and time 0 is finite: nothing above can throw.
      preconditionFailure("\(error)")
    }
  }

  /// A view of `style`, appearing at caller time `start`.
  /// - Parameters:
  ///   - isAnimating: whether it animates from `start`, as SwiftUI's `isAnimating`.
  ///   - style: the loader's style (validated here).
  ///   - backend: the rasterizer; nil uses each renderer's `LoaderRenderer.preferredBackend`.
  ///   - start: the caller time the view appears (its clock's start).
  ///   - fitsFrame: see `fitsFrame`.
  /// - Throws: `LoaderField.Error.invalidStyle` for a style that does not validate, or
  ///   `LoaderField.Error.timeNotFinite` for a `start` that is not finite.
  public init(
    isAnimating: Bool, style: LoaderStyle, backend: RingBackend? = nil,
    appearingAt start: Double = 0, fitsFrame: Bool = false
  ) throws(LoaderField.Error) {
    field = try LoaderField(
      style: style, layout: fitsFrame ? .fittedRow : .row, backend: backend, startingAt: start)
    loader = try field.addLoader(isAnimating: isAnimating, at: start)
  }

  public var style: LoaderStyle { field.style }

  public var isAnimating: Bool { (try? field.isAnimating(loader)) ?? false }

  /// `isAnimating = on` at `time` (seconds, the caller's clock), with SwiftUI's semantics:
  /// a new schedule from ring 0 when on, running turns finish when off, nothing resets.
  public func setAnimating(_ on: Bool, at time: Double) throws(LoaderField.Error) {
    try field.setAnimating(on, loader: loader, at: time)
  }

  /// Draws the row at `time` over what the renderer shows, laid out in `frame` (the
  /// renderer's logical coordinates, as `SDL_RenderFillRectF` takes them); the renderer's
  /// state is left as it was. See `LoaderField.draw(on:in:at:stoppingWhen:)`.
  public func draw(on target: LoaderRenderer, in frame: SDL_FRect, at time: Double)
    throws(LoaderField.Error)
  {
    try field.draw(on: target, in: frame, at: time)
  }

  /// See `LoaderField.speed` and `setSpeed(_:at:)`: changes keep every angle continuous.
  public var speed: Double { field.speed }
  public func setSpeed(_ speed: Double, at time: Double) throws(LoaderField.Error) {
    try field.setSpeed(speed, at: time)
  }

  /// `.full` (the seed) or a reduced-motion policy: `.pulse`, `.slow(factor:)`, `.still`
  /// (see `LoaderField.Motion`).
  public var motion: LoaderField.Motion { field.motion }

  /// Sets `motion` (a `.slow` factor must be in `(0, 1)`).
  public func setMotion(_ motion: LoaderField.Motion) throws(LoaderField.Error) {
    try field.setMotion(motion)
  }

  /// See `LoaderField.maximumFrameRate`: caps how often `nextChange(after:)` asks for a frame.
  public var maximumFrameRate: Double? { field.maximumFrameRate }

  /// Sets `maximumFrameRate` (finite and > 0, or nil for no cap).
  public func setMaximumFrameRate(_ rate: Double?) throws(LoaderField.Error) {
    try field.setMaximumFrameRate(rate)
  }

  /// The backend asked for (nil: each renderer's preferred one); can change at any time.
  public var backend: RingBackend? {
    get { field.backend }
    set { field.backend = newValue }
  }
  /// The backend of the last draw.
  package var activeBackend: RingBackend? { field.activeBackend }

  /// The next time at or after `time` the picture changes; nil when nothing moves and nothing
  /// is scheduled (see `LoaderField.nextChange(after:)`).
  public func nextChange(after time: Double) -> Double? { field.nextChange(after: time) }

  /// The earliest time `draw` can show now.
  package var earliestTime: Double { field.earliestTime }

  /// The exact angles of the five rings at `time` (degrees clockwise, unwrapped), as `draw`
  /// would show them in `.full` motion.
  public func angles(at time: Double) throws(LoaderField.Error) -> [Double] {
    try field.angles(of: loader, at: time)
  }
}
