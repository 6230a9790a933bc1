import LoaderSDL
import SwiftLoaderHarness

/// Why a frame could not be drawn or written, by where it went wrong. Each case prints as the
/// one line the demo reports.
enum DrawFailure: Error, CustomStringConvertible {
  /// The field refused a time, a layout or a backend.
  case field(LoaderField.Error)
  /// The engine refused a time (the trace's exact angles).
  case engine(RotationEngine.Error)
  /// An SDL call failed (a canvas, a screenshot).
  case sdl(SDLError)
  /// A file could not be written: `file` names it (a path or a flag), nil when the error does.
  case output(file: String?, any Error)
  /// A value the output cannot hold (a trace time JSON cannot write, a frame the recording
  /// cannot take).
  case unrepresentable(String)
  /// `--hud on` found no font.
  case font(HUDFont.Missing)
  /// SIGINT or SIGTERM arrived between frames.
  case interrupted

  var description: String {
    switch self {
    case .field(let e): e.description
    case .engine(let e): e.description
    case .sdl(let e): e.description
    case .output(let file?, let e): "\(file): \(e)"
    case .output(nil, let e): "\(e)"
    case .unrepresentable(let s): s
    case .font(let e): e.description
    case .interrupted: "interrupted"
    }
  }
}

/// What the demo shows: a `LoaderField` (one loader in SPEC's row for the seed, `count` in a
/// `GridLayout` for the grid, `count` in `.free` layout riding `BouncingSprites` for the
/// sprites) with the command line's toggles played in at their own times.
///
/// Angles are the field engine's: exact, unwrapped ones (`engine.angle(loader:ring:at:)`) for
/// the trace at any time drawn last. The scene's clock is the field's: speed 1 from 0, so
/// caller and loader time are one number.
final class LoaderScene {
  static let maximumCount = 1_000_000

  let kind: SceneKind
  let background: RGBAColor
  let field: LoaderField
  private var script: SceneScript
  /// `field.engine.compactions` when the scene last handed freed memory back.
  private var compactionsSeen = 0
  /// Set once a key or click has changed anything: the rest of the script is dropped.
  private(set) var isScriptDropped = false
  /// The sprites the loaders ride (`.sprites` only).
  private(set) var sprites: BouncingSprites?

  /// `style` is every loader's (`DemoOptions.style`: the theme's colours unless `--colors`);
  /// `motion` as `--reduced-motion` sets it; `speed` from caller time 0 (`--speed`), `gutter`
  /// the grid's, `threads` nil for every core.
  init(
    kind: SceneKind, count: Int, style: LoaderStyle, background: RGBAColor,
    motion: LoaderField.Motion = .full, speed: Double = 1, gutter: Double = 0,
    threads: Int? = nil, backend: RingBackend? = nil, script: SceneScript,
    bounds: (width: Double, height: Double) = (1280, 720)
  ) throws(LoaderField.Error) {
    self.kind = kind
    self.background = background
    let layout: LoaderField.Layout =
      switch kind {
      case .seed: .row
      case .grid: .grid
      case .sprites: .free
      }
    field = try LoaderField(style: style, layout: layout, backend: backend, capacity: count)
    try field.setMotion(motion)
    try field.setSpeed(speed, at: 0)
    try field.setGutter(gutter)
    if let threads { try field.setThreads(threads) }
    self.script = script
    try field.addLoaders(count, isAnimating: script.startsOn, at: 0)
    self.script.bind(to: field.loaders)
    if kind == .sprites {
      let natural = RowLayout.naturalSize(style: style)
      let s = BouncingSprites(
        count: count, bounds: bounds, aspect: natural.width / natural.height,
        ringCount: style.ringCount)
      for (i, id) in field.loaders.enumerated() {
        try field.setFrame(s.frame(i), of: id)
        try field.setColors(Array(s.colors(of: i, ringCount: style.ringCount)), of: id)
      }
      sprites = s
    }
  }

  /// The scene the command line describes, at time 0.
  convenience init(options o: DemoOptions) throws(LoaderField.Error) {
    try self.init(
      kind: o.scene, count: o.count, style: o.style, background: o.theme.palette.background,
      motion: o.motion, speed: o.speed, gutter: o.gutter,
      threads: o.threads, backend: o.backend, script: o.script, bounds: (o.width, o.height))
    try field.setMaximumFrameRate(o.maximumFrameRate)
  }

