/// A shape's handle in one `ShapeStore` (its slot and the entry's generation), so a field finds
/// its shapes' caches without hashing them; a stale or foreign one, or one whose entry holds
/// another shape, is looked up again.
package struct ShapeID: Hashable, Sendable {
  let store: UInt32
  let index: Int32
  let generation: UInt32
  package static let none = ShapeID(store: 0, index: -1, generation: 0)
}
