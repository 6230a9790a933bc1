import LoaderCore

/// What the demo shows: loaders on a `RotationEngine` (one for the seed row, `count` for the
/// grid), stepped at a fixed `stepLength`, with the command line's toggles played in as the
/// steps reach them.
///
/// Angles are the engine's: `presentationAngles` for drawing, `angle(loader:ring:at:)`
/// (exact, unwrapped) for the trace. Either is exact at any time in the engine's
/// `presentableTimes`, the last step's span: `advance(to:)` steps until `t` is in it.
/// The engine's memory is fixed by the loader count, so a window left open for days costs
/// what it did in its first second.
struct LoaderScene {
  /// The engine's fixed step, seconds. Stagger (0.25 s) and turn (0.6 s) are whole steps.
  static let stepLength = 1.0 / 120
  static let maximumCount = 1_000_000

  let kind: SceneKind
  let style: LoaderStyle
  let background: RGBAColor
  /// Ring `r`'s colour.
  let ringColors: [RGBAColor]
  /// The ring shape in a loader's own points (unscaled by any layout).
  let ring: DashedRing
  private(set) var engine: RotationEngine
  /// Engine handles in scene order (the trace's `loader` numbers and the script's).
  private(set) var loaders: [RotationEngine.LoaderID] = []
  /// `engine.firstRing(of: loaders[i])`.
  private(set) var firstRings: [Int] = []
  private var script: SceneScript
  /// Set once a key or click has changed anything: the rest of the script is dropped.
  private(set) var isScriptDropped = false

  init(kind: SceneKind, count: Int, palette: LoaderPalette, script: SceneScript)
    throws(RotationEngine.Error)
  {
    self.kind = kind
    style = LoaderStyle.seed.with(palette: palette)
    background = palette.background
    ringColors = (0..<style.ringCount).map { [style] in style.color(ofRing: $0) }
    ring = DashedRing(style: style)
    engine = try RotationEngine(dt: Self.stepLength, capacity: count)
    self.script = script
    try addLoaders(count, animating: script.startsOn, at: 0)
    self.script.bind(to: loaders)
  }

  var count: Int { loaders.count }

  /// Steps until `t` is presentable. `t` must not be before `engine.presentableTimes`.
  mutating func advance(to t: Double) throws(RotationEngine.Error) {
    while engine.time < t { try step() }
  }

  /// One engine step, with the script's toggles inside it applied first (at their own times).
  mutating func step() throws(RotationEngine.Error) {
    if !isScriptDropped {
      try script.apply(to: &engine, before: engine.time + engine.dt)
    }
    engine.step()
  }

  /// Whether the engine can still show `t` (it cannot go back).
  func canReach(_ t: Double) -> Bool { t >= engine.presentableTimes.lowerBound }

  // MARK: - Input (window)

  /// Flips loader `i` at `t` (not before `engine.time`).
  mutating func toggle(loader i: Int, at t: Double) throws(RotationEngine.Error) {
    guard loaders.indices.contains(i) else { return }
    isScriptDropped = true
    let id = loaders[i]
    try engine.setAnimating(!(try engine.isAnimating(id)), loader: id, at: t)
  }

  /// All off when any loader animates, else all on.
  mutating func toggleAll(at t: Double) throws(RotationEngine.Error) {
    isScriptDropped = true
    var anyOn = false
    for id in loaders where try engine.isAnimating(id) {
      anyOn = true
      break
    }
    try engine.setAnimatingAll(!anyOn, at: t)
  }

  /// Grows to `n` loaders (the new ones animate from `t`) or drops the last ones.
  mutating func resize(to n: Int, at t: Double) throws(RotationEngine.Error) {
    let target = min(max(n, 1), Self.maximumCount)
    guard target != count else { return }
    isScriptDropped = true
    if target > count {
      try addLoaders(target - count, animating: true, at: t)
    } else {
      while count > target {
        guard let id = loaders.popLast() else { break }
        firstRings.removeLast()
        try engine.remove(id)
      }
    }
  }

  private mutating func addLoaders(_ n: Int, animating: Bool, at t: Double) throws(RotationEngine
    .Error)
  {
    loaders.reserveCapacity(count + n)
    firstRings.reserveCapacity(count + n)
    engine.reserveCapacity(loaders: count + n, rings: (count + n) * style.ringCount)
    for _ in 0..<n {
      let id = try engine.addLoader(style: style, isAnimating: animating, at: t)
      loaders.append(id)
      firstRings.append(try engine.firstRing(of: id))
    }
  }

  /// The per-loader schedule of `--toggle-random`, for the trace.
  var schedule: ToggleSchedule? { script.schedule }

  func layout(width: Double, height: Double) throws(GridLayout.Error) -> SceneLayout {
    try SceneLayout(kind: kind, count: count, width: width, height: height, style: style)
  }
}
