import LoaderSDL

/// How long the window waits after a frame.
///
/// - Something moves (the next change is due within a frame): with vsync, `present` already
///   waited; without, wait out the rest of a 60 Hz frame (an event ends the wait early).
/// - Nothing moves until a scheduled change: wait for an event or that time.
/// - Nothing moves and nothing is scheduled: wait for an event.
///
/// The waits peek (`SDL_WaitEventTimeout(nil, ...)`): the event stays queued for the loop.
struct FramePacing {
  let hasVSync: Bool
  static let frameInterval = 1.0 / 60

  func wait(frameStart: Double, nextChange: Double?, clock: WindowClock) {
    let now = clock.now()
    guard let next = nextChange else {
      SDL_WaitEvent(nil)
      return
    }
    let due = max(next, frameStart + Self.frameInterval)
    if next <= frameStart + Self.frameInterval, hasVSync { return }
    let ms = (due - now) * 1000
    if ms >= 1 { SDL_WaitEventTimeout(nil, Int32(min(ms.rounded(.up), 1e9))) }
  }
}
