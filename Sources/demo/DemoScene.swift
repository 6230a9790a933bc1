import LoaderCore

/// One ring of a scene at one instant, in points.
struct SceneRing: Equatable {
  var loader: Int
  var ring: Int
  var centerX: Double
  var centerY: Double
  /// Half the ring's frame size.
  var radius: Double
  /// Degrees clockwise, unwrapped.
  var angle: Double
  var color: RGBAColor
}

/// What the demo shows: which rings exist and where they point at time `t`.
///
/// The headless renderer, the trace and the window all read rings through this one seam, so
/// a scene driven by another engine (a grid of many loaders) slots in beside `RowScene`.
protocol DemoScene {
  /// The shape every ring shares, in points.
  var ring: DashedRing { get }
  var background: RGBAColor { get }
  /// `isAnimating = on` at `time` (times never go backwards).
  mutating func setAnimating(_ on: Bool, at time: Double)
  var isAnimating: Bool { get }
  /// Replaces `rings` with the scene at `t` in a container of `width` x `height` points,
  /// keeping the array's storage.
  func rings(at t: Double, width: Double, height: Double, into rings: inout [SceneRing])
}

/// The seed: one `LoaderView` centred in its container, timed by the reference model.
struct RowScene: DemoScene {
  let style: LoaderStyle
  let background: RGBAColor
  let ring: DashedRing
  private(set) var timeline: LoaderTimeline

  init(style: LoaderStyle = .seed, palette: LoaderPalette) {
    self.style = style.with(palette: palette)
    background = palette.background
    ring = DashedRing(style: self.style)
    timeline = LoaderTimeline(style: self.style)
  }

  var isAnimating: Bool { timeline.isAnimating }

  mutating func setAnimating(_ on: Bool, at time: Double) {
    timeline.setAnimating(on, at: time)
  }

  func rings(at t: Double, width: Double, height: Double, into rings: inout [SceneRing]) {
    rings.removeAll(keepingCapacity: true)
    let frames = RowLayout.frames(width: width, height: height, style: style)
    for (i, f) in frames.enumerated() {
      rings.append(
        SceneRing(
          loader: 0, ring: i, centerX: f.midX, centerY: f.midY, radius: f.width / 2,
          angle: timeline.angle(ofRing: i, at: t), color: style.color(ofRing: i)))
    }
  }
}

extension DemoScene {
  /// Applies `--toggle`: off until the first toggle, then flipping at each; on from 0 when
  /// there are none.
  mutating func apply(toggles: [Double]) {
    if toggles.isEmpty {
      setAnimating(true, at: 0)
      return
    }
    var on = false
    for t in toggles {
      on.toggle()
      setAnimating(on, at: t)
    }
  }
}
