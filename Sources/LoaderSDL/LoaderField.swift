import CSwiftLoaderShims
import Foundation

/// Many loaders of one `LoaderStyle` on one motion engine, drawn with one rasterizer call per
/// frame: the library's path from motion to pixels (`LoaderView` is one of these with a single
/// loader).
///
/// ```swift
/// let loaders = LoaderRenderer(renderer)   // once per SDL renderer
/// let field = try LoaderField(style: .seed, layout: .grid)
/// try field.addLoaders(1000, isAnimating: true, at: 0)
/// // every frame, `now` in seconds on your clock (the caller clears, as with any SDL drawing):
/// try field.draw(on: loaders, in: SDL_FRect(x: 0, y: 0, w: 1280, h: 720), at: now)
/// ```
///
/// ## Time
/// Every time passed in is seconds on the caller's clock. The field maps it to its loaders'
/// own time `tau` (loader time) by a continuous, piecewise linear clock (see `speed`):
/// ```
/// tau(t) = tau_k + speed_k * (t - t_k)      for the latest speed change k (t_0 = start, tau_0 = 0)
/// ```
/// The motion steps at a fixed 1/120 s of loader time on an integer tick; `draw` steps it
/// until `tau(t)` is presentable, where every angle is exact (SPEC's motion to `1e-3` degree
/// in `Float`). A gap of more than 64 steps is one closed-form jump, so a draw after a paused
/// game, a suspended laptop or on a wall clock costs what a few steps cost, whatever the gap;
/// loader times past 4.5e12 s (about 140,000 years) throw. The motion cannot go back: a `draw`
/// (or toggle) at a time before the start of the last step drawn throws a `LoaderField.Error`
/// rather than replaying, which would mean keeping every toggle since the start. Start a new
/// field to show an earlier time.
///
/// ## Toggles
/// `setAnimating` has SwiftUI's semantics (a new schedule from ring 0, running turns finish,
/// nothing resets). A toggle first steps the motion up to the step that contains it, so it
/// lands at its exact time unless a `draw` has already stepped past it; then it lands at the
/// field's present, at most one step (1/120 s) after the last drawn time. Per loader, toggles
/// land in non-decreasing time order.
///
/// ## Idle
/// `nextChange(after:)` says when the picture next changes, nil when nothing moves and
/// nothing is scheduled, so a host can wait for events instead of redrawing.
///
/// ## Loaders anywhere
/// In `.free` layout each loader has its own frame (`addLoader(isAnimating:at:frame:)`,
/// `setFrame(_:of:)`), its row fitted into it, loaders of every size drawn in one call (their
/// rings share a few shapes by size bucket), in stacking order (`raise(_:)`), under a point
/// found by `loader(at:)`. In every layout a loader's colours, opacity and visibility change
/// at any time (`setColors(_:of:)`, `setOpacity(_:of:)`, `setHidden(_:of:)`). Each of these
/// is O(1) and allocates nothing.
///
/// Costs, for any finite input: memory is fixed by the loader count (the motion's, and per
/// loader its frame, appearance and ring colours: about 60 bytes); a `draw` is the motion's
/// advance (at most 64 steps, or one jump: O(loaders + rings)), one presentation pass (one
/// `Float` per ring), one draw record per visible ring and one rasterizer call (its pixels
/// bounded by the visible region); `nextChange(after:)` and `setAnimatingAll` are
/// O(loaders); every other call is O(1) amortised or O(rings of one loader). Loaders hidden,
/// fully transparent, or (in `.free` layout) whose frame misses the visible pixels get no
/// rings. Non-goal: loaders of different styles in one field (use two fields).
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

  /// Why a call was refused: `description` names the argument or the state that was wrong,
  /// in one line, with the limits. Every public call that can fail throws this, and leaves the
  /// field as it was.
  ///
  /// Refused: a style that fails `LoaderStyle.validate()`; a time that is not finite, or that
  /// maps before the field's past (the motion cannot go back: make a new field) or past its
  /// last representable time (about 140,000 years of loader time); a removed loader's handle;
  /// a container or loader frame that is not finite with a size >= 0 (> 0 for the container);
  /// a render scale that is not finite and > 0; a speed outside `speedRange`; an opacity
  /// outside `0...1`; a slow motion's factor outside `(0, 1)`; a frame rate that is not finite
  /// and > 0; a thread count below 1; a `LoaderRenderer` that was closed; and an SDL call
  /// that failed (its name and `SDL_GetError()`).
  public struct Error: Swift.Error, Sendable, CustomStringConvertible {
    package enum Reason: Sendable {
      case invalidStyle(LoaderStyle.Error)
      case invalidSpeed(Double)
      case invalidFrame(width: Float, height: Float)
      case invalidLoaderFrame(x: Float, y: Float, width: Float, height: Float)
      case invalidOpacity(Double)
      case invalidRenderScale(x: Float, y: Float)
      case invalidThreads(Int)
      case closed
      case invalidMotion(Double)
      case invalidFrameRate(Double)
      case timeNotFinite(Double)
      case timeBeforePast(time: Double, earliest: Double)
      case engine(RotationEngine.Error)
      case layout(GridLayout.Error)
      case sdl(SDLError)
    }
    /// What was wrong, for the package's tests to match.
    package let reason: Reason

    package static func invalidStyle(_ e: LoaderStyle.Error) -> Self {
      Self(reason: .invalidStyle(e))
    }
    package static func invalidSpeed(_ v: Double) -> Self { Self(reason: .invalidSpeed(v)) }
    package static func invalidFrame(width: Float, height: Float) -> Self {
      Self(reason: .invalidFrame(width: width, height: height))
    }
    /// A loader's own frame (`.free` layout) is not finite with a size >= 0.
    package static func invalidLoaderFrame(x: Float, y: Float, width: Float, height: Float) -> Self
    {
      Self(reason: .invalidLoaderFrame(x: x, y: y, width: width, height: height))
    }
    package static func invalidOpacity(_ v: Double) -> Self { Self(reason: .invalidOpacity(v)) }
    package static func invalidRenderScale(x: Float, y: Float) -> Self {
      Self(reason: .invalidRenderScale(x: x, y: y))
    }
    package static func invalidThreads(_ n: Int) -> Self { Self(reason: .invalidThreads(n)) }
    package static let closed = Self(reason: .closed)
    package static func invalidMotion(_ v: Double) -> Self { Self(reason: .invalidMotion(v)) }
    package static func invalidFrameRate(_ v: Double) -> Self { Self(reason: .invalidFrameRate(v)) }
    package static func timeNotFinite(_ t: Double) -> Self { Self(reason: .timeNotFinite(t)) }
    /// `time` maps before the engine's past; `earliest` is the earliest time it can show.
    package static func timeBeforePast(time: Double, earliest: Double) -> Self {
      Self(reason: .timeBeforePast(time: time, earliest: earliest))
    }
    package static func engine(_ e: RotationEngine.Error) -> Self { Self(reason: .engine(e)) }
    package static func layout(_ e: GridLayout.Error) -> Self { Self(reason: .layout(e)) }
    package static func sdl(_ e: SDLError) -> Self { Self(reason: .sdl(e)) }

    /// What was wrong, in one line.
    public var description: String {
      switch reason {
      case .invalidStyle(let e): "invalid loader style: \(e)"
      case .invalidSpeed(let s):
        "speed must be in \(LoaderField.speedRange.lowerBound)...\(LoaderField.speedRange.upperBound), got \(s)"
      case .invalidFrame(let w, let h): "frame must have a finite size > 0, got \(w)x\(h)"
      case .invalidLoaderFrame(let x, let y, let w, let h):
        "a loader's frame must be finite with a size >= 0, got \(w)x\(h) at (\(x), \(y))"
      case .invalidOpacity(let o): "opacity must be in 0...1, got \(o)"
      case .invalidRenderScale(let x, let y):
        "the renderer's scale must be finite and > 0, got \(x)x\(y)"
      case .invalidThreads(let n): "thread count must be >= 1, got \(n)"
      case .closed: "the LoaderRenderer was closed"
      case .invalidMotion(let m): "a slow motion's factor must be in (0, 1), got \(m)"
      case .invalidFrameRate(let r): "a maximum frame rate must be finite and > 0, got \(r)"
      case .timeNotFinite(let t): "time must be finite, got \(t)"
      case .timeBeforePast(let t, let e):
        "time \(t) is before the loaders' past (the earliest time they can show is \(e));"
          + " make a new one to go back"
      case .engine(let e): "\(e)"
      case .layout(let e): "\(e)"
      case .sdl(let e): "\(e)"
      }
    }
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
  package private(set) var engine: RotationEngine
  /// Live loaders in the order they were added: the layout's order (cell `i` of the grid
  /// shows `loaders[i]`); `.free` layout draws them in stacking order (`raise(_:)`) instead.
  public private(set) var loaders: [LoaderID] = []
  /// Per engine slot: what `nextChange` needs to know about the loader's runs.
  private var runs: [RunState] = []
  /// Per engine slot: frame, appearance, stacking position.
  var slots: [Slot] = []
  /// Per engine slot, its rings' colours: ring `r` of slot `s` at `s * ringCount + r`.
  var ringColorTable: [RGBAColor] = []
  /// Slots from the bottom of the stack to the top; -1 where `raise` or `remove` left a hole.
  var order: [Int32] = []
  /// Holes in `order`.
  var orderHoles = 0
  var clock: SpeedClock
  /// Loader time of the latest toggle applied (any loader): toggles never go back.
  private var lastToggle = -Double.infinity

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
  private var lastDrawTime = -Double.infinity
  /// Fraction of each grid cell kept empty around its loader, in `[0, 1)`
  /// (`GridLayout`'s `gutter`; `.row` ignores it).
  package private(set) var gutter = 0.0
  /// The backend asked for; nil uses each renderer's preferred one
  /// (`RingBackend.preferred(for:)`). Can change at any time; the next `draw` uses it.
  public var backend: RingBackend?
  /// The backend of the last `draw` (nil before the first).
  package private(set) var activeBackend: RingBackend?
  /// Per `LoaderRenderer` drawn on, the shapes and backend this field holds there (their
  /// caches stay while held).
  private var holds: [ObjectIdentifier: Hold] = [:]
  let unitShape: DashedRing
  /// `style.color(ofRing:)` for every ring, read once.
  let ringColors: [RGBAColor]
  /// The shape of `.row`, `.fittedRow` and `.grid`.
  var shape: DashedRing?
  /// Pixels per point of a loader that `shape` was made for: the fit times the density.
  var shapeDensity = 0.0
  /// `.free` layout's shapes by size bucket.
  var shapeBuckets: ShapeBuckets
  private var arrangementCache: Arrangement?
  var angles: [Float] = []
  /// What the last draw handed the rasterizer: its rings, and their shapes by index.
  var instances: [RingInstance] = []
  var frameShapes: [DashedRing] = []
  /// The slot of each loader the last draw gave rings, in order (`ringCount` rings each).
  var drawn: [Int32] = []
  /// The container of the last draw (`loader(at:)`).
  var lastContainer: SDL_FRect?
  /// Draws so far: shapes of `.free` layout stay held while one of the last
  /// `shapeGraceDraws` draws used them.
  var drawCount = 0

  /// In `.free` layout, a shape no draw used for this many draws is let go (its caches freed
  /// on the renderer): a loader that shrinks and grows back within about a second at 60 fps
  /// finds its shape's caches still there. The other layouts hold only the shape they draw.
  static let shapeGraceDraws = 60

  /// Threads the field's CPU work may use: the motion's per-ring passes and the `spans`
  /// backend's bands. Both split their work so that the output is the same bits at any count,
  /// and both stay on the calling thread while the work is too small for a second thread to
  /// pay, so the default of every core costs a small field nothing. Set it with
  /// `setThreads(_:)`.
  public private(set) var threads: Int

  /// A field with no loaders whose clock starts at caller time `start` (loader time 0).
  /// - Parameters:
  ///   - style: every loader's style (validated here).
  ///   - layout: how loaders are placed in `draw`'s frame (see `Layout`).
  ///   - backend: the rasterizer to draw with; nil picks the fastest that meets the quality
  ///     bar on each renderer (`RingBackend.preferred(for:)`).
  ///   - start: the caller time the field's clock starts at.
  ///   - capacity: loaders to reserve storage for.
  ///   - threads: see `threads`; >= 1 (nil: every core).
  /// - Throws: `LoaderField.Error` when `style` fails `LoaderStyle.validate()` (the
  ///   description carries the style's reason), `start` is not finite, or `threads` is
  ///   below 1.
  public init(
    style: LoaderStyle = .seed, layout: Layout = .grid, backend: RingBackend? = nil,
    startingAt start: Double = 0, capacity: Int = 0,
    threads: Int? = nil
  ) throws(Error) {
    let threads = threads ?? RotationEngine.availableCores
    do { try style.validate() } catch { throw .invalidStyle(error) }
    guard start.isFinite else { throw .timeNotFinite(start) }
    self.style = style
    self.layout = layout
    guard threads >= 1 else { throw .invalidThreads(threads) }
    self.backend = backend
    self.threads = threads
    clock = SpeedClock(start: start)
    unitShape = DashedRing(style: style)
    shapeBuckets = ShapeBuckets(unit: unitShape)
    ringColors = (0..<style.ringCount).map { [style] in style.color(ofRing: $0) }
    do {
      engine = try RotationEngine(dt: Self.stepLength, capacity: capacity, threadCount: threads)
    } catch {
      throw .engine(error)
    }
  }

  /// Sets `threads`: the motion's passes and every later draw's blending.
  /// - Parameter n: the thread count, >= 1.
  /// - Throws: `LoaderField.Error` for a count below 1.
  public func setThreads(_ n: Int) throws(Error) {
    guard n >= 1 else { throw .invalidThreads(n) }
    do { try engine.setThreadCount(n) } catch { throw .engine(error) }
    threads = n
  }

  deinit {
    for hold in holds.values {
      for shape in hold.shapes.keys { hold.target?.release(hold.backend, shape: shape) }
    }
  }

  /// Live loaders: `loaders.count`.
  public var count: Int { loaders.count }

  // MARK: - Loaders

  /// Adds a loader at the end of the layout (and on top of the stack), appearing at `time`
  /// like SwiftUI's `LoaderView(isAnimating:)` (animating from then when `isAnimating`). A
  /// later time is kept as it is (the loader rests until then); an earlier one than the
  /// field's present (the last step drawn) lands at the present. In `.free` layout its frame is
  /// empty until `setFrame(_:of:)` (or add it with `addLoader(isAnimating:at:frame:)`).
  /// - Parameters:
  ///   - isAnimating: whether it animates from `time` on, as SwiftUI's `isAnimating`.
  ///   - time: caller seconds the loader appears at.
  /// - Returns: the new loader's handle, for every call about it.
  /// - Throws: `LoaderField.Error` when `time` is not finite or maps past the last
  ///   representable loader time (about 140,000 years).
  @discardableResult
  public func addLoader(isAnimating: Bool, at time: Double) throws(Error) -> LoaderID {
    let tau = try loaderTime(at: time)
    let at = max(tau, engine.time)
    let id: LoaderID
    let firstRing: Int
    do {
      id = try engine.addLoader(style: style, isAnimating: isAnimating, at: at)
      firstRing = try engine.firstRing(of: id)
    } catch {
      throw .engine(error)
    }
    loaders.append(id)
    if runs.count <= id.slot {
      runs.append(contentsOf: repeatElement(RunState(), count: id.slot + 1 - runs.count))
    }
    runs[id.slot] = RunState(isAnimating: isAnimating, runStart: at, quietFrom: -.infinity)
    let n = style.ringCount
    if slots.count <= id.slot {
      slots.append(contentsOf: repeatElement(Slot(id: id), count: id.slot + 1 - slots.count))
      ringColorTable.append(
        contentsOf: repeatElement(RGBAColor(hex: 0), count: slots.count * n - ringColorTable.count))
    }
    slots[id.slot] = Slot(
      id: id, firstRing: Int32(firstRing), order: Int32(order.count))
    order.append(Int32(id.slot))
    for r in 0..<n { ringColorTable[id.slot * n + r] = ringColors[r] }
    return id
  }

  /// Adds `n` loaders (see `addLoader(isAnimating:at:)`), storage reserved once. Their
  /// handles are the last `n` of `loaders`.
  /// - Parameters:
  ///   - n: how many; 0 or less adds none.
  ///   - isAnimating: whether they animate from `time` on.
  ///   - time: caller seconds they appear at.
  /// - Throws: what `addLoader(isAnimating:at:)` throws, before adding any.
  public func addLoaders(_ n: Int, isAnimating: Bool, at time: Double) throws(Error) {
    engine.reserveCapacity(loaders: count + n, rings: (count + n) * style.ringCount)
    loaders.reserveCapacity(count + n)
    order.reserveCapacity(order.count + n)
    for _ in 0..<max(0, n) { try addLoader(isAnimating: isAnimating, at: time) }
  }

  /// Removes a loader; the ones after it move up a cell. Its handle goes stale: every later
  /// call given it throws.
  /// - Parameter id: a live loader's handle.
  /// - Throws: `LoaderField.Error` for a handle already removed.
  public func remove(_ id: LoaderID) throws(Error) {
    do { try engine.remove(id) } catch { throw .engine(error) }
    let place = Int(slots[id.slot].order)
    if order.indices.contains(place) {
      order[place] = -1
      orderHoles += 1
      while let last = order.last, last < 0 {
        order.removeLast()
        orderHoles -= 1
      }
      compactOrderIfSparse()
    }
    // The last loader first: the common case (shrinking a grid) stays O(1).
    guard let i = loaders.lastIndex(of: id) else { return }
    loaders.remove(at: i)
    // The engine gives its storage back as the field shrinks; these tables follow it.
    loaders.releaseExcessCapacity(factor: 4, floor: 1 << 10)
    if runs.count > engine.slotCount {
      runs.removeLast(runs.count - engine.slotCount)
      runs.releaseExcessCapacity(factor: 4, floor: 1 << 10)
      slots.removeLast(slots.count - engine.slotCount)
      slots.releaseExcessCapacity(factor: 4, floor: 1 << 10)
      ringColorTable.removeLast(ringColorTable.count - engine.slotCount * style.ringCount)
      ringColorTable.releaseExcessCapacity(factor: 4, floor: 1 << 12)
      order.releaseExcessCapacity(factor: 4, floor: 1 << 10)
    }
  }

  /// The loader's `isAnimating` as last set (its turns may still be running after `false`).
  /// - Parameter id: a live loader's handle.
  /// - Returns: the last `isAnimating` given to `setAnimating(_:loader:at:)`,
  ///   `setAnimatingAll(_:at:)` or `addLoader(isAnimating:at:)`.
  /// - Throws: `LoaderField.Error` for a removed loader's handle.
  public func isAnimating(_ id: LoaderID) throws(Error) -> Bool {
    do { return try engine.isAnimating(id) } catch { throw .engine(error) }
  }

  /// Whether any loader animates.
  public var isAnyAnimating: Bool { loaders.contains { runs[$0.slot].isAnimating } }

  /// `isAnimating = on` for one loader at `time` (see the Toggles section of `LoaderField`):
  /// a new schedule from ring 0 when on, running turns finish when off, nothing resets.
  /// - Parameters:
  ///   - on: the new `isAnimating`; the current value again changes nothing.
  ///   - id: a live loader's handle.
  ///   - time: caller seconds the toggle lands at (or the field's present, when a draw has
  ///     already stepped past it).
  /// - Throws: `LoaderField.Error` for a removed loader's handle, or a `time` that is not
  ///   finite, is before the start of the last step drawn, or maps past the last representable
  ///   loader time (about 140,000 years).
  public func setAnimating(_ on: Bool, loader id: LoaderID, at time: Double) throws(Error) {
    let at = try toggleTime(for: time)
    do { try engine.setAnimating(on, loader: id, at: at) } catch { throw .engine(error) }
    record(on, slot: id.slot, at: at)
  }

  /// `isAnimating = on` for every loader at `time`, as `setAnimating(_:loader:at:)` sets it
  /// for one.
  /// - Parameters:
  ///   - on: the new `isAnimating` of every loader.
  ///   - time: caller seconds the toggles land at.
  /// - Throws: `LoaderField.Error` for a `time` that is not finite, is before the start of the
  ///   last step drawn, or maps past the last representable loader time (about 140,000 years).
  public func setAnimatingAll(_ on: Bool, at time: Double) throws(Error) {
    let at = try toggleTime(for: time)
    do { try engine.setAnimatingAll(on, at: at) } catch { throw .engine(error) }
    for id in loaders { record(on, slot: id.slot, at: at) }
  }

  /// Steps the engine to the step containing `time` (without passing it) and returns the
  /// loader time the toggle lands at.
  private func toggleTime(for time: Double) throws(Error) -> Double {
    let tau = try loaderTime(at: time)
    try checkNotPast(tau, time: time)
    do { try engine.advance(toStepContaining: tau) } catch { throw .engine(error) }
    let at = max(tau, engine.time, lastToggle)
    lastToggle = at
    return at
  }

  private func record(_ on: Bool, slot: Int, at tau: Double) {
    var run = runs[slot]
    guard on != run.isAnimating else { return }
    if on {
      run.runStart = tau
    } else {
      run.quietFrom = max(run.quietFrom, Self.endOfTurns(runStart: run.runStart, off: tau, style))
    }
    run.isAnimating = on
    runs[slot] = run
  }

  // MARK: - Time

  /// The loaders' clock rate: loader seconds per caller second (1 = the seed, 0.25 = slow
  /// motion).
  public var speed: Double { clock.speed }

  /// The speeds `setSpeed(_:at:)` takes: a thousand times slower to a thousand times faster.
  /// Beyond them a caller's second would map to no visible change, or loader time would run
  /// past its last representable value (about 140,000 years) within hours.
  public static let speedRange = 0.001...1000.0

  /// Changes `speed` at `time`: loader time is continuous there, so no angle jumps, and runs
  /// at the new rate from then on. Times before `time` given later map at the new rate too.
  /// - Parameters:
  ///   - speed: the new rate, in `speedRange`.
  ///   - time: caller seconds the change takes effect at.
  /// - Throws: `LoaderField.Error` for a `speed` outside `speedRange` or a `time` that is not
  ///   finite.
  public func setSpeed(_ speed: Double, at time: Double) throws(Error) {
    guard Self.speedRange.contains(speed) else { throw .invalidSpeed(speed) }
    guard time.isFinite else { throw .timeNotFinite(time) }
    clock.change(speed: speed, at: time)
  }

  /// Loader time (the engine's) at caller time `time`.
  package func loaderTime(at time: Double) throws(Error) -> Double {
    guard time.isFinite else { throw .timeNotFinite(time) }
    return clock.loaderTime(at: time)
  }

  /// The earliest caller time `draw` can show now: the start of the last step drawn.
  package var earliestTime: Double { clock.callerTime(at: earliestLoaderTime) }

  private var earliestLoaderTime: Double { max(0, engine.presentableTimes.lowerBound) }

  private func checkNotPast(_ tau: Double, time: Double) throws(Error) {
    guard tau >= earliestLoaderTime else {
      throw .timeBeforePast(time: time, earliest: earliestTime)
    }
  }

  /// Steps the engine until `time` is presentable and returns its loader time.
  @discardableResult
  package func advance(to time: Double) throws(Error) -> Double {
    let tau = try loaderTime(at: time)
    try checkNotPast(tau, time: time)
    do { try engine.advance(to: tau) } catch { throw .engine(error) }
    return tau
  }

  /// The next caller time at or after `time` at which the picture may change: `time` itself
  /// while any ring turns (or pulses) or may still turn, the start of the earliest loader
  /// appearing later, nil when every loader is off and its last turn has ended. A host that
  /// draws at the returned time (or on input) never misses a change.
  ///
  /// A loader turned off at `C` in a run started at `R` is quiet from
  /// `R + stagger * j + turnDuration`, `j` its last trigger (`R + stagger * j < C`).
  ///
  /// With `maximumFrameRate` set, the answer is never earlier than the last drawn time plus
  /// one frame at that rate; with `motion` `.still`, it is nil (nothing ever moves).
  /// - Parameter time: caller seconds, usually now.
  /// - Returns: the caller time to draw next, or nil (also for a `time` that is not finite).
  public func nextChange(after time: Double) -> Double? {
    guard time.isFinite, !motion.isStill else { return nil }
    guard let change = nextMotion(after: time) else { return nil }
    guard let rate = maximumFrameRate else { return change }
    return max(change, lastDrawTime + 1 / rate)
  }

  private func nextMotion(after time: Double) -> Double? {
    let tau = clock.loaderTime(at: time)
    var soonest = Double.infinity
    for id in loaders {
      let run = runs[id.slot]
      if run.isAnimating {
        if run.runStart <= tau { return time }
        soonest = min(soonest, run.runStart)
      } else if run.quietFrom > tau {
        return time
      }
    }
    return soonest.isFinite ? clock.callerTime(at: soonest) : nil
  }

  /// Loader time from which no turn of a run started at `runStart` and ended at `off` moves.
  static func endOfTurns(runStart r: Double, off c: Double, _ style: LoaderStyle) -> Double {
    guard c > r else { return -.infinity }
    let g = style.stagger
    // The last trigger j with r + g * j < c, by the products the engine fires with.
    var j = max(0, Int(((c - r) / g).rounded(.up)) - 1)
    while r + g * Double(j + 1) < c { j += 1 }
    while j > 0, r + g * Double(j) >= c { j -= 1 }
    return r + g * Double(j) + style.turnDuration
  }

  /// Hands the C allocator's free pages back to the system (glibc's `malloc_trim`; nothing
  /// elsewhere). The field gives its storage back as loaders are removed, but glibc keeps
  /// freed blocks below its dynamic mmap threshold (up to 32 MiB each) in its heap: a host that
  /// shrank a field from a million loaders to a few calls this once to see its resident
  /// memory fall. It affects the whole process, so the library never calls it itself.
  public static func returnFreedMemory() {
    swiftloader_return_free_memory()
  }

  // MARK: - Reduced motion

  /// How far the pulse dims a ring at the middle of its turn.
  package static let reducedMotionDepth = 0.6

  /// A ring's opacity in `.pulse` motion, from its turn progress `c` in `[0, 1)` (the
  /// fraction of `turnDegrees` the full motion would have turned it past its last rest
  /// position; 0 at rest):
  /// ```
  /// opacity(c) = 1 - 0.6 * sin(pi * c)
  /// ```
  /// 1 at rest, 0.4 half way through a turn (0.3 s after its trigger in the seed), back to 1
  /// as the turn ends: continuous, and symmetric about the middle of the turn.
  package static func reducedMotionOpacity(turnProgress c: Double) -> Double {
    1 - reducedMotionDepth * sin(Double.pi * c)
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

  /// Draws every loader at `time` over what the renderer already shows (the caller clears),
  /// as SDL's own calls draw: `frame` is in the renderer's current coordinates (relative to
  /// the viewport, through the render scale and the logical size, clipped by the clip rect,
  /// into the current render target), exactly the rectangle `SDL_RenderFillRectF(frame)`
  /// would fill. Loaders are laid out in it by `layout` (in `.free` layout each in its own
  /// frame, offset by `frame`'s corner), one logical unit a point, and their rings are
  /// rasterized at the renderer's density (output pixels per logical unit, read from its
  /// scale), so they stay crisp under `SDL_RenderSetScale` or a logical size. The renderer's
  /// state (draw colour, blend mode, target, viewport, clip rect, scale) is as it was when
  /// this returns.
  /// - Parameters:
  ///   - target: the `LoaderRenderer` of the SDL renderer to draw on.
  ///   - frame: the container, in the renderer's logical coordinates.
  ///   - time: caller seconds, at or after the start of the last step drawn.
  ///   - shouldStop: asked between the backend's bounded pieces of work; once it says yes the
  ///     frame is abandoned, part drawn. A window passes "input is waiting", so a frame that
  ///     takes seconds still answers Esc.
  /// - Returns: true when every ring was drawn, false when `shouldStop` cut the frame short.
  /// - Throws: `LoaderField.Error` for a `frame` that is not finite with a size > 0, a render
  ///   scale that is not finite and > 0, a `time` it cannot show (not finite, before the start
  ///   of the last step drawn, or past about 140,000 years of loader time), a `target` that
  ///   was closed (`LoaderRenderer.close()`), or an SDL call that failed (its name and
  ///   `SDL_GetError()`).
  @discardableResult
  public func draw(
    on target: LoaderRenderer, in frame: SDL_FRect, at time: Double,
    stoppingWhen shouldStop: () -> Bool = { false }
  ) throws(Error) -> Bool {
    guard !target.isClosed else { throw .closed }
    try Self.validate(frame)
    let renderer = target.renderer
    let state = HostRenderState.enter(renderer)
    defer { state.restore() }
    guard state.scaleX.isFinite, state.scaleY.isFinite, state.scaleX > 0, state.scaleY > 0 else {
      throw .invalidRenderScale(x: state.scaleX, y: state.scaleY)
    }
    drawCount += 1
    try prepareRings(
      in: frame, scaleX: Double(state.scaleX), scaleY: Double(state.scaleY),
      region: state.region, at: time)
    lastDrawTime = time  // a refused time is not a drawn one (`nextChange`'s frame cap)
    guard !frameShapes.isEmpty, !instances.isEmpty, !state.region.isEmpty else { return true }
    let chosen = backend ?? target.preferredBackend
    let rasterizer = try target.rasterizer(chosen)
    hold(chosen, on: target)
    activeBackend = chosen
    do {
      return try frameShapes.withUnsafeBufferPointer { (shapes) throws(SDLError) in
        try instances.withUnsafeBufferPointer { (buf) throws(SDLError) in
          try rasterizer.draw(
            buf, shapes: shapes, on: renderer, region: state.region, threads: threads,
            stoppingWhen: shouldStop)
        }
      }
    } catch {
      throw .sdl(error)
    }
  }

  /// Draws every loader of the `.free` layout with their frames in the renderer's own logical
  /// coordinates (a container at the origin): `draw(on:in:at:stoppingWhen:)` with nothing to
  /// offset. In another layout it lays the loaders out in a container the size of the
  /// renderer's output in logical units.
  /// - Parameters:
  ///   - target: the `LoaderRenderer` of the SDL renderer to draw on.
  ///   - time: caller seconds, at or after the start of the last step drawn.
  ///   - shouldStop: as `draw(on:in:at:stoppingWhen:)`'s.
  /// - Returns: true when every ring was drawn, false when `shouldStop` cut the frame short.
  /// - Throws: what `draw(on:in:at:stoppingWhen:)` throws.
  ///
  /// Complexity: O(n) in the loaders, plus their rings' raster work.
  @discardableResult
  public func draw(
    on target: LoaderRenderer, at time: Double, stoppingWhen shouldStop: () -> Bool = { false }
  ) throws(Error) -> Bool {
    var container = SDL_FRect(x: 0, y: 0, w: 1, h: 1)
    if layout != .free {
      var w: Int32 = 0
      var h: Int32 = 0
      guard !target.isClosed else { throw .closed }
      SDL_GetRendererOutputSize(target.renderer, &w, &h)
      var sx: Float = 1
      var sy: Float = 1
      SDL_RenderGetScale(target.renderer, &sx, &sy)
      container.w = Float(w) / sx
      container.h = Float(h) / sy
    }
    return try draw(on: target, in: container, at: time, stoppingWhen: shouldStop)
  }

  /// Holds this draw's shapes (`frameShapes`) with `backend` on `target`, and lets go of
  /// the ones no longer drawn: at once in the arranged layouts, after `shapeGraceDraws` draws
  /// in `.free` layout.
  private func hold(_ backend: RingBackend, on target: LoaderRenderer) {
    let key = ObjectIdentifier(target)
    var found = holds[key]
    if let h = found, h.target !== target || h.backend != backend {
      // Another renderer at a dead one's address holds nothing of ours; the same renderer
      // with another backend gives its shapes back first.
      if h.target === target {
        for shape in h.shapes.keys { target.release(h.backend, shape: shape) }
      }
      found = nil
    }
    let hold: Hold
    if let found {
      hold = found
    } else {
      hold = Hold(target: target, backend: backend)
      holds[key] = hold
      // Renderers gone since: nothing to release there.
      if holds.count > 1 { holds = holds.filter { $0.value.target != nil } }
    }
    let now = drawCount
    for shape in frameShapes where hold.shapes.updateValue(now, forKey: shape) == nil {
      target.retain(backend, shape: shape)
    }
    let grace = layout == .free ? Self.shapeGraceDraws : 0
    guard grace == 0 || now % 16 == 0, hold.shapes.contains(where: { $0.value < now - grace })
    else { return }
    for (shape, last) in hold.shapes where last < now - grace {
      target.release(backend, shape: shape)
      hold.shapes[shape] = nil
    }
    if layout == .free { shapeBuckets.forget(unusedSince: now - grace) }
  }

  /// The shapes held on `target` now.
  func heldShapeKeys(on target: LoaderRenderer) -> [DashedRing] {
    guard let h = holds[ObjectIdentifier(target)], h.target === target else { return [] }
    return Array(h.shapes.keys)
  }

  static func validate(_ frame: SDL_FRect) throws(Error) {
    guard frame.w.isFinite, frame.h.isFinite, frame.w > 0, frame.h > 0,
      frame.x.isFinite, frame.y.isFinite
    else { throw .invalidFrame(width: frame.w, height: frame.h) }
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

extension LoaderField {
  /// What a field holds on one `LoaderRenderer` (a class: updated in place every draw).
  final class Hold {
    weak var target: LoaderRenderer?
    let backend: RingBackend
    /// Each shape held, with the draw (`drawCount`) that last used it.
    var shapes: [DashedRing: Int] = [:]

    init(target: LoaderRenderer, backend: RingBackend) {
      self.target = target
      self.backend = backend
    }
  }

  /// A loader's runs as far as `nextChange` cares, in loader time.
  struct RunState {
    var isAnimating = false
    /// Start of the current (or last) run.
    var runStart = 0.0
    /// No turn of an ended run moves at or after this.
    var quietFrom = -Double.infinity
  }
}

/// Not `Sendable`: a `LoaderField` belongs to the thread of the SDL renderer it draws on (see
/// <doc:InYourSDLProgram#Threads>).
@available(*, unavailable)
extension LoaderField: Sendable {}
