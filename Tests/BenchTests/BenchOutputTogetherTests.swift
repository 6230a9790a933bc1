import Foundation
import SwiftLoaderTestSupport
import Testing

/// The bench's JSON and chart go in together (`OutputFile.commit(_:)`): when one cannot be
/// written, neither appears.
@Suite struct BenchOutputTogetherTests {
  @Test(.enabled(if: FullDisk.canMount, Comment(rawValue: FullDisk.needs)))
  func aChartThatDoesNotFitTakesTheJSONWithIt() throws {
    // Room for the JSON (one 4 KiB page of tmpfs), not for the chart.
    let disk = try FullDisk.mount(leaving: 4096)
    defer { disk.unmount() }
    let r = try BuiltProduct.run(
      "bench",
      [
        "--quick", "--filter", "limit/memset", "--json", disk.path + "/r.json", "--chart",
        disk.path + "/c.png",
      ], environment: ["BENCH_NO_RELAUNCH": "1"])
    #expect(r.status == 1, "\(r.stderr)")
    #expect(r.stderr.contains("No space left on device"), "\(r.stderr)")
    #expect(disk.leftovers().isEmpty, "left: \(disk.leftovers())")
  }
}
