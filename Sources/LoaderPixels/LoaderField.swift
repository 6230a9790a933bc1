import Foundation

/// Many loaders of one `LoaderStyle` on one motion engine, drawn with one rasterizer call per
/// frame: the library's path from motion to pixels (`LoaderView` is one of these with a single
/// loader).
///
/// ```swift
/// let loaders = LoaderRenderer(renderer)  // once per SDL renderer (LoaderSDL)
/// let field = try LoaderField(style: .seed, layout: .grid)
/// try field.addLoaders(1000, isAnimating: true, at: 0)
/// // every frame, `now` in seconds on your clock (the caller clears, as with any SDL drawing):
/// try field.draw(on: loaders, in: SDL_FRect(x: 0, y: 0, w: 1280, h: 720), at: now)
/// // or into a caller's pixels, no SDL:
/// try field.draw(into: buffer, in: LoaderRect(x: 0, y: 0, width: 1280, height: 720), at: now)
/// ```
///
/// Its time, toggles, idle answers, free placement and costs are on its documentation page
/// (`LoaderPixels.docc/LoaderField.md`).
public final class LoaderField {
  /// How loaders are placed in the container `draw` is given.
  public enum Layout: Sendable, Hashable {
    /// Every loader's row fills the whole container, laid out exactly as SPEC's HStack (meant
    /// for one loader: several would draw on top of one another). In a container smaller than
    /// the row's natural size (290 x 50 points for the seed; `LoaderView.naturalSize`), the
    /// rings keep their size and overflow, as in SwiftUI.
    case row
    /// `.row` scaled down uniformly (never up) until its natural size fits the container, and
    /// centred: a 200 x 60 container holds the seed at `200 / 290` of its size.
    case fittedRow
    /// Equal cells filled row by row, one loader row each, all scaled by one factor <= 1:
    /// the column count that lets the rows shrink least (the fewest columns on a tie), each
    /// cell's natural size the row plus a spacer of air below (290 x 58 points for the seed).
    /// One loader is laid out exactly as `.row`.
    case grid
    /// Each loader in its own frame (`addLoader(isAnimating:at:frame:)`, `setFrame(_:of:)`),
    /// relative to the container's corner, its row laid out there as `.fittedRow` lays out a
    /// container; loaders may overlap, later ones over earlier ones (`raise(_:)`).
    case free
  }

  /// What the rings do while they run: the seed's turns, or a reduced-motion policy the user
  /// chose (platforms and spinner libraries each pick one: slow down, stop, or swap the motion
  /// for a pulse). Every policy keeps SwiftUI's schedule (the same triggers, stagger and
  /// turns), so switching back and forth never jumps the schedule.
  public enum Motion: Sendable, Hashable {
    /// The seed: each triggered ring turns once.
    case full
    /// No rotation at all: every ring is drawn at angle 0 and, instead of turning, its
    /// opacity pulses on the same schedule (same triggers, same 0.25 s stagger, same 0.6 s
    /// turn), so it still reads as working: `1 - 0.6 * sin(pi * c)` for a turn's progress `c`
    /// in `[0, 1)`, 1 at rest and 0.4 half way through a turn.
    case pulse
    /// The turns, `factor` (in `(0, 1)`) as far: each ring's angle is `factor` times the full
    /// motion's, so a turn sweeps `factor * 360` degrees in the same 0.6 s.
    case slow(factor: Double)
    /// Nothing moves: every ring at rest at angle 0, fully visible. `nextChange(after:)` says
    /// nil, so a host stops redrawing.
    case still

    /// Whether the policy draws every ring at angle 0, and changes nothing over time.
    var isStill: Bool { self == .still }
  }

  /// The engine's fixed step, seconds of loader time. The seed's stagger (0.25 s) and turn
  /// (0.6 s) are whole steps.
  package static let stepLength = 1.0 / 120

  /// Every loader's style (colours, size, dash, timing).
  public let style: LoaderStyle
  /// How loaders are placed in `draw`'s frame; can change at any time.
  public var layout: Layout {
    didSet { arrangementCache = nil }
  }
  /// The motion, read-only: exact unwrapped angles (`angle(loader:ring:at:)`) at loader time
  /// `loaderTime(at:)`, within the last drawn step.
  package internal(set) var engine: RotationEngine
  /// Live loaders in the order they were added: the layout's order (cell `i` of the grid
  /// shows `loaders[i]`); `.free` layout draws them in stacking order (`raise(_:)`) instead.
  public internal(set) var loaders: [LoaderID] = []
  /// Per engine slot: frame, appearance, stacking position.
  var slots: [Slot] = []
  /// Per engine slot, its rings' colours: ring `r` of slot `s` at `s * ringCount + r`.
  var ringColorTable: [RGBAColor] = []
  /// Slots from the bottom of the stack to the top; -1 where `raise` or `remove` left a hole.
  var order: [Int32] = []
  var orderHoles = 0
  var clock: SpeedClock
  /// Loader time of the latest toggle applied (any loader): toggles never go back.
  var lastToggle = -Double.infinity

