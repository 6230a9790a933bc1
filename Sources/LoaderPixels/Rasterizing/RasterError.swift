/// A part of the drawing refused or failed: what it was and why (a ring too large for a
/// backend, a buffer the kernel cannot use). LoaderSDL's `SDLError` carries the same two
/// strings for an SDL call; `LoaderField.Error` wraps either in one line.
package struct RasterError: Error, Sendable, CustomStringConvertible {
  /// The part that refused (`"spans backend"`) or the call that failed.
  package var call: String
  /// Why.
  package var message: String

  package init(_ call: String, message: String) {
    self.call = call
    self.message = message
  }

  /// The part and the reason in one line: `spans backend failed: ...`.
  package var description: String { "\(call) failed: \(message)" }
}
