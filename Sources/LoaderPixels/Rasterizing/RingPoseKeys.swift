/// A ring's pose as both ring caches key it (the gfx texture atlas and the span backend's
/// coverage masks): a ring's pixels depend only on its rotation, rounded to one of `phases`
/// steps of a turn, and on its centre's offset within a pixel, rounded to `subpixelSteps`
/// steps a side.
///
/// ```
/// phases = max(64, ceil(2 pi reach / 0.2))      reach: the outermost pixel's radius
/// phase  = round(degrees / 360 * phases) mod phases
/// key    = (phase * S + sy) * S + sx             S = subpixelSteps, 0 <= sx, sy < S
/// ```
/// so rounding the angle moves no ink by more than 0.1 pixel. The per-ring functions are
/// `@inlinable`: the gfx atlas (LoaderSDL) calls them a ring each.
package struct RingPoseKeys {
  package let phases: Int
  package let subpixelSteps: Int

  /// `log2(subpixelSteps)`: the steps are a power of two, so the anchor is a shift.
  package let stepShift: Int

  package init(reach: Double, subpixelSteps: Int) {
    precondition(
      subpixelSteps > 0 && subpixelSteps & (subpixelSteps - 1) == 0,
      "sub-pixel steps must be a power of two")
    phases = max(64, Int((2 * Double.pi * reach / 0.2).rounded(.up)))
    self.subpixelSteps = subpixelSteps
    stepShift = subpixelSteps.trailingZeroBitCount
  }

  /// How many keys there are: every phase at every sub-pixel offset.
  package var count: Int { phases * subpixelSteps * subpixelSteps }

  /// The phase index of `degrees` (any finite value).
  @inlinable @inline(__always)
  package func phase(ofDegrees degrees: Float) -> Int {
    var d = Double(degrees)
    // Truncation below stays exact and in range; only absurd angles pay for fmod.
    if abs(d) >= 1e9 { d = d.truncatingRemainder(dividingBy: 360) }
    var turns = d / 360
    turns -= Double(Int(turns))
    if turns < 0 { turns += 1 }
    let p = Int(turns * Double(phases) + 0.5)  // 0...phases
    return p == phases ? 0 : p
  }

  /// The anchor pixel and sub-pixel step of a centre coordinate `c` (pixels, finite, well
  /// inside `Int`'s range: callers cull first), the one rounding both atlases share:
  /// ```
  /// q = floor(c * S + 1/2),   pixel = floor(q / S),   step = q - pixel * S
  /// ```
  @inlinable @inline(__always)
  package func anchor(_ c: Float) -> (pixel: Int, step: Int) {
    let q = Int((Double(c) * Double(subpixelSteps) + 0.5).rounded(.down))
    // An arithmetic shift floors negative values too.
    return (q >> stepShift, q & (subpixelSteps - 1))
  }

  @inlinable @inline(__always)
  package func key(phase: Int, sx: Int, sy: Int) -> Int {
    (phase * subpixelSteps + sy) * subpixelSteps + sx
  }

  /// The phase and sub-pixel steps `key` stands for: `key(phase:sx:sy:)` undone, for the
  /// caches that build a key's picture.
  package func decode(_ key: Int) -> (phase: Int, sx: Int, sy: Int) {
    let s = subpixelSteps
    return (phase: key / (s * s), sx: key % s, sy: (key / s) % s)
  }
}
