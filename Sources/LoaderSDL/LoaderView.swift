@_exported import CSDL2
@_exported import LoaderCore

/// SwiftUI's `LoaderView(isAnimating:)` on any SDL renderer: one row of five dashed rings
/// spinning in turn, laid out exactly as SPEC's HStack in the frame it is drawn in.
///
/// ```swift
/// let view = LoaderView(isAnimating: true)
/// // every frame (the caller clears, as with any SDL sprite):
/// try view.draw(on: renderer, in: SDL_FRect(x: 0, y: 0, w: 780, h: 240), scale: 2, at: now)
/// // when work starts or stops:
/// try view.setAnimating(false, at: now)
/// ```
///
/// Times are seconds on the caller's clock; the view appears at 0 of it (or at `appearingAt`),
/// so with `isAnimating: true` ring 0 starts turning then and `draw(..., at: 0.35)` shows
/// SPEC's 210, 60, 0, 0, 0 degrees. It draws any time at or after `earliestTime` (the last
/// drawn step); an earlier time throws `LoaderField.Error.timeBeforePast` (make a new view to
/// go back). A thin wrapper over a one-loader `LoaderField` (layout `.row`): every timing,
/// speed, motion and backend rule there applies.
public final class LoaderView {
  public let field: LoaderField
  private let loader: LoaderField.LoaderID

  /// The seed, light palette.
  public convenience init(isAnimating: Bool) {
    do {
      try self.init(isAnimating: isAnimating, style: .seed, backend: nil, appearingAt: 0)
    } catch {
      // The seed's style is valid and time 0 is finite: nothing above can throw.
      preconditionFailure("\(error)")
    }
  }

  /// Any validated `LoaderStyle` (throws `LoaderField.Error.invalidStyle` otherwise).
  public convenience init(isAnimating: Bool, style: LoaderStyle) throws {
    try self.init(isAnimating: isAnimating, style: style, backend: nil, appearingAt: 0)
  }

  /// - Parameters:
  ///   - backend: the rasterizer; nil picks `RingBackend.preferred(for:)` on each renderer.
  ///   - appearingAt: the caller time the view appears (its clock's start).
  public init(
    isAnimating: Bool, style: LoaderStyle, backend: RingBackend?, appearingAt start: Double
  ) throws {
    field = try LoaderField(style: style, layout: .row, backend: backend, startingAt: start)
    loader = try field.addLoader(isAnimating: isAnimating, at: start)
  }

  public var style: LoaderStyle { field.style }

  public var isAnimating: Bool { (try? field.isAnimating(loader)) ?? false }

  /// `isAnimating = on` at `time` (seconds, the caller's clock), with SwiftUI's semantics:
  /// a new schedule from ring 0 when on, running turns finish when off, nothing resets.
  public func setAnimating(_ on: Bool, at time: Double) throws {
    try field.setAnimating(on, loader: loader, at: time)
  }

  /// Draws the row at `time` over what `renderer` shows: `frame` is the container in the
  /// renderer's output pixels; `scale` is the density, pixels per point (the label SwiftUI
  /// hosts know from `displayScale`).
  public func draw(on renderer: OpaquePointer, in frame: SDL_FRect, scale: Double, at time: Double)
    throws
  {
    try field.draw(on: renderer, in: frame, scale: scale, at: time)
  }

  /// See `LoaderField.speed` and `setSpeed(_:at:)`: changes keep every angle continuous.
  public var speed: Double { field.speed }
  public func setSpeed(_ speed: Double, at time: Double) throws {
    try field.setSpeed(speed, at: time)
  }

  /// `.full` (the seed) or `.reduced` (no rotation; opacity pulses, see `LoaderField.Motion`).
  public var motion: LoaderField.Motion {
    get { field.motion }
    set { field.motion = newValue }
  }

  /// The backend asked for (nil: preferred per renderer) and the one drawing now.
  public var backend: RingBackend? { field.backend }
  public var activeBackend: RingBackend? { field.activeBackend }

  /// The next time at or after `time` the picture changes; nil when nothing moves and nothing
  /// is scheduled (see `LoaderField.nextChange(after:)`).
  public func nextChange(after time: Double) -> Double? { field.nextChange(after: time) }

  /// The earliest time `draw` can show now.
  public var earliestTime: Double { field.earliestTime }

  /// The exact angles of the five rings at `time` (degrees clockwise, unwrapped), as `draw`
  /// would show them in `.full` motion.
  public func angles(at time: Double) throws -> [Double] {
    try field.angles(of: loader, at: time)
  }
}
