import Testing

@testable import LoaderPixels

/// `PageMemory`: large buffers mapped page by page (so they return to the system when let
/// go), small ones from the allocator; both hold what is written to them.
@Suite struct PageMemoryTests {
  @Test(arguments: [16, (64 << 10) / 4 - 1, (64 << 10) / 4, 1 << 20])
  func buffersHoldWhatIsWritten(count: Int) {
    let p = PageMemory.allocate(UInt32.self, capacity: count)
    defer { PageMemory.deallocate(p, capacity: count) }
    for i in 0..<count { p[i] = UInt32(truncatingIfNeeded: i &* 2_654_435_761) }
    #expect((0..<count).allSatisfy { p[$0] == UInt32(truncatingIfNeeded: $0 &* 2_654_435_761) })
    // Mapped buffers start on a page; the allocator's large blocks sit 16 bytes past one.
    let mapped = count * MemoryLayout<UInt32>.stride >= PageMemory.threshold
    if mapped { #expect(UInt(bitPattern: p) % 4096 == 0, "\(count) values mapped") }
  }
}
