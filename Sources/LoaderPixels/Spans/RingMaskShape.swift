import LoaderCore
import Synchronization

/// One ring shape (pixel units) as the `spans` kernel draws it: how its masks are keyed, how
/// far they reach, and the distance they are built from. Its masks live in the store's
/// `MaskCache`; this is the shape's cache in the `ShapeStore` (`bytes`: the distance table and
/// grid).
///
/// A mask is the shape's antialiased coverage at one rotation phase and sub-pixel offset
/// (`RingPoseKeys`): rings of one shape differ only by those, so a frame of many rings is a
/// frame of copies of a few masks. Coverage of a pixel is `DashedRing`'s rule at its centre,
/// `clamp(min(1/2 - d, 2 h), 0, 1)` with `d` the signed distance to the stroke and `h` its half
/// width, averaged over the pixel's four quarters for strokes under 2 pixels wide; rings under
/// 8 pixels across take the one-pixel box. Whether `d` is read from a `RingDistanceGrid`
/// (bilinear, within 40 dB of the exact rule; one grid for every shape of the same proportions
/// within an octave of sizes, kept by the `MaskCache`) or evaluated exactly is decided by the
/// shape alone (`RingDistanceGrid.unit(of:)`), so a mask's bytes never depend on what was
/// built before.
package final class RingMaskShape: RingShapeCache {
  let shape: DashedRing
  let keys: RingPoseKeys
  /// Tells this shape's masks from every other's in a `MaskCache` (unique in the process).
  let serial: UInt64
  /// No chunk reaches further than this many pixels from the anchor pixel, in any direction.
  let reach: Int
  /// No chunk lies more than this many rows above or below the anchor pixel's row (the rows
  /// whose centre lies within the ink's outer radius plus a pixel): the bands schedule and
  /// clip a ring by it.
  let rowReach: Int
  /// The smallest pitch chunk offsets are stored at: a row spans under half of it, so an
  /// offset's row and column read back from it (`MaskCache.position(_:pitch:)`).
  let ownPitch: Int
  /// The shape's signed distance, exact.
  let table: DashedRing.DistanceTable
  /// The ring whose `RingDistanceGrid` masks read, and this shape's pixels per its pixel;
  /// nil for a shape that takes the exact rule.
  let grid: (unit: DashedRing, scale: Double)?

  private static let serials = Atomic<UInt64>(1)

  /// Sub-pixel steps a side: 8, or 4 for a ring under 8 pixels across (outer radius under
  /// `smallRingRadius`), whose centre then moves by up to 1/8 px instead of 1/16.
  static func defaultSubpixelSteps(for shape: DashedRing) -> Int {
    shape.radius + shape.halfWidth < smallRingRadius ? 4 : 8
  }

  /// Outer radius, pixels, under which a ring counts as small.
  static let smallRingRadius = 4.0

  /// The widest ring taken, pixels from centre to outer edge: chunk offsets stay in 32 bits
  /// and a key in 23 (`MaskCache`); one mask at this size is about 11 MB.
  package static let maximumRadius = 2048.0

  /// - Parameters:
  ///   - shape: the ring, in pixels.
  ///   - exact: every mask by the exact rule, never a grid (tests' reference).
  package init(shape: DashedRing, exact: Bool = false) {
    self.shape = shape
    let outer = shape.radius + shape.halfWidth + 1
    keys = RingPoseKeys(reach: outer, subpixelSteps: Self.defaultSubpixelSteps(for: shape))
    reach = Int(outer.rounded(.up)) + 2 + MaskCache.chunk
    rowReach = Int((outer + 0.5).rounded(.up))
    ownPitch = 8 * (reach + 2)
    precondition(keys.count <= 1 << 23, "maximumRadius keeps a key in 23 bits")
    precondition(ownPitch * (rowReach + 1) <= Int(Int32.max), "and offsets in 32")
    table = DashedRing.DistanceTable(shape)
    grid = exact || table.isEmpty ? nil : RingDistanceGrid.unit(of: shape)
    serial = Self.serials.wrappingAdd(1, ordering: .relaxed).oldValue
  }

  /// The pitch this shape's masks are stored at for a target `pitch` bytes a row: the
  /// target's, so the unclipped blender adds an offset to an address, unless the target is
  /// narrower than the ring or so wide the offsets leave 32 bits (then `ownPitch`).
  func storedPitch(forTarget pitch: Int) -> Int {
    pitch >= ownPitch && (rowReach + 1) * pitch <= Int(Int32.max) ? pitch : ownPitch
  }

  /// The mask cache's key of `key` (a `RingPoseKeys` key) of this shape.
  @inline(__always)
  func cacheKey(_ key: Int) -> UInt64 { serial << 23 | UInt64(key) }

  /// The distance table, as allocated (its grid and masks are the `MaskCache`'s).
  package var bytes: Int { table.bytes }
  package var cullingReach: Float { Float(reach) }
}
