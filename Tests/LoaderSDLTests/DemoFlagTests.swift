import Foundation
import LoaderSDL
import Testing

/// The demo's command line: help text, and every bad input refused before anything is written.
@Suite struct DemoFlagTests {
  static let badArguments: [(arguments: [String], flag: String)] = [
    (["--bogus"], "--bogus"),
    (["--size", "0x0"], "--size"),
    (["--size", "abc"], "--size"),
    (["--size", "390x"], "--size"),
    (["--size", "-390x120"], "--size"),
    (["--size", "nanx120"], "--size"),
    (["--size", "100000x120"], "--size"),
    (["--at", "-1"], "--at"),
    (["--at", "x"], "--at"),
    (["--at", "0,,1"], "--at"),
    (["--at", "nan"], "--at"),
    (["--at", "inf"], "--at"),
    (["--at", "1e300"], "--at"),
    (["--at"], "--at"),
    (["--scale", "0"], "--scale"),
    (["--scale", "-1"], "--scale"),
    (["--scale", "nan"], "--scale"),
    (["--scale", "inf"], "--scale"),
    (["--theme", "sepia"], "--theme"),
    (["--backend", "nope"], "--backend"),
    (["--toggle", "0.3,0.1"], "--toggle"),
    (["--toggle", "0.3,0.3"], "--toggle"),
    (["--toggle", "-0.5"], "--toggle"),
    (["--headless=yes"], "--headless"),
    (["--backend", ""], "--backend"),
    (["--backend"], "--backend"),
    (["--scene", "row"], "--scene"),
    (["--scene", ""], "--scene"),
    (["--count", "0"], "--count"),
    (["--count", "-3"], "--count"),
    (["--count", "1000001"], "--count"),
    (["--count", "1.5"], "--count"),
    (["--count", "1e3"], "--count"),
    (["--count", "lots"], "--count"),
    (["--scene", "seed", "--count", "10"], "--count"),
    (["--count", "10", "--scene", "seed"], "--count"),
    (["--toggle-random", "-1"], "--toggle-random"),
    (["--toggle-random", "1.5"], "--toggle-random"),
    (["--toggle-random", "x"], "--toggle-random"),
    (["--toggle-random", "18446744073709551616"], "--toggle-random"),
    (["--toggle-random", "3", "--toggle", "1"], "--toggle-random"),
    (["--count", "1000000", "--at", "101"], "--at"),
  ]

