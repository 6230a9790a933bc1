/// A loader's handle in a `LoaderField`, from its `addLoader(isAnimating:at:)`.
///
/// Handles are values: compare them, keep them in sets and dictionaries. After the field's
/// `remove(_:)` the handle is stale: every call given it throws, even when a later loader
/// reuses its storage, so a stale handle can never steer someone else's loader.
public struct LoaderID: Hashable, Sendable, CustomStringConvertible {
  /// The loader's storage slot, reused after `remove`.
  package let slot: Int
  /// Tells a slot's loaders apart: a new loader in a reused slot gets the next generation.
  package let generation: UInt32

  package init(slot: Int, generation: UInt32) {
    self.slot = slot
    self.generation = generation
  }

  /// The handle as error messages print it: its storage slot and generation, `3.0`.
  public var description: String { "\(slot).\(generation)" }
}
