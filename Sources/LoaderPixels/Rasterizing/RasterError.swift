/// A part of the drawing refused or failed: what it was, why, and the kind of failure (a ring
/// too large for a backend, an SDL call that failed). Backends and kernels throw it, LoaderSDL
/// included (its `SDLError` is this type); a public call turns it into `LoaderField.Error` in
/// one place, `LoaderField.Error.failed(_:)`, keeping `reason`.
package struct RasterError: Error, Sendable, CustomStringConvertible {
  /// The part that refused (`"spans backend"`) or the call that failed.
  package var call: String
  package var message: String
  /// What kind of failure, as the public error reports it.
  package var reason: LoaderField.Error.Reason

  package init(
    _ call: String, message: String, reason: LoaderField.Error.Reason = .backendFailed
  ) {
    self.call = call
    self.message = message
    self.reason = reason
  }

  /// The part and the reason in one line: `SDL_CreateTexture failed: Out of memory`, or
  /// `spans backend: ring radius 3000.0 px exceeds ...` for a refusal.
  package var description: String {
    reason == .backendFailed ? "\(call) failed: \(message)" : "\(call): \(message)"
  }
}