  /// See `Motion`; set with `setMotion(_:)` at any time (the picture changes with it).
  public private(set) var motion: Motion = .full

  /// Sets `motion`; the next `draw` shows it, with no jump in the schedule.
  /// - Parameter motion: the policy; a `.slow` factor must be in `(0, 1)`.
  /// - Throws: `LoaderField.Error` for a `.slow` factor outside `(0, 1)`.
  public func setMotion(_ motion: Motion) throws(Error) {
    if case .slow(let f) = motion, !(f > 0 && f < 1) { throw .invalidMotion(f) }
    self.motion = motion
  }

  /// The most frames a second `nextChange(after:)` asks a host for while the rings move (nil:
  /// no cap, every frame the host draws changes the picture). A status-bar spinner capped at
  /// 20 saves most of what a 60 Hz redraw costs; the motion's times stay exact, only fewer
  /// of them are shown. Set with `setMaximumFrameRate(_:)`.
  public private(set) var maximumFrameRate: Double?

  /// Sets `maximumFrameRate`.
  /// - Parameter rate: frames per second, finite and > 0, or nil for no cap.
  /// - Throws: `LoaderField.Error` for a rate that is not finite and > 0.
  public func setMaximumFrameRate(_ rate: Double?) throws(Error) {
    if let rate, !(rate.isFinite && rate > 0) { throw .invalidFrameRate(rate) }
    maximumFrameRate = rate
  }

  /// The caller time of the last `draw`, for `maximumFrameRate`.
  package var lastDrawTime = -Double.infinity
  /// Fraction of each grid cell kept empty around its loader, in `[0, 1)`
  /// (`GridLayout`'s `gutter`; `.row` ignores it).
  package private(set) var gutter = 0.0
  /// The backend asked for; nil uses each renderer's preferred one
  /// (`RingBackend.preferred(for:rings:)`). Can change at any time; the next `draw` uses it.
  public var backend: RingBackend?
  /// The backend of the last `draw` (nil before the first).
  package var activeBackend: RingBackend?
  let unitShape: DashedRing
  /// `style.color(ofRing:)` for every ring, read once.
  let ringColors: [RGBAColor]
  private var arrangementCache: Arrangement?
  /// The presented angle of every ring (the engine's slots' rings).
  var angles: [Float] = []
  /// What the last draw handed the renderer: its rings and their shapes.
  package var frameRings: FrameBuilder
  /// The container of the last draw (`loader(at:)`).
  var lastContainer: LoaderRect?
  /// Threads the field's CPU work may use: the motion's per-ring passes and the `spans`
  /// backend's bands. The output is the same bits at any count, and work too small for a
  /// second thread stays on the calling thread, so the default of every core costs a small
  /// field nothing. Set it with `setThreads(_:)`.
  public private(set) var threads: Int

  /// The most `threads` a field takes: 256. The library's pool has one thread fewer than the
  /// cores, so a larger count would change nothing but make a mistyped one look taken.
  public static let maximumThreads = RotationEngine.maximumThreadCount

  /// The most loaders this field holds: 2^24 for the seed, fewer for a style of many rings,
  /// whose loaders' tables (`bytesPerLoader(ringCount:)`) would pass `maximumStorageBytes`.
  /// The 2^24 cap keeps every index of the engine's tables in 32 bits and every count times
  /// `ringCount` inside `Int`.
  ///
  /// `LoaderField(capacity:)`, `addLoaders(_:isAnimating:at:)` and
  /// `addLoader(isAnimating:at:)` throw `LoaderField.Error` (reason `.tooLarge`) for a count
  /// past it, before anything is allocated. It is a bound on memory, not a promise of speed.
  public var maximumCount: Int { Self.maximumCount(ringCount: style.ringCount) }

  /// `maximumCount` for a style of `ringCount` rings.
  package static func maximumCount(ringCount: Int) -> Int {
    min(RotationEngine.maximumLoaders, maximumStorageBytes / bytesPerLoader(ringCount: ringCount))
  }

  /// The most bytes of loader tables a field takes on (`maximumCount`); the seed's 2^24
  /// loaders fit (`theLimitsAreTheDocumentedOnes`).
  package static let maximumStorageBytes = 8 << 30

  /// Bytes one loader of `ringCount` rings takes in the tables of its field and its engine:
  /// the engine's (`RotationEngine.bytesPerLoader(ringCount:)`), the field's slot, handle,
  /// stacking place and drawn-list entry, and per ring its angle, its colour and the
  /// instance a draw hands the renderer.
  package static func bytesPerLoader(ringCount: Int) -> Int {
    RotationEngine.bytesPerLoader(ringCount: ringCount) + MemoryLayout<LoaderID>.stride
      + MemoryLayout<Slot>.stride + 2 * MemoryLayout<Int32>.stride
      + ringCount
      * (MemoryLayout<Float>.stride + MemoryLayout<RGBAColor>.stride
        + MemoryLayout<RingInstance>.stride)
  }

