import Foundation
import LoaderCore
import Testing

@testable import LoaderSDL

@Suite struct OffscreenCanvasTests {
  @Test func clearsAndSavesAPNG() throws {
    let c = try OffscreenCanvas(width: 8, height: 4)
    c.clear(RGBAColor(hex: 0x102030))
    #expect(c.pixel(x: 7, y: 3) == RGBAColor(hex: 0x102030))
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("canvas-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("a.png").path
    try c.savePNG(to: path)
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(data.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["a.png"])
    #expect(throws: SDLError.self) { try c.savePNG(to: "/nonexistent-dir/x.png") }
    #expect(throws: SDLError.self) { try OffscreenCanvas(width: 0, height: 4) }
  }
}
