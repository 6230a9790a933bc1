import LoaderCore
import LoaderSDL
import SwiftLoaderFrameRecording
import SwiftLoaderHarness
import SwiftLoaderSupport

// The demo's flag table: every flag, its help and how it sets `DemoOptions` (the help text and
// the parser are both made from it).
extension DemoOptions {
  static let table = FlagTable<Parsed>(
    program: "demo", usage: "demo [options]",
    summary: """
      Shows SwiftUI's LoaderView (five dashed rings spinning in turn) in a window, or renders \
      frames headless (with --headless, with SDL_VIDEODRIVER=dummy, with --at/--out/--trace/--record, \
      or when no display can be opened).
      """,
    flags: [
      .value(
        "--scene", "NAME",
        help: "seed (one LoaderView), grid (--count loaders) or sprites (--count loaders riding"
          + " bouncing sprites of random sizes and colours, SDL's testsprite2 scene)",
        default: "seed"
      ) { p, v in
        p.options.scene = try FlagValue.choice(v, "scene", of: SceneKind.self)
      },
      .value(
        "--count", "N",
        help:
          "loaders in the grid or on the sprites, 1...\(LoaderScene.maximumCount); implies"
          + " --scene grid unless --scene sprites is given",
        default: "\(defaultGridCount), \(defaultSpriteCount) sprites"
      ) { p, v in p.options.count = try FlagValue.integer(v, in: 1...LoaderScene.maximumCount) },
      .value(
        "--size", "WxH",
        help: "container size in points, at most \(ScenePixelSizes.maximumSide) a side",
        default:
          "390x120, a window 390x\(FlagValue.text(seedWindowHeight)); 1280x720 for the grid and"
          + " the sprites"
      ) { p, v in (p.options.width, p.options.height) = try FlagValue.size(v) },
      .value(
        "--zoom", "Z",
        help: "draw everything Z times larger: headless frames at Z pixels per point, a window Z"
          + " times larger at the display's own density",
        default: "1"
      ) { p, v in p.options.zoom = try FlagValue.positive(v) },
      .value(
        "--theme", "NAME",
        help:
          "\(FlagValue.list(LoaderTheme.allCases.map(\.rawValue))): background and ring colours",
        default: "light"
      ) { p, v in
        p.options.theme = try FlagValue.choice(v, "theme", of: LoaderTheme.self)
      },
      .value(
        "--backend", "NAME",
        help: "ring rasterizer: \(FlagValue.list(RingBackend.allCases.map(\.rawValue)))",
        default:
          "per frame: spans on SDL's software renderer, gpu on OpenGL on a GPU, else gfx for"
          + " small frames and spans for large ones"
      ) { p, v in
        p.options.backend = try FlagValue.choice(v, "backend", of: RingBackend.self)
      },
      .value(
        "--threads", "N", help: "threads that draw and step, 1...\(maximumThreads)",
        default: "all cores"
      ) { p, v in p.options.threads = try FlagValue.integer(v, in: 1...maximumThreads) },
      .value(
        "--rings", "N", help: "rings in each loader, 1...\(LoaderStyle.maximumRingCount)",
        default: "5"
      ) { p, v in
        p.options.style.ringCount = try FlagValue.integer(v, in: 1...LoaderStyle.maximumRingCount)
      },
      .value(
        "--colors", "HEX,...",
        help: "ring colours as RRGGBB or RRGGBBAA, ring i taking colour i mod the count",
        default: "the theme's"
      ) { p, v in p.colors = try parseColors(v) },
      .value("--frame-size", "PT", help: "side of each ring's square frame, points", default: "50")
      { p, v in
        p.options.style.frameSize = try FlagValue.positive(v, atMost: LoaderStyle.maximumFrameSize)
      },
      .value(
        "--line-width", "PT", help: "stroke width, points, at most half the frame size",
        default: "4"
      ) { p, v in
        p.options.style.lineWidth = try FlagValue.positive(
          v, atMost: LoaderStyle.maximumFrameSize / 2)
      },
      .value(
        "--dash", "A,B,...",
        help:
          "dash lengths along the centreline, points, on and off alternating (an odd count repeats)",
        default: "2,4,6"
      ) { p, v in
        p.dash = try FlagValue.numbers(
          v, in: 0...LoaderStyle.maximumFrameSize * 4, what: "a length in points",
          maximumCount: DashPattern.maximumCount)
      },
      .value("--dash-phase", "PT", help: "offset into the dash pattern, points", default: "0") {
        p, v in
        p.dashPhase = try FlagValue.number(v, in: -1e9...1e9, what: "a length in points")
      },
      .value("--cap", "round|butt", help: "how each dash ends", default: "round") { p, v in
        p.options.style.lineCap = try FlagValue.choice(v, "cap", of: LineCap.self)
      },
      .value(
        "--turn", "S", help: "seconds one turn of a ring takes (SwiftUI's .linear(duration:))",
        default: "0.6"
      ) { p, v in p.options.style.turnDuration = try seconds(v) },
      .value(
        "--stagger", "S", help: "seconds between one ring's trigger and the next's", default: "0.25"
      ) {
        p, v in p.options.style.stagger = try seconds(v)
      },
      .value(
        "--speed", "X",
        help:
          "the loaders' clock against the wall clock, \(FlagValue.text(speedRange.lowerBound))...\(FlagValue.text(speedRange.upperBound)); [ and ] halve and double it in a window",
        default: "1"
      ) { p, v in p.options.speed = try FlagValue.number(v, in: speedRange, what: "a speed") },
      .value(
        "--reduced-motion", "NAME",
        help: "a reduced-motion policy: pulse (no rotation, each ring's opacity pulses on the"
          + " same schedule), slow (each turn a quarter as far) or still (rings at rest, nothing"
          + " moves); M cycles through them in a window",
        default: "off"
      ) { p, v in
        p.options.motion = try FlagValue.choice(v, "reduced motion", from: reducedMotions)
      },
      .value(
        "--max-fps", "N",
        help: "the most frames a second a window draws while the rings move (a status-bar"
          + " spinner's 20 saves power); frames still show exact times",
        default: "none"
      ) { p, v in
        p.options.maximumFrameRate = try FlagValue.number(v, in: 1...240, what: "a frame rate")
      },
      .value(
        "--gutter", "FRACTION",
        help:
          "fraction of each grid cell kept empty around its loader, 0...0.9 (0: edge to edge)",
        default: "\(FlagValue.text(defaultGutter))"
      ) {
        p, v in p.options.gutter = try FlagValue.number(v, in: 0...0.9, what: "a fraction")
      },
      .value(
        "--at", "T1,T2,...", help: "simulated times in seconds to render headless",
        default: defaultTimes.map { FlagValue.text($0) }.joined(separator: ",")
      ) { p, v in p.options.times = try times(v) },
      .value(
        "--toggle", "T1,T2,...",
        help: "times at which every loader's isAnimating flips; starts off, the first turns it on",
        default: "none, animating from 0"
      ) { p, v in
        let t = try times(v)
        for k in t.indices.dropFirst() where t[k] <= t[k - 1] {
          throw FlagProblem("times must increase, got \(t[k]) after \(t[k - 1])")
        }
        p.options.toggles = t
      },
      .value(
        "--toggle-random", "SEED",
        help:
          "each loader flips on its own random schedule in the first 10 s, seeded by SEED (0...2^64-1) and its number; the trace lists it",
        default: "none"
      ) { p, v in p.options.toggleRandomSeed = try FlagValue.unsigned64(v) },
      .value(
        "--out", "DIR",
        help:
          "where headless frames go: frame-0000-t0.000.png, ... in --at order, each named with its time; earlier frames of that pattern are removed first",
        default: defaultOutDirectory
      ) { p, v in p.options.outDirectory = v },
      .value(
        "--trace", "FILE",
        help:
          "also write each frame's rings (loader, ring, centre, radius, angle) and any --toggle-random schedule as JSON",
        default: "none"
      ) { p, v in p.options.tracePath = v },
      .switch(
        "--headless", help: "render offscreen instead of opening a window (--record implies it)"
      ) {
        $0.options.headless = true
      },
      .value(
        "--record", "FILE",
        help:
          "record the animation headless at exact times, format by extension: \(RecordingFormat.extensionsList); R records in a window; \(VectorFormat.extensionsList) write one steady period as an animated SVG or a Lottie file",
        default: "none"
      ) { p, v in
        // A bare extension (`.gif`, `dir/.gif`) is a name with nothing before its dot.
        let name = v.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let ext = RecordingFormat(path: v)?.rawValue ?? VectorFormat(path: v)?.rawValue else {
          throw FlagProblem(
            "\(ErrorLine.quote(v)) does not end in one of \(RecordingFormat.extensionsList), "
              + VectorFormat.extensionsList)
        }
        guard name.count > ext.count + 1 else {
          throw FlagProblem("\(ErrorLine.quote(v)) has no file name before its .\(ext)")
        }
        p.options.recordPath = v
      },
      .value(
        "--fps", "N", help: "frames a second of --record, \(RecordingSchedule.frameRates)",
        default: "50"
      ) {
        p, v in
        p.options.fps = try FlagValue.integer(v, in: RecordingSchedule.frameRates)
      },
      .value(
        "--duration", "S",
        help: "seconds of --record, at most \(FlagValue.text(maximumRecordDuration))",
        default: "\(FlagValue.text(defaultRecordDuration))"
      ) { p, v in
        p.options.recordDuration = try FlagValue.positive(
          v, atMost: maximumRecordDuration, what: "seconds")
      },
      .switch(
        "--loop",
        help:
          "record exactly one steady-state period (rings x stagger, from that time on), so the file loops without a seam"
      ) { $0.options.loop = true },
      .value(
        "--pixel-format", "NAME",
        help: "chroma of an .mp4 or .webm --record: yuv420p (every player decodes it, but at"
          + " --zoom 1 a ring's 4-pixel stroke loses colour: 28-32 dB a ring against the"
          + " headless frame) or yuv444p (full colour, 36-42 dB a ring; not every player decodes"
          + " it)",
        default: VideoPixelFormat.yuv420p.rawValue
      ) { p, v in
        p.options.pixelFormat = try FlagValue.choice(v, "pixel format", of: VideoPixelFormat.self)
      },
      .value(
        "--svg-animation", "NAME",
        help:
          "how --record FILE.svg animates: smil (<animateTransform>) or css (@keyframes, which Chromium turns as a bitmap, slightly blurred)",
        default: "smil"
      ) { p, v in
        p.options.svgAnimation = try FlagValue.choice(
          v, "SVG animation", of: LoaderExport.SVGAnimation.self)
      },
      .value(
        "--hud", "on|off",
        help:
          "frame times, counts and backend over the scene (H toggles); on draws it into headless frames too",
        default: "on in a window, off headless"
      ) {
        p, v in p.options.hud = try FlagValue.onOff(v)
      },
      .switch("--verbose", help: "print the frame rate to stderr once a second") {
        $0.options.verbose = true
      },
      .switch(
        "--quiet",
        help:
          "no progress line: headless runs over a second otherwise show frames done, time and an estimate on stderr when it is a terminal"
      ) { $0.options.quiet = true },
      .switch("--fullscreen", help: "open the window full screen (the desktop's resolution)") {
        $0.options.fullscreen = true
      },
      .value(
        "--vsync", "on|off", help: "wait for the display's refresh when presenting", default: "on"
      ) { p, v in
        p.options.vsync = try FlagValue.onOff(v)
      },
      .value(
        "--renderer", "NAME",
        help: "SDL render driver: \(FlagValue.list(LoaderWindow.renderDriverNames))",
        default: "accelerated if any, else software"
      ) { p, v in
        p.options.renderer = try FlagValue.choice(
          v, "renderer", from: LoaderWindow.renderDriverNames.map { ($0, $0) })
      },
      .switch(
        "--info",
        help:
          "print the video driver, the render drivers and the renderer the window would use, then exit",
        default: nil
      ) {
        $0.options.info = true
      },
      .switch("--help", aliases: ["-h"], help: "show this help", default: nil) {
        $0.options.help = true
      },
    ],
    notes: """
      The grid cuts the container into equal cells, one loader row each, filled row by row, \
      with the column count that lets the rows be largest; every loader is scaled by that one \
      factor (at most 1), so all are visible at once, then shrunk by 1 - --gutter about its \
      cell's centre, so neighbours stay apart.

      Pixel sizes are checked before anything is drawn: a frame is 1...\(ScenePixelSizes.maximumSide) \
      px a side, a ring's radius (--frame-size / 2 x grid fit x --zoom) at most \
      \(Int(ScenePixelSizes.maximumRingRadius)) px.

      window keys: Space toggles the seed's loader (grid and sprites: all), A toggles all (all off if any \
      animates, else all on), a click toggles the loader under the pointer, + and - double and \
      halve the grid (1...\(LoaderScene.maximumCount)), B switches to the next backend, [ and ] \
      halve and double the speed, M cycles the reduced-motion policies, H the HUD, ? or F1 the keys panel, \
      S or PrintScreen saves a screenshot (screenshot-*.png here), R starts and stops a recording \
      (recording-*.gif here), Esc quits. Space, A, a click and + / - drop what is left of \
      --toggle or --toggle-random.
      """)
}
