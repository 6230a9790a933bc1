@_exported import LoaderCore

/// SwiftUI's `LoaderView(isAnimating:)` on any SDL renderer or in any buffer of pixels: one
/// row of five dashed rings spinning in turn, laid out exactly as SPEC's HStack in the frame
/// it is drawn in.
///
/// ```swift
/// let view = LoaderView(isAnimating: true)
/// // every frame, on an SDL renderer (LoaderSDL; the caller clears, as with any SDL drawing):
/// try view.draw(on: loaders, in: SDL_FRect(x: 0, y: 0, w: 390, h: 120), at: now)
/// // or into a caller's pixels, no SDL (`PixelBuffer`: a Cairo surface, a texture's bytes):
/// try view.draw(into: buffer, in: LoaderRect(x: 0, y: 0, width: 390, height: 120), at: now)
/// // when work starts or stops:
/// try view.setAnimating(false, at: now)
/// ```
/// (`loaders` is the SDL renderer's `LoaderRenderer`, made once beside it.)
///
/// On a renderer, `frame` is in the renderer's logical coordinates, as `SDL_RenderFillRectF`
/// takes them, and the rings are rasterized at the renderer's density, so a HiDPI host gets
/// crisp rings where its own rects go.
///
/// Times are seconds on the caller's clock; the view appears at 0 (or `appearingAt`), so with
/// `isAnimating: true` ring 0 starts turning then and `draw(..., at: 0.35)` shows SPEC's 210,
/// 60, 0, 0, 0 degrees. A thin wrapper over a one-loader `LoaderField`: every timing, speed,
/// motion and backend rule there applies.
public final class LoaderView {
  /// The one-loader field behind the view.
  package let field: LoaderField
  private let loader: LoaderID

  /// The row's ideal size in points, SwiftUI's `sizeThatFits` for the view: `style.ringCount`
  /// rings of `style.frameSize` and as many spacers of `style.minimumSpacing`. In a narrower
  /// frame the rings overflow it unless `fitsFrame` is set.
  public var naturalSize: (width: Double, height: Double) { RowLayout.naturalSize(style: style) }

  /// Whether a frame smaller than `naturalSize` shrinks the row to fit it (one uniform scale,
  /// centred; `LoaderField.Layout.fittedRow`) instead of letting the rings overflow as SwiftUI
  /// does (the default). Never scales up.
  public var fitsFrame: Bool {
    get { field.layout == .fittedRow }
    set { field.layout = newValue ? .fittedRow : .row }
  }

  /// A view of the seed (`LoaderStyle.seed`, light palette) appearing at caller time 0, drawn
  /// with each renderer's preferred backend.
  /// - Parameter isAnimating: whether it animates from time 0, as SwiftUI's `isAnimating`.
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
  ///   - backend: the rasterizer; nil uses each renderer's preferred one
  ///     (`RingBackend.preferred(for:rings:)`).
  ///   - start: the caller time the view appears (its clock's start).
  ///   - fitsFrame: whether a frame smaller than `naturalSize` shrinks the row (see
  ///     `fitsFrame`).
  /// - Throws: `LoaderField.Error` when `style` fails `LoaderStyle.validate()` (the
  ///   description carries the style's reason) or `start` is not finite.
  public init(
    isAnimating: Bool, style: LoaderStyle, backend: RingBackend? = nil,
    appearingAt start: Double = 0, fitsFrame: Bool = false
  ) throws(LoaderField.Error) {
    // Five rings never need a second thread, and one thread spares the host the core count's
    // lookup.
    field = try LoaderField(
      style: style, layout: fitsFrame ? .fittedRow : .row, backend: backend, startingAt: start,
      threads: 1)
    loader = try field.addLoader(isAnimating: isAnimating, at: start)
  }

  /// The view's style, as given to the initializer.
  public var style: LoaderStyle { field.style }

  /// SwiftUI's `isAnimating` as last set (`setAnimating(_:at:)`); after `false` the running
  /// turns still finish.
  public var isAnimating: Bool { (try? field.isAnimating(loader)) ?? false }

  /// `isAnimating = on` at `time` (seconds, the caller's clock), with SwiftUI's semantics:
  /// a new schedule from ring 0 when on, running turns finish when off, nothing resets.
  /// - Parameters:
  ///   - on: the new `isAnimating`; the current value again changes nothing.
  ///   - time: caller seconds the toggle lands at. A time that a draw has already stepped
  ///     past lands at the view's present, at most 1/120 s of loader time after it.
  /// - Throws: `LoaderField.Error` when `time` is not finite, is before the start of the last
  ///   step drawn, or maps past the last representable loader time (about 140,000 years).
  public func setAnimating(_ on: Bool, at time: Double) throws(LoaderField.Error) {
    try field.setAnimating(on, loader: loader, at: time)
  }

