import LoaderSDL

/// What a window event asks the demo to do: the demo's key map, in one place (README's keys).
enum WindowCommand: Sendable, Equatable {
  case quit
  case toggleAnimating
  /// `A`.
  case toggleAll
  /// `B`: the next rasterizer backend.
  case cycleBackend
  /// `+` (or `=`, keypad `+`).
  case grow
  /// `-` (or keypad `-`).
  case shrink
  /// A left click at this point, in window points.
  case click(x: Double, y: Double)
  /// The renderer lost its textures: rasterizers must rebuild them.
  case renderTargetsReset
  /// `H`: show or hide the heads-up display.
  case toggleHUD
  /// `?` (Shift + `/`) or `F1`: show or hide the list of keys.
  case toggleKeys
  /// `S` or PrintScreen: save the frame on screen.
  case screenshot
  /// `R`: start or stop recording.
  case toggleRecording
  /// `[`: half the speed.
  case slower
  /// `]`: twice the speed.
  case faster
  /// `M`: the next reduced-motion policy (off, pulse, slow, still).
  case toggleReducedMotion

  /// The command for `event`, nil for a key the demo does not use.
  init?(_ event: LoaderWindow.Event) {
    switch event {
    case .quit: self = .quit
    case .click(let x, let y): self = .click(x: x, y: y)
    case .renderTargetsReset: self = .renderTargetsReset
    case .key(let sym, let shift):
      guard
        let command = Self.keys[Int(sym)]
          ?? (shift && sym == SDLK_SLASH.rawValue ? .toggleKeys : nil)
      else { return nil }
      self = command
    }
  }

  private static let keys: [Int: WindowCommand] = [
    Int(SDLK_ESCAPE.rawValue): .quit,
    Int(SDLK_SPACE.rawValue): .toggleAnimating,
    Int(SDLK_a.rawValue): .toggleAll,
    Int(SDLK_b.rawValue): .cycleBackend,
    Int(SDLK_PLUS.rawValue): .grow, Int(SDLK_EQUALS.rawValue): .grow,
    Int(SDLK_KP_PLUS.rawValue): .grow,
    Int(SDLK_MINUS.rawValue): .shrink, Int(SDLK_KP_MINUS.rawValue): .shrink,
    Int(SDLK_h.rawValue): .toggleHUD,
    Int(SDLK_F1.rawValue): .toggleKeys, Int(SDLK_QUESTION.rawValue): .toggleKeys,
    Int(SDLK_s.rawValue): .screenshot, Int(SDLK_PRINTSCREEN.rawValue): .screenshot,
    Int(SDLK_r.rawValue): .toggleRecording,
    Int(SDLK_LEFTBRACKET.rawValue): .slower,
    Int(SDLK_RIGHTBRACKET.rawValue): .faster,
    Int(SDLK_m.rawValue): .toggleReducedMotion,
  ]
}
