import LoaderCore

/// One draw call's rings and their shapes' caches, as a backend receives them.
package struct RasterFrame {
  package let rings: UnsafeBufferPointer<RingInstance>
  /// By shape index (`RingInstance.shape`): the shape's cache, nil when it has nothing to draw.
  package let caches: UnsafeBufferPointer<(any RingShapeCache)?>
  /// Threads the backend's CPU work may use.
  package let threads: Int
  /// The store's clock (`ShapeStore.now`): what a backend stamps the entries it uses with.
  package let now: UInt32
  /// The store's masks (the `spans` kernel's).
  package let masks: MaskCache

  package init(
    rings: UnsafeBufferPointer<RingInstance>, caches: UnsafeBufferPointer<(any RingShapeCache)?>,
    threads: Int, now: UInt32, masks: MaskCache
  ) {
    self.masks = masks
    self.rings = rings
    self.caches = caches
    self.threads = threads
    self.now = now
  }

  /// Each shape's cache as the backend's own type, in `list` (emptied first, capacity kept).
  package func caches<C: RingShapeCache>(as type: C.Type, into list: inout [C?]) {
    list.removeAll(keepingCapacity: true)
    for c in caches { list.append(c as? C) }
  }

  /// Calls `body` with every ring that can put ink in `region`, in order, with its shape's
  /// cache (`caches`, typed) and shape index: rings that are not finite, fully transparent,
  /// of a shape without a cache, or further than their cache's `reach` outside the region are
  /// skipped. `body` returns false to stop; the result says whether every ring was seen.
  /// `@inlinable`: the backends on a renderer (LoaderSDL) call it with their own cache types
  /// and closures, once a ring; inlined there, it is specialized for them.
  @inlinable @inline(__always)
  package func forEachVisibleRing<C: RingShapeCache, E: Error>(
    caches typed: [C?], in region: PixelRegion,
    _ body: (RingInstance, C, Int32) throws(E) -> Bool
  ) throws(E) -> Bool {
    let (x0, y0) = (Float(region.x), Float(region.y))
    let (x1, y1) = (Float(region.x + region.width), Float(region.y + region.height))
    var current = Int32(-1)
    // The current shape's cache, not retained: `typed` holds it for the whole call, and a
    // strong reference would retain and release at every change of shape.
    var cache: Unmanaged<C>?
    var reach: Float = 0
    for ring in rings {
      if ring.shape != current {
        current = ring.shape
        if current >= 0, Int(current) < typed.count, let c = typed[Int(current)] {
          cache = Unmanaged.passUnretained(c)
          reach = c.cullingReach
        } else {
          cache = nil
        }
      }
      // NaN and infinite centres fail these comparisons too.
      guard let cache, ring.color.a > 0, ring.angle.isFinite, ring.centerX + reach > x0,
        ring.centerY + reach > y0, ring.centerX - reach < x1, ring.centerY - reach < y1
      else { continue }
      // Lent to `body` without a retain (takeUnretainedValue would still retain it for the
      // call): the typed error travels around `_withUnsafeGuaranteedRef`'s untyped rethrows.
      var failure: E?
      let more = cache._withUnsafeGuaranteedRef { c -> Bool in
        do throws(E) { return try body(ring, c, current) } catch {
          failure = error
          return false
        }
      }
      if let failure { throw failure }
      guard more else { return false }
    }
    return true
  }
}