  var count: Int { field.count }
  var engine: RotationEngine { field.engine }
  /// Engine handles in scene order (the trace's `loader` numbers and the script's).
  var loaders: [RotationEngine.LoaderID] { field.loaders }

  /// Plays the script up to `t` and draws the loaders there into `frame` (the renderer's
  /// coordinates: scene points, under the render scale the caller set to its density), after
  /// clearing the renderer to the background. Returns false when `shouldStop` abandoned the
  /// frame part drawn (`LoaderField.draw`).
  @discardableResult
  func draw(
    on target: LoaderRenderer, in frame: SDL_FRect, at t: Double,
    stoppingWhen shouldStop: () -> Bool = { false }
  ) throws(LoaderField.Error) -> Bool {
    try playScript(through: t)
    try moveSprites(to: t, in: frame)
    let renderer = target.renderer
    SDL_SetRenderDrawColor(renderer, background.r, background.g, background.b, 255)
    SDL_RenderClear(renderer)
    let drawn = try field.draw(on: target, in: frame, at: t, stoppingWhen: shouldStop)
    // The first frame after the engine gave storage back has shrunk the field's and the
    // backend's buffers too: the allocator's free pages go back to the system (without it, a
    // grid shrunk from a million loaders to one keeps the million's memory resident).
    if field.engine.compactions != compactionsSeen {
      compactionsSeen = field.engine.compactions
      LoaderField.returnFreedMemory()
    }
    return drawn
  }

  /// Moves the sprites on to `t` in `frame`'s size and hands their frames to the field: one
  /// O(1) `setFrame` a loader.
  func moveSprites(to t: Double, in frame: SDL_FRect) throws(LoaderField.Error) {
    guard var s = sprites else { return }
    sprites = nil
    defer { sprites = s }
    s.advance(to: t, bounds: (Double(frame.w), Double(frame.h)))
    let loaders = field.loaders
    for i in loaders.indices where i < s.count {
      try field.setFrame(s.frame(i), of: loaders[i])
    }
  }

  /// Applies every scripted toggle inside the step that drawing `t` runs to: a toggle after
  /// `t` but in that step lands at its own time before the step passes it.
  func playScript(through t: Double) throws(LoaderField.Error) {
    guard !isScriptDropped else { return }
    // The step is `stepLength` of loader time, `speed` times shorter on the caller's clock
    // that the script's times use: a longer window would take in a toggle beyond the step,
    // which steps the engine past `t`.
    try script.apply(to: field, before: t + LoaderField.stepLength / field.speed)
  }

  /// Whether the field can still show `t` (it cannot go back).
  func canDraw(at t: Double) -> Bool { t >= field.earliestTime }

  /// When the picture next changes after `t`: the field's answer or the script's next toggle.
  func nextChange(after t: Double) -> Double? {
    let scripted = isScriptDropped ? nil : script.nextTime
    switch (field.nextChange(after: t), scripted) {
    case (let a?, let b?): return min(a, max(b, t))
    case (let a?, nil): return a
    case (nil, let b?): return max(b, t)
    case (nil, nil): return nil
    }
  }

  // MARK: - Input (window)

  func toggle(loader i: Int, at t: Double) throws(LoaderField.Error) {
    guard field.loaders.indices.contains(i) else { return }
    try toggle(field.loaders[i], at: t)
  }

  func toggle(_ id: RotationEngine.LoaderID, at t: Double) throws(LoaderField.Error) {
    isScriptDropped = true
    try field.setAnimating(!(try field.isAnimating(id)), loader: id, at: t)
  }

  /// All off when any loader animates, else all on.
  func toggleAll(at t: Double) throws(LoaderField.Error) {
    isScriptDropped = true
    try field.setAnimatingAll(!field.isAnyAnimating, at: t)
  }

  /// Grows to `n` loaders (the new ones animate from `t`) or drops the last ones (the grid).
  func resize(to n: Int, at t: Double) throws(LoaderField.Error) {
    let target = min(max(n, 1), Self.maximumCount)
    guard target != count else { return }
    isScriptDropped = true
    if target > count {
      try field.addLoaders(target - count, isAnimating: true, at: t)
    } else {
      while count > target, let id = field.loaders.last { try field.remove(id) }
    }
  }

  /// The per-loader schedule of `--toggle-random`, for the trace.
  var schedule: ToggleSchedule? { script.schedule }

  func layout(width: Double, height: Double) throws(LoaderField.Error) -> SceneLayout {
    try field.arrangement(width: width, height: height)
  }
}
