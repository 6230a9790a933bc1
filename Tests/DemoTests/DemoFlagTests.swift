import Foundation
import LoaderCore
import LoaderSDL
import SwiftLoaderSupport
import SwiftLoaderTestSupport
import Testing

@testable import SwiftLoaderDemo

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
    (["--zoom", "0"], "--zoom"),
    (["--zoom", "-1"], "--zoom"),
    (["--zoom", "nan"], "--zoom"),
    (["--zoom", "inf"], "--zoom"),
    (["--zoom", "1e308"], "--zoom"),
    (["--size", "390x120", "--zoom", "1e308"], "--size"),
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
    // One set of rules: a value starting with `--` is missing; a repeat is a mistake.
    (["--theme", "--headless"], "--theme"),
    (["--at", "--headless"], "--at"),
    (["--at", "0", "--at", "1"], "--at"),
    (["--headless", "--headless"], "--headless"),
    (["stray"], "stray"),
    (["-x"], "-x"),
    (["--at=", "0"], "--at"),
    // Style flags, checked through LoaderStyle, each error naming the flag.
    (["--rings", "0"], "--rings"),
    (["--rings", "1025"], "--rings"),
    (["--rings", "x"], "--rings"),
    (["--colors", "FF0000,zz"], "--colors"),
    (["--colors", "FF00"], "--colors"),
    (["--colors", "+FFFFF"], "--colors"),
    (["--colors", "FF0000FF0"], "--colors"),
    (["--colors", ","], "--colors"),
    (["--frame-size", "0"], "--frame-size"),
    (["--frame-size", "1e5"], "--frame-size"),
    (["--frame-size", "inf"], "--frame-size"),
    (["--line-width", "26"], "--line-width"),
    (["--line-width", "-4"], "--line-width"),
    (["--frame-size", "6"], "--line-width"),
    (["--dash", "-1"], "--dash"),
    (["--dash", "0,0"], "--dash"),
    (["--dash", "nan"], "--dash"),
    (["--dash", "0.001"], "--dash"),
    (["--dash", "2,,4"], "--dash"),
    (["--dash-phase", "inf"], "--dash-phase"),
    (["--dash-phase", "x"], "--dash-phase"),
    (["--cap", "square"], "--cap"),
    (["--turn", "0"], "--turn"),
    (["--turn", "1e-9"], "--turn"),
    (["--turn", "nan"], "--turn"),
    (["--stagger", "0"], "--stagger"),
    (["--stagger", "1e-300"], "--stagger"),
    (["--stagger", "1e6"], "--stagger"),
    (["--speed", "0"], "--speed"),
    (["--speed", "-1"], "--speed"),
    (["--speed", "1e9"], "--speed"),
    (["--speed", "1000", "--at", "100"], "--speed"),
    (["--reduced-motion=on"], "--reduced-motion"),
    (["--reduced-motion"], "--reduced-motion"),
    (["--max-fps", "0"], "--max-fps"),
    (["--max-fps", "nan"], "--max-fps"),
    (["--gutter", "1"], "--gutter"),
    (["--gutter", "-0.1"], "--gutter"),
    (["--threads", "0"], "--threads"),
    (["--threads", "257"], "--threads"),
    (["--hud", "yes"], "--hud"),
    (["--vsync", "1"], "--vsync"),
    (["--verbose=1"], "--verbose"),
    (["--fullscreen=no"], "--fullscreen"),
    (["--renderer", "nope"], "--renderer"),
    (["--info=yes"], "--info"),
    (["--record", "x.png"], "--record"),
    (["--record", "gif"], "--record"),
    (["--record", "dir/.gif"], "--record"),
    (["--fps", "30"], "--fps"),
    (["--record", "a.gif", "--fps", "0"], "--fps"),
    (["--record", "a.gif", "--fps", "241"], "--fps"),
    (["--duration", "1"], "--duration"),
    (["--record", "a.gif", "--duration", "0"], "--duration"),
    (["--record", "a.gif", "--duration", "601"], "--duration"),
    (["--record", "a.gif", "--loop", "--duration", "2"], "--duration"),
    (["--loop"], "--loop"),
    (["--pixel-format", "yuv444p"], "--pixel-format"),
    (["--record", "a.mp4", "--pixel-format", "yuv422p"], "--pixel-format"),
    (["--record", "a.webm", "--pixel-format", ""], "--pixel-format"),
    (["--record", "a.gif", "--pixel-format", "yuv444p"], "--pixel-format"),
    (["--record", "a.webp", "--pixel-format", "yuv420p"], "--pixel-format"),
    (["--quiet=yes"], "--quiet"),
    // Headless frames' flags would be ignored by a recording: refused, not dropped.
    (["--record", "a.gif", "--at", "0"], "--at"),
    (["--at", "0", "--record", "a.webm"], "--at"),
    // Derived pixel sizes, checked before any work (each once trapped a backend).
    (["--zoom", "23", "--at", "0"], "--zoom"),
    (["--size", "1x1", "--zoom", "16384"], "--zoom"),
    (["--size", "0.01x0.01", "--zoom", "100"], "--zoom"),
    (["--size", "3e-309x3e-309", "--zoom", "1.7e308", "--at", "0,1"], "--zoom"),
    (["--size", "1e-300x1e-300", "--zoom", "1e300"], "--zoom"),
    (["--size", "1e19x1e19", "--zoom", "1e-16"], "--size"),
    (["--size", "0.4x0.4"], "--size"),
    (["--size", "390x120", "--zoom", "1e-300"], "--size"),
    (["--frame-size", "600"], "--frame-size"),
    (["--count", "4", "--size", "16384x16384", "--zoom", "1.01"], "--size"),
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

  /// `--out --headless` once made a directory named `--headless`: a value starting with
  /// `--` is missing, whichever flag it follows.
  @Test func aValueStartingWithTwoDashesIsMissing() throws {
    let dir = try ScratchDirectory("dashes")
    defer { dir.remove() }
    for (arguments, flag) in [
      (["--out", "--headless"], "--out"), (["--trace", "--at", "0"], "--trace"),
      (["--record", "--loop"], "--record"), (["--out"], "--out"),
    ] {
      let r = try DemoProcess.run(arguments, directory: dir.url)
      #expect(r.status == 2)
      #expect(r.stderr == "demo: \(flag): needs a value\n")
      #expect(dir.contents().isEmpty)
    }
    // A single dash is a value: a negative time, refused as such.
    let r = try DemoProcess.run(["--at", "-1"], directory: dir.url)
    #expect(r.stderr.hasPrefix("demo: --at: expected a number of seconds in 0...86400, got '-1'"))
  }

  /// A value is echoed cut to a few dozen characters, with control characters escaped, so
  /// the error stays one readable line whatever was typed.
  @Test func errorLinesCutLongValuesAndEscapeNewlines() throws {
    let long = String(repeating: "y", count: 100_000)
    let r = try DemoProcess.run(["--theme", long])
    #expect(r.status == 2)
    #expect(
      r.stderr == "demo: --theme: unknown theme '\(String(repeating: "y", count: 77))...' "
        + "(expected light, dark, light26 or dark26)\n")
    let n = try DemoProcess.run(["--count", "1\n2"])
    #expect(n.status == 2)
    #expect(n.stderr == "demo: --count: expected an integer in 1...1000000, got '1\\n2'\n")
    let flag = try DemoProcess.run(["--\u{1B}[2J" + String(repeating: "z", count: 500)])
    #expect(flag.status == 2)
    #expect(flag.stderr.hasPrefix("demo: '--\\u{1B}[2Jzzz"), "stderr: \(flag.stderr)")
    #expect(flag.stderr.hasSuffix("z...': unknown option (see --help)\n"))
  }

  /// Every new flag's good values, read into the options (and the style validated).
  @Test func goodValuesOfEveryFlagAreRead() throws {
    func parse(_ a: [String]) throws -> DemoOptions { try DemoOptions.parse(a) }
    var style = LoaderStyle.seed
    #expect(try parse([]).style == style)
    style.ringCount = 7
    style.colors = [RGBAColor(r: 255, g: 0, b: 0, a: 0x80), RGBAColor(hex: 0x00FF00)]
    style.frameSize = 40
    style.lineWidth = 6
    style.dash = try DashPattern([3, 1], phase: 1.5)
    style.lineCap = .butt
    style.turnDuration = 0.9
    style.stagger = 0.1
    let o = try parse([
      "--rings", "7", "--colors", "#FF000080,00ff00", "--frame-size", "40", "--line-width=6",
      "--dash", "3,1", "--dash-phase", "1.5", "--cap", "butt", "--turn", "0.9", "--stagger",
      "0.1", "--speed", "0.5", "--reduced-motion", "slow", "--max-fps", "20", "--gutter",
      "0.25", "--threads", "3",
      "--hud", "off", "--verbose", "--fullscreen", "--vsync", "off", "--renderer", "software",
      "--info", "--record", "l.WebP", "--fps", "60", "--duration", "1.5",
    ])
    #expect(o.style == style)
    #expect(o.speed == 0.5 && o.motion == .slow(factor: 0.25) && o.gutter == 0.25)
    #expect(o.threads == 3 && o.maximumFrameRate == 20)
    #expect(o.hud == false && o.verbose && o.fullscreen && !o.vsync && o.renderer == "software")
    #expect(o.info && o.recordPath == "l.WebP" && o.fps == 60 && o.recordDuration == 1.5)
    #expect(!o.loop)
    // Defaults, and what each switch does when absent.
    let d = try parse([])
    #expect(d.speed == 1 && d.motion == .full && d.gutter == 0.25 && d.threads == nil)
    #expect(d.maximumFrameRate == nil)
    #expect(d.hud == nil && !d.verbose && !d.fullscreen && d.vsync && d.renderer == nil)
    #expect(!d.info && d.recordPath == nil && d.fps == 50 && d.recordDuration == nil && !d.loop)
    // The theme colours the rings unless --colors says otherwise; --dash-phase alone shifts
    // the seed's pattern.
    #expect(try parse(["--theme", "dark"]).style.colors == LoaderPalette.dark.ringColors)
    #expect(
      try parse(["--theme", "dark", "--colors", "123456"]).style.colors == [
        RGBAColor(hex: 0x123456)
      ])
    #expect(try parse(["--dash-phase", "-2"]).style.dash == DashPattern([2, 4, 6], phase: -2))
    #expect(try parse(["--dash", "5"]).style.dash == DashPattern([5]))
    #expect(try parse(["--record", "x.gif", "--loop"]).loop)
    #expect(d.pixelFormat == .yuv420p && !d.quiet)
    #expect(try parse(["--record", "x.WEBM", "--pixel-format", "yuv444p"]).pixelFormat == .yuv444p)
    #expect(try parse(["--record", "x.mp4", "--pixel-format", "yuv420p"]).pixelFormat == .yuv420p)
    #expect(try parse(["--quiet"]).quiet)
    for path in ["out/a.gif", "a.webp", "../a.mp4", "./x.webm", "A.GIF", ".hidden.gif"] {
      #expect(try parse(["--record", path]).recordPath == path)
    }
    for name in LoaderWindow.renderDriverNames {
      #expect(try parse(["--renderer", name]).renderer == name)
    }
    #expect(try parse(["--hud", "on"]).hud == true)
    // At the limits: a 256 px ring radius and a 16384 px side are drawn.
    #expect(try parse(["--zoom", "10.24", "--at", "0"]).zoom == 10.24)
    #expect(try parse(["--size", "16384x100"]).width == 16384)
  }

  /// Good values change the picture but never the rules: each run exits 0 and writes its frame.
  @Test(arguments: [
    ["--rings", "3", "--colors", "FF000080", "--frame-size", "30", "--line-width", "2"],
    ["--dash", "1,2", "--dash-phase", "0.5", "--cap", "butt", "--turn", "1", "--stagger", "0.5"],
    ["--speed", "2", "--reduced-motion", "pulse", "--gutter", "0.2", "--threads", "1"],
    ["--reduced-motion", "still", "--max-fps", "20", "--hud", "off"],
    ["--verbose", "--fullscreen", "--vsync", "off", "--renderer", "software"],
    ["--zoom", "10.24"],
  ])
  func goodValuesRender(arguments: [String]) throws {
    let dir = try ScratchDirectory("good")
    defer { dir.remove() }
    let r = try DemoProcess.run(["--at", "0.35", "--out", dir.file("o")] + arguments)
    #expect(r.status == 0, "stderr: \(r.stderr)")
    #expect(r.stderr.isEmpty)
    let png = try PNGImage(path: dir.file("o/frame-0000-t0.350.png"))
    #expect(png.width >= 390 && png.height >= 120)
  }

  /// The style flags reach the picture: one purple ring of 80 points on the dark background,
  /// where the seed has five coloured ones of 50.
  @Test func styleFlagsChangeThePicture() throws {
    let dir = try ScratchDirectory("style")
    defer { dir.remove() }
    let r = try DemoProcess.run([
      "--at", "0", "--rings", "1", "--colors", "8E44AD", "--frame-size", "80", "--line-width",
      "8", "--dash", "10,5", "--cap", "butt", "--theme", "dark", "--out", dir.file("o"),
    ])
    #expect(r.status == 0, "stderr: \(r.stderr)")
    let png = try PNGImage(path: dir.file("o/frame-0000-t0.000.png"))
    let purple = png.pixels.filter { $0 == 0x8E44AD }.count
    let black = png.pixels.filter { $0 == 0 }.count
    let other = png.pixels.count - purple - black
    // The ring's centreline is 36 pt long around 2 pi; two thirds of it is on, 8 wide.
    #expect(purple > 800, "purple pixels: \(purple)")
    #expect(black > png.pixels.count * 9 / 10)
    #expect(other < purple, "only the ring's antialiased edges are in between: \(other)")
    let seed = try DemoProcess.run(["--at", "0", "--out", dir.file("s")])
    #expect(seed.status == 0)
    let seedPNG = try PNGImage(path: dir.file("s/frame-0000-t0.000.png"))
    #expect(!seedPNG.pixels.contains(0x8E44AD))
    #expect(seedPNG.pixels.contains(0xFF3B30))
  }

  @Test func infoPrintsTheRendererAndExitsZero() throws {
    let r = try DemoProcess.run(["--info"])
    #expect(r.status == 0, "stderr: \(r.stderr)")
    #expect(r.stderr.isEmpty)
    let lines = r.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == "video driver: dummy")
    for name in LoaderWindow.renderDriverNames {
      #expect(lines.contains { $0.hasPrefix("  \(name): ") }, "lists \(name)")
    }
    #expect(lines.contains { $0.hasPrefix("window renderer: software: SOFTWARE") })
    let asked = try DemoProcess.run(["--info", "--renderer", "software", "--vsync", "off"])
    #expect(asked.status == 0)
    #expect(asked.stdout.contains("window renderer: software: SOFTWARE"))
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
        == ["frame-0000-t1.300.png", "frame-0001-t0.000.png", "frame-0002-t0.100.png"])
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
        == [
          "frame-0000-t0.000.png", "frame-0001-t0.350.png", "frame-0002-t0.700.png",
          "frame-0003-t1.300.png",
        ])
  }

  /// The help is generated from the flag table; this snapshot is what a user reads, so a
  /// change to any flag's declaration shows here.
  @Test func helpListsEveryFlagWithItsDefault() throws {
    let r = try DemoProcess.run(["--help"])
    #expect(r.status == 0)
    #expect(r.stderr.isEmpty)
    #expect(r.stdout == DemoOptions.helpText)
    #expect(
      r.stdout == """
        usage: demo [options]

        Shows SwiftUI's LoaderView (five dashed rings spinning in turn) in a window, or renders frames
        headless (with --headless, with SDL_VIDEODRIVER=dummy, with --at/--out/--trace/--record, or when no
        display can be opened).

        options:
          --scene NAME         seed (one LoaderView), grid (--count loaders) or sprites (--count loaders
                               riding bouncing sprites of random sizes and colours, SDL's testsprite2 scene)
                               (default seed)
          --count N            loaders in the grid or on the sprites, 1...1000000; implies --scene grid
                               unless --scene sprites is given (default 1000, 100 sprites)
          --size WxH           container size in points, at most 16384 a side (default 390x120, a window
                               390x320; 1280x720 for the grid and the sprites)
          --zoom Z             draw everything Z times larger: headless frames at Z pixels per point, a
                               window Z times larger at the display's own density (default 1)
          --theme NAME         light, dark, light26 or dark26: background and ring colours (default light)
          --backend NAME       ring rasterizer: gfx, spans or gpu (default per frame: spans on SDL's
                               software renderer, gpu on OpenGL on a GPU, else gfx for small frames and
                               spans for large ones)
          --threads N          threads that draw and step, 1...256 (default all cores)
          --rings N            rings in each loader, 1...1024 (default 5)
          --colors HEX,...     ring colours as RRGGBB or RRGGBBAA, ring i taking colour i mod the count
                               (default the theme's)
          --frame-size PT      side of each ring's square frame, points (default 50)
          --line-width PT      stroke width, points, at most half the frame size (default 4)
          --dash A,B,...       dash lengths along the centreline, points, on and off alternating (an odd
                               count repeats) (default 2,4,6)
          --dash-phase PT      offset into the dash pattern, points (default 0)
          --cap round|butt     how each dash ends (default round)
          --turn S             seconds one turn of a ring takes (SwiftUI's .linear(duration:)) (default 0.6)
          --stagger S          seconds between one ring's trigger and the next's (default 0.25)
          --speed X            the loaders' clock against the wall clock, 0.001...1000; [ and ] halve and
                               double it in a window (default 1)
          --reduced-motion NAME
                               a reduced-motion policy: pulse (no rotation, each ring's opacity pulses on
                               the same schedule), slow (each turn a quarter as far) or still (rings at
                               rest, nothing moves); M cycles through them in a window (default off)
          --max-fps N          the most frames a second a window draws while the rings move (a status-bar
                               spinner's 20 saves power); frames still show exact times (default none)
          --gutter FRACTION    fraction of each grid cell kept empty around its loader, 0...0.9 (0: edge to
                               edge) (default 0.25)
          --at T1,T2,...       simulated times in seconds to render headless (default 0,0.35,0.7,1.3)
          --toggle T1,T2,...   times at which every loader's isAnimating flips; starts off, the first turns
                               it on (default none, animating from 0)
          --toggle-random SEED each loader flips on its own random schedule in the first 10 s, seeded by
                               SEED (0...2^64-1) and its number; the trace lists it (default none)
          --out DIR            where headless frames go: frame-0000-t0.000.png, ... in --at order, each
                               named with its time; earlier frames of that pattern are removed first
                               (default out)
          --trace FILE         also write each frame's rings (loader, ring, centre, radius, angle) and any
                               --toggle-random schedule as JSON (default none)
          --headless           render offscreen instead of opening a window (--record implies it) (default
                               off)
          --record FILE        record the animation headless at exact times, format by extension: .gif,
                               .webp, .mp4, .webm; R records in a window; .svg, .json write one steady
                               period as an animated SVG or a Lottie file (default none)
          --fps N              frames a second of --record, 1...240 (default 50)
          --duration S         seconds of --record, at most 600 (default 2.5)
          --loop               record exactly one steady-state period (rings x stagger, from that time on),
                               so the file loops without a seam (default off)
          --pixel-format NAME  chroma of an .mp4 or .webm --record: yuv420p (every player decodes it, but at
                               --zoom 1 a ring's 4-pixel stroke loses colour: 28-32 dB a ring against the
                               headless frame) or yuv444p (full colour, 36-42 dB a ring; not every player
                               decodes it) (default yuv420p)
          --svg-animation NAME how --record FILE.svg animates: smil (<animateTransform>) or css (@keyframes,
                               which Chromium turns as a bitmap, slightly blurred) (default smil)
          --hud on|off         frame times, counts and backend over the scene (H toggles); on draws it into
                               headless frames too (default on in a window, off headless)
          --verbose            print the frame rate to stderr once a second (default off)
          --quiet              no progress line: headless runs over a second otherwise show frames done,
                               time and an estimate on stderr when it is a terminal (default off)
          --fullscreen         open the window full screen (the desktop's resolution) (default off)
          --vsync on|off       wait for the display's refresh when presenting (default on)
          --renderer NAME      SDL render driver: opengl, opengles2 or software (default accelerated if any,
                               else software)
          --info               print the video driver, the render drivers and the renderer the window would
                               use, then exit
          --help               show this help

        The grid cuts the container into equal cells, one loader row each, filled row by row, with the
        column count that lets the rows be largest; every loader is scaled by that one factor (at most 1),
        so all are visible at once, then shrunk by 1 - --gutter about its cell's centre, so neighbours stay
        apart.

        Pixel sizes are checked before anything is drawn: a frame is 1...16384 px a side, a ring's radius
        (--frame-size / 2 x grid fit x --zoom) at most 256 px.

        window keys: Space toggles the seed's loader (grid and sprites: all), A toggles all (all off if any
        animates, else all on), a click toggles the loader under the pointer, + and - double and halve the
        grid (1...1000000), B switches to the next backend, [ and ] halve and double the speed, M cycles the
        reduced-motion policies, H the HUD, ? or F1 the keys panel, S or PrintScreen saves a screenshot
        (screenshot-*.png here), R starts and stops a recording (recording-*.gif here), Esc quits. Space, A,
        a click and + / - drop what is left of --toggle or --toggle-random.

        """)
    let short = try DemoProcess.run(["-h"])
    #expect(short.stdout == r.stdout)
  }
}
