import Foundation
import LoaderSDL

/// SDL's testsprite2 with loaders for sprites (`--scene sprites`): `count` sprites of seeded
/// random sizes, colours, positions and velocities bounce off the container's edges, each
/// carrying one loader in its frame.
///
/// As in testsprite2, positions and velocities live in separate arrays and one step moves
/// every sprite by its velocity, reflecting it off an edge (any number of times, so a long
/// step lands where many short ones would, up to rounding). A sprite's size `s` (points,
/// uniform in `sizes`) is its frame's height; its width is `s` times the row's natural
/// aspect (290 / 50 for the seed), so a sprite under 50 points holds the row scaled down and
/// a larger one the row at its natural size with wider spacers (SPEC's HStack never scales
/// up). Each ring takes a random one of SPEC's system colours (the four palettes' twenty).
struct BouncingSprites {
  /// Sprite heights, points.
  static let sizes = 8.0...120.0
  /// Sprite speeds, points per second.
  static let speeds = 40.0...160.0
  /// Every run's generator seed (xor the count), so a command line always shows one scene.
  static let seed: UInt64 = 0x5EED_0017

  /// Top-left corners, points.
  private(set) var x: [Double]
  private(set) var y: [Double]
  /// Points per second; the sign flips at each bounce.
  private(set) var vx: [Double]
  private(set) var vy: [Double]
  private(set) var width: [Double]
  private(set) var height: [Double]
  /// Ring colours, `ringCount` per sprite.
  private(set) var colors: [RGBAColor]
  /// The time `x` and `y` are at.
  private(set) var time = 0.0

  var count: Int { x.count }

  /// `count` sprites inside a `bounds` container, `ringCount` colours each; `aspect` is the
  /// row's natural width over its height.
  init(
    count: Int, bounds: (width: Double, height: Double), aspect: Double, ringCount: Int,
    seed: UInt64 = seed
  ) {
    var rng = SplitMix64(seed: seed ^ UInt64(count))
    x = []
    y = []
    vx = []
    vy = []
    width = []
    height = []
    colors = []
    x.reserveCapacity(count)
    y.reserveCapacity(count)
    vx.reserveCapacity(count)
    vy.reserveCapacity(count)
    width.reserveCapacity(count)
    height.reserveCapacity(count)
    colors.reserveCapacity(count * ringCount)
    for _ in 0..<count {
      let h =
        Self.sizes.lowerBound + rng.nextUnit() * (Self.sizes.upperBound - Self.sizes.lowerBound)
      let w = h * aspect
      height.append(h)
      width.append(w)
      x.append(rng.nextUnit() * max(0, bounds.width - w))
      y.append(rng.nextUnit() * max(0, bounds.height - h))
      let speed =
        Self.speeds.lowerBound + rng.nextUnit() * (Self.speeds.upperBound - Self.speeds.lowerBound)
      let direction = rng.nextUnit() * 2 * Double.pi
      vx.append(speed * cos(direction))
      vy.append(speed * sin(direction))
      for _ in 0..<ringCount {
        colors.append(Self.systemColors[Int(rng.next() % UInt64(Self.systemColors.count))])
      }
    }
  }

  /// Moves every sprite on to time `t` (>= `time`) in a `bounds` container.
  mutating func advance(to t: Double, bounds: (width: Double, height: Double)) {
    let dt = t - time
    guard dt > 0 else { return }
    time = t
    for i in x.indices {
      (x[i], vx[i]) = Self.bounce(x[i], vx[i], dt, room: bounds.width - width[i])
      (y[i], vy[i]) = Self.bounce(y[i], vy[i], dt, room: bounds.height - height[i])
    }
  }

  /// `p + v * dt` folded back into `[0, room]` by reflection at both ends, and the velocity
  /// after the last reflection. No room (a sprite wider than the container): it stays at 0.
  static func bounce(_ p: Double, _ v: Double, _ dt: Double, room: Double) -> (Double, Double) {
    guard room > 0 else { return (0, v) }
    let period = 2 * room
    let travelled = p + v * dt
    var q = travelled.truncatingRemainder(dividingBy: period)
    if q < 0 { q += period }
    // Past an odd number of edges the sprite comes back mirrored, moving the other way.
    let flipped = Int((travelled / room).rounded(.down)) % 2 != 0
    return (q <= room ? q : period - q, flipped ? -v : v)
  }

  /// The sprite's frame, points.
  func frame(_ i: Int) -> SDL_FRect {
    SDL_FRect(x: Float(x[i]), y: Float(y[i]), w: Float(width[i]), h: Float(height[i]))
  }

  /// Sprite `i`'s ring colours.
  func colors(of i: Int, ringCount: Int) -> ArraySlice<RGBAColor> {
    colors[(i * ringCount)..<((i + 1) * ringCount)]
  }

  /// SPEC's system colours: the ring colours of every palette, light and dark, iOS 13-18 and 26.
  static let systemColors =
    [LoaderPalette.light, .dark, .light26, .dark26].flatMap(\.ringColors)
}
