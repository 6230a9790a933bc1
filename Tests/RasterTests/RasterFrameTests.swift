import LoaderCore
import Testing

@testable import LoaderPixels

/// `RasterFrame.forEachVisibleRing`, the loop every backend draws through: which rings it
/// hands over, with which cache, and how it stops. It lends each ring's cache without a
/// retain, so the tests also check that no reference is gained or lost on the way.
@Suite struct RasterFrameTests {
  final class Cache: RingShapeCache {
    let name: String
    init(_ name: String) { self.name = name }
    var bytes: Int { 0 }
    var cullingReach: Float { 5 }
  }

  struct Stop: Error, Equatable { let at: Int }

  static let region = PixelRegion(originX: 0, originY: 0, x: 0, y: 0, width: 100, height: 100)

  static func ring(_ x: Float, _ y: Float, shape: Int32, alpha: UInt8 = 255) -> RingInstance {
    RingInstance(
      centerX: x, centerY: y, angle: 30, color: RGBAColor(r: 1, g: 2, b: 3, a: alpha),
      shape: shape)
  }

  /// Visible rings in order, each with its shape's cache; the rest skipped: no cache (nil or an
  /// index out of range), fully transparent, not finite, or beyond the cache's reach.
  static let rings: [RingInstance] = [
    ring(10, 10, shape: 0),  // 0: seen
    ring(20, 10, shape: 1),  // 1: seen
    ring(30, 10, shape: 2),  // shape 2 has no cache
    ring(40, 10, shape: 7),  // out of range
    ring(50, 10, shape: 0, alpha: 0),  // transparent
    ring(.nan, 10, shape: 1),  // not finite
    ring(-6, 10, shape: 0),  // beyond the reach on the left
    ring(-4, 50, shape: 0),  // 7: within the reach, seen
    ring(60, 104, shape: 1),  // 8: within the reach below, seen
    ring(60, 106, shape: 1),  // beyond it
    ring(70, 70, shape: 0),  // 10: seen
  ]

  func visits(
    caches: [Cache?], stoppingAt stop: Int? = nil, throwingAt failure: Int? = nil
  ) throws(Stop) -> (seen: [(ring: Int, cache: String, shape: Int32)], finished: Bool) {
    var seen: [(ring: Int, cache: String, shape: Int32)] = []
    let erased: [(any RingShapeCache)?] = caches.map { $0 }
    let finished = try Self.rings.withUnsafeBufferPointer { rings throws(Stop) in
      try erased.withUnsafeBufferPointer { list throws(Stop) in
        let frame = RasterFrame(rings: rings, caches: list, threads: 1, now: 1, masks: MaskCache())
        var typed: [Cache?] = []
        frame.caches(as: Cache.self, into: &typed)
        return try frame.forEachVisibleRing(caches: typed, in: Self.region) {
          (ring, cache, shape) throws(Stop) -> Bool in
          let index = Self.rings.firstIndex { $0 == ring } ?? -1
          if index == failure { throw Stop(at: index) }
          seen.append((index, cache.name, shape))
          return index != stop
        }
      }
    }
    return (seen, finished)
  }

  @Test func visibleRingsComeInOrderWithTheirCaches() throws {
    let (seen, finished) = try visits(caches: [Cache("a"), Cache("b"), nil])
    #expect(finished)
    #expect(seen.map(\.ring) == [0, 1, 7, 8, 10])
    #expect(seen.map(\.cache) == ["a", "b", "a", "b", "a"])
    #expect(seen.map(\.shape) == [0, 1, 0, 1, 0])
  }

  @Test func aBodyReturningFalseStopsTheLoop() throws {
    let (seen, finished) = try visits(caches: [Cache("a"), Cache("b"), nil], stoppingAt: 7)
    #expect(!finished)
    #expect(seen.map(\.ring) == [0, 1, 7])
  }

  @Test func aBodysErrorComesOutAsItsOwnType() {
    #expect(throws: Stop(at: 8)) {
      try visits(caches: [Cache("a"), Cache("b"), nil], throwingAt: 8)
    }
  }

  /// The caches are lent, not retained: after thousands of rings (and an error half way
  /// through another pass) each is held exactly as before.
  @Test func lendingACacheNeitherKeepsNorDropsAReference() throws {
    var a = Cache("a")
    var b = Cache("b")
    for _ in 0..<1000 {
      _ = try visits(caches: [a, b, nil])
      _ = try? visits(caches: [a, b, nil], throwingAt: 7)
    }
    #expect(isKnownUniquelyReferenced(&a))
    #expect(isKnownUniquelyReferenced(&b))
    #expect(a.name == "a" && b.name == "b")
  }
}
