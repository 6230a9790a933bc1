/// Memory a backend keeps for itself beside its shapes' caches (an overlay texture, vertex
/// buffers): a `ShapeStore` counts it in its one total and ranks it as an entry used again at
/// the backend's last draw, and lets it go through `trimOwnMemory(toBytes:)` when the budget
/// or the idle sweep says so.
package protocol BackendMemory: AnyObject {
  /// Bytes held now, as allocated.
  var ownBytes: Int { get }
  /// Lets go of what it holds until at most `bytes` remain (0: all of it); the next draw that
  /// needs it makes it again.
  func trimOwnMemory(toBytes bytes: Int)
}