  @Test(arguments: badArguments)
  func badInputExitsTwoWithOneLineAndWritesNothing(arguments: [String], flag: String) throws {
    let dir = try ScratchDirectory("bad")
    defer { dir.remove() }
    // A bad flag first, then output options that would write if parsing went on.
    let r = try DemoProcess.run(
      ["--out", dir.file("frames"), "--trace", dir.file("t.json")] + arguments)
    #expect(r.status == 2)
    #expect(r.stdout.isEmpty)
    let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 2 && lines[1].isEmpty, "expected one line, got: \(r.stderr)")
    #expect(lines.first?.hasPrefix("demo: \(flag): ") == true, "stderr: \(r.stderr)")
    #expect(dir.contents().isEmpty)
  }

  @Test func unwritableOutDirectory() throws {
    let dir = try ScratchDirectory("unwritable")
    defer { dir.remove() }
    // A plain file where a directory is expected, a directory below it, and /proc (which
    // refuses new files even to root).
    #expect(FileManager.default.createFile(atPath: dir.file("plain"), contents: Data("x".utf8)))
    for out in [dir.file("plain"), dir.file("plain/sub"), "/proc/demo-test-out"] {
      let r = try DemoProcess.run(["--at", "0", "--out", out, "--trace", dir.file("t.json")])
      #expect(r.status == 2, "--out \(out)")
      #expect(r.stderr.hasPrefix("demo: --out: "), "stderr: \(r.stderr)")
      #expect(r.stderr.filter { $0 == "\n" }.count == 1)
      #expect(dir.contents() == ["plain"])
    }
    let r = try DemoProcess.run([
      "--out", dir.file("frames"), "--trace", dir.file("no/such/t.json"),
    ])
    #expect(r.status == 2)
    #expect(r.stderr.hasPrefix("demo: --trace: "), "stderr: \(r.stderr)")
    #expect(dir.contents() == ["plain"])
  }

  @Test func writesFramesInAtOrderAndSaysWhere() throws {
    let dir = try ScratchDirectory("order")
    defer { dir.remove() }
    let out = dir.file("nested/frames")
    let r = try DemoProcess.run(["--at", "1.3,0,0.1", "--out", out])
    #expect(r.status == 0, "stderr: \(r.stderr)")
    #expect(r.stdout.contains(out))
    #expect(
      (try? FileManager.default.contentsOfDirectory(atPath: out).sorted())
        == ["frame-0000.png", "frame-0001.png", "frame-0002.png"])
  }

  @Test func withoutADisplayItRendersTheDefaultFramesHeadless() throws {
    let dir = try ScratchDirectory("nodisplay")
    defer { dir.remove() }
    let r = try DemoProcess.run([], withoutDisplay: true, directory: dir.url)
    #expect(r.status == 0, "stderr: \(r.stderr)")
    #expect(r.stderr.hasPrefix("demo: no display"))
    #expect(r.stderr.filter { $0 == "\n" }.count == 1)
    let out = dir.url.appendingPathComponent("out").standardizedFileURL.path
    #expect(r.stdout.contains(out), "stdout: \(r.stdout)")
    #expect(
      (try? FileManager.default.contentsOfDirectory(atPath: out).sorted())
        == ["frame-0000.png", "frame-0001.png", "frame-0002.png", "frame-0003.png"])
  }

  @Test func helpListsEveryFlagWithItsDefault() throws {
    let r = try DemoProcess.run(["--help"])
    #expect(r.status == 0)
    #expect(r.stderr.isEmpty)
    #expect(
      r.stdout == """
        usage: demo [options]

        Shows SwiftUI's LoaderView (five dashed rings spinning in turn) in a window, or renders
        frames headless (with --headless, with SDL_VIDEODRIVER=dummy, with --at/--out/--trace,
        or when no display can be opened).

        options:
          --scene NAME         seed (one LoaderView) or grid (--count loaders) (default seed)
          --count N            loaders in the grid, 1...1000000; implies --scene grid (default 1000)
          --size WxH           container size in points (default 390x120; 1280x720 for the grid)
          --scale S            pixel density of headless frames (default 1; a window uses its own)
          --theme NAME         light, dark, light26 or dark26 (default light)
          --backend NAME       ring rasterizer: \(RingBackend.namesList) (default: spans when the
                               renderer runs on the CPU, geometry on a GPU)
          --at T1,T2,...       simulated times in seconds to render headless (default 0,0.1,0.35,1.3)
          --toggle T1,T2,...   times at which every loader's isAnimating flips; starts off, the first
                               turns it on (default: none, animating from 0)
          --toggle-random SEED each loader flips on its own random schedule in the first 10 s, seeded
                               by SEED (0...2^64-1) and its number; the trace lists it (default none)
          --out DIR            where headless frames go: frame-0000.png, ... in --at order (default out)
          --trace FILE         also write each frame's rings (loader, ring, centre, radius, angle)
                               and any --toggle-random schedule as JSON (default none)
          --headless           render offscreen instead of opening a window (default off)
          --help               show this help

        The grid cuts the container into equal cells, one loader row each, filled row by row,
        with the column count that lets the rows be largest; every loader is scaled by that one
        factor (at most 1), so all are visible at once.

        window keys: Space toggles the seed's loader (grid: all), A toggles all (all off if any
        animates, else all on), a click toggles the loader under the pointer, + and - double and
        halve the grid (1...1000000), B switches to the next backend, Esc quits. Any of these but
        B and Esc drops what is left of --toggle or --toggle-random.

        """)
  }
}
