extension LoaderField {
  /// The continuous map from the caller's clock `t` to loader time `tau`:
  /// ```
  /// tau(t) = tau_k + speed * (t - t_k)
  /// ```
  /// with `(t_k, tau_k)` the latest speed change (`(start, 0)` before any). A change at `t`
  /// takes `tau_k = tau(t)` under the old rate, so `tau` (and with it every angle) has no jump
  /// there and its slope becomes the new speed. At speed 1 from `start = 0`, `tau(t) = t`
  /// exactly: `0 + 1 * (t - 0)` rounds nothing.
  struct SpeedClock: Sendable, Hashable {
    private(set) var speed = 1.0
    private var callerOrigin: Double
    private var loaderOrigin = 0.0

    init(start: Double) {
      callerOrigin = start
    }

    func loaderTime(at t: Double) -> Double { loaderOrigin + speed * (t - callerOrigin) }

    /// The inverse map (exact where `loaderTime` is, up to rounding elsewhere).
    func callerTime(at tau: Double) -> Double { callerOrigin + (tau - loaderOrigin) / speed }

    mutating func change(speed newSpeed: Double, at t: Double) {
      loaderOrigin = loaderTime(at: t)
      callerOrigin = t
      speed = newSpeed
    }
  }
}
