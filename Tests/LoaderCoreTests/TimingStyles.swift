import LoaderCore

extension LoaderStyle {
  /// The seed with another timing: `rings` rings triggered `stagger` s apart, each turn
  /// `degrees` over `turn` s. The engine's, the jump's and the export's tests run these.
  static func timing(rings: Int, stagger: Double, turn: Double, degrees: Double = 360)
    -> LoaderStyle
  {
    var s = LoaderStyle.seed
    s.ringCount = rings
    s.stagger = stagger
    s.turnDuration = turn
    s.turnDegrees = degrees
    return s
  }
}
