import Foundation
import LoaderCore
import LoaderSupport
import LoaderTestSupport
import Testing

@testable import LoaderSDL

@Suite struct OffscreenCanvasTests {
  @Test func clearsAndSavesAPNG() throws {
    let c = try OffscreenCanvas(width: 8, height: 4)
    c.clear(RGBAColor(hex: 0x102030))
    #expect(c.pixel(x: 7, y: 3) == RGBAColor(hex: 0x102030))
    let dir = try ScratchDirectory("canvas")
    defer { dir.remove() }
    let bytes = try c.pngData()
    #expect(bytes.prefix(4) == [0x89, 0x50, 0x4E, 0x47])
    try OutputFile.write(bytes, to: dir.file("a.png"))
    let image = try PNGImage(path: dir.file("a.png"))
    #expect(image.width == 8 && image.height == 4)
    #expect(image.pixels.allSatisfy { $0 == 0x102030 })
    #expect(dir.contents() == ["a.png"])
    #expect(throws: SDLError.self) { try OffscreenCanvas(width: 0, height: 4) }
  }
}