  /// Draws the loader at `time` into a caller's pixels, as `draw(on:in:at:)` draws on a
  /// renderer: `frame` in points in the buffer's coordinates, `buffer.density` pixels a point,
  /// blended over what is there (see `LoaderField.draw(into:in:at:cache:)`).
  /// - Parameters:
  ///   - buffer: the pixels, their format and density.
  ///   - frame: where the row goes, in points.
  ///   - time: caller seconds, at or after the start of the last step drawn.
  ///   - cache: the masks' cache, shared with every view and field drawing with it
  ///     (`LoaderPixelCache.shared` unless given).
  /// - Returns: the pixels that changed, as `LoaderField.draw(into:in:at:cache:)` returns
  ///   them.
  /// - Throws: `LoaderField.Error` for a bad buffer, frame or time.
  @discardableResult
  public func draw(
    into buffer: PixelBuffer, in frame: LoaderRect, at time: Double,
    cache: LoaderPixelCache = .shared
  ) throws(LoaderField.Error) -> PixelBuffer.Rect? {
    try field.draw(into: buffer, in: frame, at: time, cache: cache)
  }

  /// The view's clock rate: loader seconds per caller second (1 by default, 0.25 a quarter as
  /// fast). See `LoaderField.speed`.
  public var speed: Double { field.speed }

  /// Changes `speed` at `time`, every angle continuous there: loader time runs at the new
  /// rate from then on.
  /// - Parameters:
  ///   - speed: the new rate, in `LoaderField.speedRange` (0.001...1000).
  ///   - time: caller seconds the change takes effect at.
  /// - Throws: `LoaderField.Error` for a `speed` outside `LoaderField.speedRange` or a `time`
  ///   that is not finite.
  public func setSpeed(_ speed: Double, at time: Double) throws(LoaderField.Error) {
    try field.setSpeed(speed, at: time)
  }

  /// `.full` (the seed) or a reduced-motion policy: `.pulse`, `.slow(factor:)`, `.still`
  /// (see `LoaderField.Motion`).
  public var motion: LoaderField.Motion { field.motion }

  /// Sets `motion`; the next draw shows it, with no jump in the schedule.
  /// - Parameter motion: the policy; a `.slow` factor must be in `(0, 1)`.
  /// - Throws: `LoaderField.Error` for a `.slow` factor outside `(0, 1)`.
  public func setMotion(_ motion: LoaderField.Motion) throws(LoaderField.Error) {
    try field.setMotion(motion)
  }

  /// See `LoaderField.maximumFrameRate`: caps how often `nextChange(after:)` asks for a frame.
  public var maximumFrameRate: Double? { field.maximumFrameRate }

  /// Sets `maximumFrameRate`.
  /// - Parameter rate: frames per second, finite and > 0, or nil for no cap.
  /// - Throws: `LoaderField.Error` for a rate that is not finite and > 0.
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
  /// - Parameter time: caller seconds, usually now.
  /// - Returns: the caller time to draw next, `time` itself while a ring moves, or nil (also
  ///   for a `time` that is not finite).
  public func nextChange(after time: Double) -> Double? { field.nextChange(after: time) }

  /// The earliest time `draw` can show now.
  package var earliestTime: Double { field.earliestTime }

  /// The exact angles of the rings at `time` (degrees clockwise, unwrapped), as `draw` would
  /// show them in `.full` motion. Like `draw`, it moves the view's present up to `time`.
  /// - Parameter time: caller seconds, at or after the start of the last step drawn.
  /// - Returns: one angle a ring, ring 0 first (`style.ringCount` of them).
  /// - Throws: `LoaderField.Error` for a `time` that is not finite, before the start of the
  ///   last step drawn, or past about 140,000 years of loader time.
  public func angles(at time: Double) throws(LoaderField.Error) -> [Double] {
    try field.angles(of: loader, at: time)
  }
}

/// Not `Sendable`: a `LoaderView` belongs to the thread of the SDL renderer it draws on (see
/// <doc:InYourSDLProgram#Threads>).
@available(*, unavailable)
extension LoaderView: Sendable {}
