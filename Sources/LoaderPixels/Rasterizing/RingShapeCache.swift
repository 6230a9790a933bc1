/// What a backend keeps for one shape on one renderer (a `RingMaskShape`, a gfx atlas or
/// texture): made by the `ShapeStore` on the first draw that needs it, let go with its shape.
package protocol RingShapeCache: AnyObject {
  /// Bytes held now, memory and textures, as allocated (capacities, whole texture pages), so
  /// the store's budget bounds the memory.
  var bytes: Int { get }
  /// How far from a ring's centre its ink (and the backend's footprint) reaches, pixels:
  /// rings further than this outside the visible region are skipped.
  var cullingReach: Float { get }
  /// Frees what lives on the renderer now (textures); the cache is not used again.
  func close()
  /// Grows within `bytes` from now on, letting go of what it holds past them: the store gives
  /// every cache a draw uses its share of the budget now (`CachePolicy.shapeShare`). A cache
  /// that does not grow while drawing ignores it.
  func fit(toBytes bytes: Int)
}

extension RingShapeCache {
  package func close() {}
  package func fit(toBytes bytes: Int) {}
}
