import Testing

@testable import LoaderCore

/// `DashedRing.DistanceTable.coverage(x:y:)`'s shortcuts for thin strokes (a pixel inside one
/// dash's angular range takes its quarters' distances from the ring's sides; a pixel far from
/// the ink takes none) give the very numbers of the four full distances, at every pixel.
@Suite struct QuarterCoverageTests {
  static var rings: [(String, DashedRing)] {
    let seed = DashedRing(style: .seed)
    var rings: [(String, DashedRing)] = [
      ("seed at 0.2", seed.scaled(by: 0.2)),
      ("seed at 0.37", seed.scaled(by: 0.37)),
      ("seed at 0.45", seed.scaled(by: 0.45)),
    ]
    let dashes = [
      DashedRing.Dash(start: -0.3, end: 0.4), DashedRing.Dash(start: 1.0, end: 1.0),
      DashedRing.Dash(start: 2.0, end: 2.05), DashedRing.Dash(start: 3.0, end: 5.5),
    ]
    for cap in [LineCap.round, .butt] {
      rings.append(
        ("\(cap), odd dashes", DashedRing(radius: 9.3, halfWidth: 0.7, cap: cap, dashes: dashes)))
      rings.append(
        (
          "\(cap), solid",
          DashedRing(
            radius: 6, halfWidth: 0.4, cap: cap,
            dashes: [DashedRing.Dash(start: 0, end: 2 * Double.pi)])
        ))
    }
    rings.append(
      (
        "tiny",
        DashedRing(radius: 1.2, halfWidth: 0.5, cap: .round, dashes: [dashes[0], dashes[3]])
      ))
    return rings
  }

  @Test(arguments: 0..<rings.count)
  func shortcutsEqualTheFullQuarters(_ index: Int) {
    let (name, ring) = Self.rings[index]
    let table = DashedRing.DistanceTable(ring)
    #expect(ring.halfWidth < DashedRing.DistanceTable.supersampledBelowHalfWidth, "\(name)")
    let reach = ring.radius + ring.halfWidth + 2
    var cases = (body: 0, clear: 0, general: 0)
    var mismatches = 0
    // Every 1/16 pixel over the ring's square: pixel centres at every sub-pixel offset.
    var y = -reach
    while y <= reach {
      var x = -reach
      while x <= reach {
        let fast = table.coverage(x: x, y: y)
        let full = table.quarterCoverage(x: x, y: y)
        if fast != full { mismatches += 1 }
        switch table.quarterCase(x: x, y: y) {
        case .body: cases.body += 1
        case .clear: cases.clear += 1
        case .general: cases.general += 1
        }
        x += 1.0 / 16
      }
      y += 1.0 / 16
    }
    #expect(mismatches == 0, "\(name): \(mismatches) pixels differ")
    // The shortcuts are taken: most pixels of a round-capped ring's square take one of them
    // (butt ends take only the clear one).
    if ring.cap == .round, ring.radius > 6 {
      #expect(cases.body + cases.clear > cases.general, "\(name): \(cases)")
    }
    if !name.contains("solid") { #expect(cases.clear > 0, "\(name)") }
  }
}
