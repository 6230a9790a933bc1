import CSwiftLoaderSDL2
import Foundation
import LoaderCore

/// Paints dashed rings with SDL2_gfx primitives only: a one-row `boxRGBA` for each run of
/// pixels the stroke covers completely, `pixelRGBA` with the pixel's coverage as alpha for the
/// antialiased fringe. Not a backend: the `gfx` backend (`GfxRingRasterizer`) paints its atlas
/// cells and shape textures with it, once each, and copies them. (`hlineRGBA` goes through
/// SDL's line drawing, which leaves partial-alpha runs off the ideal; a box fills each pixel
/// once.)
///
/// SDL2_gfx has no thick arc and takes integer pixel indices, so a polygon construction snaps
/// every vertex to the grid and misses the 30 dB bar; here coverage is computed in continuous
/// coordinates and only the pixel is an index, exact up to 8-bit rounding.
///
/// Coverage is `DashedRing.DistanceTable.coverage(x:y:)` at the pixel's centre, turned back by
/// the ring's rotation. Only pixels in the annulus `R - h - f < rho < R + h + f` can be
/// touched (`f` from `DistanceTable.fringeReach(halfWidth:)`), so each row is scanned over at
/// most two short spans. SDL2_gfx index `i` names the pixel covering `[i, i + 1)`, whose
/// centre is `i + 1/2`. A colour's alpha multiplies the coverage (straight alpha, source-over,
/// as SDL2_gfx blends).
package final class GfxRingPainter {
  /// The distance table of the shape last drawn.
  private var table: DashedRing.DistanceTable?
  private var tableShape: DashedRing?

  /// Rings reaching further than this from their centre are refused: far beyond any target
  /// SDL2_gfx's 16-bit indices address, and small enough that every coordinate product stays
  /// exact to well under a pixel.
  static let maximumRadius = Double(1 << 20)

  package init() {}

  /// Draws `rings`, every one shaped like `shape` (pixels), with centres in the renderer's
  /// current pixels: its scale is set to 1 meanwhile (`HostRenderState`), its viewport and
  /// clip rect respected.
  package func draw(_ rings: [RingInstance], shape: DashedRing, on renderer: OpaquePointer)
    throws(SDLError)
  {
    guard try shape.isDrawable(by: "gfx-direct", limit: Self.maximumRadius) else { return }
    let state = HostRenderState.enter(renderer)
    defer { state.restore() }
    for ring in rings { try paint(ring, shape: shape, on: renderer) }
  }

  /// Paints one ring of `shape` (drawable) at the renderer's current state.
  func paint(_ ring: RingInstance, shape: DashedRing, on renderer: OpaquePointer)
    throws(SDLError)
  {
    if tableShape != shape {
      table = DashedRing.DistanceTable(shape)
      tableShape = shape
    }
    guard let table, draw(ring, table: table, on: renderer) else {
      throw SDLError("boxRGBA/pixelRGBA")
    }
  }

  /// Draws one ring; false when an SDL call failed.
  private func draw(
    _ ring: RingInstance, table: DashedRing.DistanceTable, on renderer: OpaquePointer
  ) -> Bool {
    let cx = Double(ring.centerX)
    let cy = Double(ring.centerY)
    guard cx.isFinite, cy.isFinite, ring.angle.isFinite else { return true }
    let rotation = Double(ring.angle).truncatingRemainder(dividingBy: 360) * .pi / 180
    let (cosine, sine) = (cos(rotation), sin(rotation))
    let r = table.radius
    let h = table.halfWidth
    let fringe = DashedRing.DistanceTable.fringeReach(halfWidth: h)
    let outer = r + h + fringe
    let inner = Swift.max(0, r - h - fringe)
    let (cr, cg, cb, ca) = (ring.color.r, ring.color.g, ring.color.b, Double(ring.color.a))
    guard ca > 0 else { return true }

    /// Coverage of the pixel whose centre is at `(x, y)` from the ring's centre: the point
    /// turned back by the rotation instead of the ring turned.
    func coverage(_ x: Double, _ y: Double) -> Double {
      table.coverage(x: x * cosine + y * sine, y: y * cosine - x * sine)
    }

    var ok = true
    /// Scans pixels `i0...i1` of row `j`: full runs as one box, fringe pixels one by one.
    func scan(_ i0: Int, _ i1: Int, _ j: Int, _ y: Double) {
      var runStart = Int.min
      for i in i0...i1 {
        let a = (coverage(Double(i) + 0.5 - cx, y) * ca).rounded()
        if a >= ca {
          if runStart == Int.min { runStart = i }
          continue
        }
        if runStart != Int.min {
          ok =
            ok
            && boxRGBA(
              renderer, Int16(runStart), Int16(j), Int16(i - 1), Int16(j), cr, cg, cb, UInt8(ca))
              == 0
          runStart = Int.min
        }
        if a > 0 {
          ok = ok && pixelRGBA(renderer, Int16(i), Int16(j), cr, cg, cb, UInt8(a)) == 0
        }
      }
      if runStart != Int.min {
        ok =
          ok
          && boxRGBA(
            renderer, Int16(runStart), Int16(j), Int16(i1), Int16(j), cr, cg, cb, UInt8(ca))
            == 0
      }
    }

    // SDL2_gfx takes Int16 indices: rows and columns outside that range cannot be drawn.
    let limit = Double(Int16.max)
    guard cx + outer >= 0, cy + outer >= 0, cx - outer <= limit, cy - outer <= limit else {
      return true
    }
    let j0 = Int(Swift.max(0, (cy - outer).rounded(.down)))
    let j1 = Int(Swift.min(limit, (cy + outer).rounded(.up)))
    guard j0 <= j1 else { return true }
    for j in j0...j1 {
      let y = Double(j) + 0.5 - cy
      guard abs(y) < outer else { continue }
      let xo = (outer * outer - y * y).squareRoot()
      // Pixel i is scanned when its centre i + 1/2 lies in [cx + a, cx + b].
      func span(_ a: Double, _ b: Double) {
        let i0 = Int(Swift.max(0, (cx + a - 0.5).rounded(.up)))
        let i1 = Int(Swift.min(limit, (cx + b - 0.5).rounded(.down)))
        if i0 <= i1 { scan(i0, i1, j, y) }
      }
      if abs(y) < inner {
        let xi = (inner * inner - y * y).squareRoot()
        span(-xo, -xi)
        span(xi, xo)
      } else {
        span(-xo, xo)
      }
    }
    return ok
  }
}
