import LoaderSDL

/// How long the window waits after a frame.
///
/// - Something moves (the next change is due within a frame): wait out the rest of a 60 Hz
///   frame. With vsync `present` has usually waited already, so this is a no-op; a driver that
///   reports vsync without blocking (SDL's `offscreen`) would otherwise spin.
/// - Nothing moves until a scheduled change: wait for an event or that time.
/// - Nothing moves and nothing is scheduled: wait for an event.
///
/// The waits peek: the event stays queued for the loop. Where the video driver can block on
/// its event source (X11, Wayland) SDL's own wait sleeps until an event; elsewhere SDL polls
/// every millisecond, which costs a few percent of a core, so the pacing sleeps
/// between looks instead (at most `idlePoll` of latency while idle).
struct FramePacing {
  let hasVSync: Bool
  /// SDL's wait blocks in the driver instead of polling.
  let waitsNatively: Bool
  static let frameInterval = 1.0 / 60
  /// With vsync, `present` returns a little before the next frame is due.
  static let vsyncSlack = 0.002
  /// Between looks at the queue where SDL would poll: a key waits at most this long.
  static let idlePoll = 0.05

  init(hasVSync: Bool) {
    self.hasVSync = hasVSync
    let driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? ""
    waitsNatively = ["x11", "wayland"].contains(driver)
  }

  func wait(frameStart: Double, nextChange: Double?, clock: WindowClock) {
    let now = clock.now()
    guard let next = nextChange else {
      waitForEvent(seconds: nil, clock: clock)
      return
    }
    let slack = hasVSync ? Self.vsyncSlack : 0
    let due = max(next, frameStart + Self.frameInterval - slack)
    if due > now { waitForEvent(seconds: due - now, clock: clock) }
  }

  /// Returns when an event is queued or after `seconds` (nil: no limit).
  private func waitForEvent(seconds: Double?, clock: WindowClock) {
    if waitsNatively {
      guard let seconds else {
        SDL_WaitEvent(nil)
        return
      }
      let ms = seconds * 1000
      if ms >= 1 { SDL_WaitEventTimeout(nil, Int32(min(ms.rounded(.up), 1e9))) }
      return
    }
    let end = seconds.map { clock.now() + $0 }
    var peeked = SDL_Event()
    while true {
      SDL_PumpEvents()
      let first = SDL_FIRSTEVENT.rawValue
      let last = SDL_LASTEVENT.rawValue
      if SDL_PeepEvents(&peeked, 1, SDL_PEEKEVENT, first, last) > 0 { return }
      let left = end.map { $0 - clock.now() } ?? Self.idlePoll
      if left <= 0 { return }
      SDL_Delay(UInt32(max(1, (min(left, Self.idlePoll) * 1000).rounded(.down))))
    }
  }
}