  /// A field with no loaders whose clock starts at caller time `start` (loader time 0).
  /// - Parameters:
  ///   - style: every loader's style (validated here).
  ///   - layout: how loaders are placed in `draw`'s frame (see `Layout`).
  ///   - backend: the rasterizer to draw with; nil picks the fastest that meets the quality
  ///     bar on each renderer (`RingBackend.preferred(for:rings:)`).
  ///   - start: the caller time the field's clock starts at.
  ///   - capacity: loaders to reserve storage for, 0...`maximumCount`.
  ///   - threads: see `threads`; 1...`maximumThreads` (nil: every core, at most that).
  /// - Throws: `LoaderField.Error` when `style` fails `LoaderStyle.validate()` (the
  ///   description carries the style's reason), `start` is not finite, `capacity` is below 0
  ///   (reason `.outOfRange`) or past `maximumCount` (`.tooLarge`), or `threads` is outside
  ///   1...`maximumThreads`; each before anything is allocated.
  public init(
    style: LoaderStyle = .seed, layout: Layout = .grid, backend: RingBackend? = nil,
    startingAt start: Double = 0, capacity: Int = 0,
    threads: Int? = nil
  ) throws(Error) {
    let threads = threads ?? RotationEngine.availableCores
    do { try style.validate() } catch { throw .invalidStyle(error) }
    guard start.isFinite else { throw .timeNotFinite(start) }
    let limit = Self.maximumCount(ringCount: style.ringCount)
    guard (0...limit).contains(capacity) else {
      throw .invalidCapacity(capacity, limit: limit)
    }
    guard (1...Self.maximumThreads).contains(threads) else { throw .invalidThreads(threads) }
    self.style = style
    self.layout = layout
    self.backend = backend
    self.threads = threads
    clock = SpeedClock(start: start)
    unitShape = DashedRing(style: style)
    frameRings = FrameBuilder(unit: unitShape)
    ringColors = (0..<style.ringCount).map { [style] in style.color(ofRing: $0) }
    do {
      engine = try RotationEngine(dt: Self.stepLength, capacity: capacity, threadCount: threads)
    } catch {
      throw .engine(error)
    }
  }

  /// Sets `threads`: the motion's passes and every later draw's blending.
  /// - Parameter n: the thread count, 1...`maximumThreads`.
  /// - Throws: `LoaderField.Error` (reason `.outOfRange`) for a count outside
  ///   1...`maximumThreads`.
  public func setThreads(_ n: Int) throws(Error) {
    guard (1...Self.maximumThreads).contains(n) else { throw .invalidThreads(n) }
    do { try engine.setThreadCount(n) } catch { throw .engine(error) }
    threads = n
  }

  /// Live loaders: `loaders.count`.
  public var count: Int { loaders.count }

  // MARK: - Stepping

  /// Steps the engine until `time` is presentable and returns its loader time.
  @discardableResult
  package func advance(to time: Double) throws(Error) -> Double {
    let tau = try loaderTime(at: time)
    try checkNotPast(tau, time: time)
    do { try engine.advance(to: tau) } catch { throw .engine(error) }
    return tau
  }

  // MARK: - Drawing

  /// Sets `gutter` (in `[0, 1)`); the next `arrangement` or `draw` lays the grid out anew.
  package func setGutter(_ g: Double) throws(Error) {
    guard g >= 0, g < 1 else { throw .layout(.invalidGutter(g)) }
    gutter = g
    arrangementCache = nil
  }

  /// Where the loaders sit in a container of `width` x `height` points (cached per size).
  package func arrangement(width: Double, height: Double) throws(Error) -> Arrangement {
    if let a = arrangementCache, a.layout == layout, a.count == count, a.width == width,
      a.height == height
    {
      return a
    }
    do {
      let a = try Arrangement(
        layout: layout, count: count, width: width, height: height, style: style, gutter: gutter)
      arrangementCache = a
      return a
    } catch {
      throw .layout(error)
    }
  }

  package static func validate(_ frame: LoaderRect) throws(Error) {
    guard frame.width.isFinite, frame.height.isFinite, frame.width > 0, frame.height > 0,
      frame.x.isFinite, frame.y.isFinite
    else { throw .invalidFrame(frame) }
  }

  /// The exact angles (degrees clockwise, unwrapped) of loader `id`'s rings at `time`, as the
  /// full motion has them (`motion` changes what `draw` shows). Steps the motion like `draw`,
  /// so the field's present moves up to `time`.
  /// - Parameters:
  ///   - id: a live loader's handle.
  ///   - time: caller seconds, at or after the start of the last step drawn.
  /// - Returns: one angle a ring, ring 0 first (`style.ringCount` of them).
  /// - Throws: `LoaderField.Error` for a removed loader's handle, or a `time` that is not
  ///   finite, is before the start of the last step drawn, or maps past the last representable
  ///   loader time (about 140,000 years).
  public func angles(of id: LoaderID, at time: Double) throws(Error) -> [Double] {
    let tau = try advance(to: time)
    do { return try engine.angles(loader: id, at: tau) } catch { throw .engine(error) }
  }
}

/// Not `Sendable`: a `LoaderField` belongs to the thread of the SDL renderer it draws on (see
/// <doc:InYourSDLProgram#Threads>).
@available(*, unavailable)
extension LoaderField: Sendable {}
