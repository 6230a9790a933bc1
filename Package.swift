// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "SwiftLoader",
  products: [
    .library(name: "LoaderCore", targets: ["LoaderCore"]),
    .library(name: "LoaderPixels", targets: ["LoaderPixels"]),
    .library(name: "LoaderSDL", targets: ["LoaderSDL"]),
    .executable(name: "demo", targets: ["SwiftLoaderDemo"]),
    .executable(name: "bench", targets: ["SwiftLoaderBench"]),
    .executable(name: "hello-loader", targets: ["SwiftLoaderHelloLoader"]),
    .executable(name: "loader-list", targets: ["SwiftLoaderLoaderList"]),
    .executable(name: "many-loaders", targets: ["SwiftLoaderManyLoaders"]),
    .executable(name: "terminal-loader", targets: ["SwiftLoaderTerminalLoader"]),
  ],
  // Every target's name starts with this package's: SwiftPM refuses two targets of one name
  // anywhere in a package graph, so a user's own `demo` or `CGIF` target could not sit beside
  // ours. The executables' products keep their short names (`swift run demo`).
  targets: [
    // MARK: - C shims (no Swift API of their own)

    // SDL2, SDL2_gfx and SDL2_image, re-exported by LoaderSDL (a host draws with them).
    .systemLibrary(
      name: "CSwiftLoaderSDL2",
      path: "Sources/CSwiftLoaderSDL2",
      providers: [.apt(["libsdl2-dev", "libsdl2-gfx-dev", "libsdl2-image-dev"])]
    ),
    // LoaderSDL's own C helper (malloc_trim): imported, never exported.
    .systemLibrary(name: "CSwiftLoaderShims", path: "Sources/CSwiftLoaderShims"),
    // The Khronos GL header's constants and function pointer types for the `gpu` backend
    // (declarations only: its entry points are loaded through SDL). Imported, never exported.
    .systemLibrary(
      name: "CSwiftLoaderGL", path: "Sources/CSwiftLoaderGL", providers: [.apt(["libgl-dev"])]),
    // Test and bench reference only: the product never links Cairo.
    .systemLibrary(
      name: "CSwiftLoaderCairo",
      path: "Sources/CSwiftLoaderCairo",
      pkgConfig: "cairo",
      providers: [.apt(["libcairo2-dev"])]
    ),
    // Test only: renders the Lottie files `LoaderExport` writes (the product never links it).
    .systemLibrary(
      name: "CSwiftLoaderRLottie",
      path: "Sources/CSwiftLoaderRLottie",
      pkgConfig: "rlottie",
      providers: [.apt(["librlottie-dev"])]
    ),
    // Recording only (`SwiftLoaderFrameRecording`): LoaderSDL and its consumers never link these.
    .systemLibrary(
      name: "CSwiftLoaderGIF", path: "Sources/CSwiftLoaderGIF", pkgConfig: "libgif",
      providers: [.apt(["libgif-dev"])]
    ),
    .systemLibrary(
      name: "CSwiftLoaderWebP",
      path: "Sources/CSwiftLoaderWebP",
      pkgConfig: "libwebpmux",
      providers: [.apt(["libwebp-dev"])]
    ),
    .systemLibrary(
      name: "CSwiftLoaderFFmpeg",
      path: "Sources/CSwiftLoaderFFmpeg",
      pkgConfig: "libavformat",
      providers: [.apt(["libavcodec-dev", "libavformat-dev", "libswscale-dev", "libavutil-dev"])]
    ),
    // The demo's HUD text. No pkgConfig: SDL2_ttf's flags repeat SDL2's `-D_REENTRANT`, and
    // every header it needs is on the default search path.
    .systemLibrary(
      name: "CSwiftLoaderSDL2TTF",
      path: "Sources/CSwiftLoaderSDL2TTF",
      providers: [.apt(["libsdl2-ttf-dev", "libfontconfig-dev", "fonts-dejavu-core"])]
    ),

    // MARK: - Public API

    // Pure Swift: timing, engine, geometry, layout, colours. Imports no C.
    .target(name: "LoaderCore", exclude: ["README.md"]),
    // Pure Swift, no C: `LoaderView` and `LoaderField` with everything but SDL, and the `spans`
    // kernel, drawing into any program's pixel buffer (`PixelBuffer`). The kernel's prefetch
    // and the mask builder's clamps reach LLVM's intrinsics through the compiler's `Builtin`
    // module (Spans/Prefetch.swift, Spans/RingDistanceGrid.swift).
    .target(
      name: "LoaderPixels", dependencies: ["LoaderCore"], exclude: ["README.md"],
      swiftSettings: [.enableExperimentalFeature("BuiltinModule")]),
    // LoaderPixels on SDL2 / SDL2_gfx: `LoaderRenderer` and the backends (spans, gfx, gpu)
    // on a host's renderer, and the `SDL_FRect` overloads.
    .target(
      name: "LoaderSDL",
      dependencies: ["LoaderPixels", "CSwiftLoaderSDL2", "CSwiftLoaderShims", "CSwiftLoaderGL"],
      exclude: ["README.md"]),

    // MARK: - Executables

    .executableTarget(
      name: "SwiftLoaderDemo",
      dependencies: [
        "LoaderCore", "LoaderSDL", "SwiftLoaderSupport", "SwiftLoaderHarness",
        "SwiftLoaderCanvas", "SwiftLoaderFrameRecording", "CSwiftLoaderSDL2TTF",
      ],
      path: "Sources/demo",
      exclude: ["README.md"]),
    .executableTarget(
      name: "SwiftLoaderBench",
      dependencies: [
        "LoaderCore", "LoaderSDL", "SwiftLoaderCanvas", "SwiftLoaderSupport",
        "SwiftLoaderTestSupport", "SwiftLoaderCairoReference", "CSwiftLoaderAllocationCounter",
        "CSwiftLoaderRenderCallCounter",
      ],
      path: "Benchmarks/bench",
      exclude: ["README.md"]
    ),
    // The README's example: one LoaderView in a window (or one PNG headless).
    .executableTarget(
      name: "SwiftLoaderHelloLoader", dependencies: ["LoaderSDL"], path: "Examples/hello-loader"),
    // The README's second example: a list whose rows each fit a loader into a rect, under a
    // logical size.
    .executableTarget(
      name: "SwiftLoaderLoaderList", dependencies: ["LoaderSDL"], path: "Examples/loader-list"),
    // The README's third example: loaders of many sizes anywhere in one LoaderField (`.free`
    // layout), recoloured and raised at runtime.
    .executableTarget(
      name: "SwiftLoaderManyLoaders", dependencies: ["LoaderSDL"], path: "Examples/many-loaders"),
    // The README's fourth example, no SDL: the seed row drawn into a plain buffer
    // (LoaderPixels) and shown in a terminal with 24-bit colour half blocks.
    .executableTarget(
      name: "SwiftLoaderTerminalLoader", dependencies: ["LoaderPixels"],
      path: "Examples/terminal-loader"),

    // MARK: - Test and bench support

    // Foundation only, no product: the one output writer (temporary, fsync, rename), signal
    // cancellation, the error-line format, the flag table and image comparison, shared by the executables,
    // the tests and SwiftLoaderCairoReference. LoaderSDL must not depend on it (users link LoaderSDL).
    .target(name: "SwiftLoaderSupport", exclude: ["README.md"]),

    // Not a product: the demo's scene helpers over LoaderCore, `ScenePixelSizes` (a scene's
    // pixel sizes, checked) and `ToggleSchedule` (seeded, replayable on/off events, which the
    // engine's tests and the bench's tests drive loaders with). `package` access, nothing public.
    .target(name: "SwiftLoaderHarness", dependencies: ["LoaderCore"], exclude: ["README.md"]),

    // Not a product: `OffscreenCanvas`, an SDL renderer drawing into memory (software, or
    // OpenGL on SDL's offscreen EGL driver) with PNG output: the demo's headless frames and
    // recordings, the bench and the tests. The library draws on its host's renderer and needs
    // none.
    .target(
      name: "SwiftLoaderCanvas", dependencies: ["LoaderCore", "LoaderSDL", "CSwiftLoaderSDL2"],
      exclude: ["README.md"]),

    // Counts heap allocations for the bench by defining malloc & co. in the bench executable
    // (they forward to glibc's __libc_* functions). Link it into nothing else: every
    // allocation of the process pays one relaxed atomic add.
    .target(
      name: "CSwiftLoaderAllocationCounter", path: "Benchmarks/CSwiftLoaderAllocationCounter"),

    // Counts the SDL render calls of the bench's process (the `host/*` children's calls a view
    // costs) by defining them in the executable and forwarding to SDL's. Link it into nothing
    // else.
    .target(
      name: "CSwiftLoaderRenderCallCounter", path: "Benchmarks/CSwiftLoaderRenderCallCounter"),

    // An independent renderer (Cairo) that strokes the same dashed rings.
    .target(
      name: "SwiftLoaderCairoReference",
      dependencies: ["LoaderCore", "SwiftLoaderSupport", "CSwiftLoaderCairo"],
      exclude: ["README.md"]),

    // Animated GIF / WebP / MP4 / WebM files from ARGB frames (giflib, libwebp, FFmpeg). Not a
    // product: only the demo and the tests link it.
    .target(
      name: "SwiftLoaderFrameRecording",
      dependencies: ["LoaderCore", "CSwiftLoaderGIF", "CSwiftLoaderWebP", "CSwiftLoaderFFmpeg"],
      exclude: ["README.md"]),

    // Not a product: the scenes the bench and the raster tests both draw (`RasterScene`) and
    // the launcher the executable tests go through (`BuiltProduct`, `DemoProcess`).
    .target(
      name: "SwiftLoaderTestSupport",
      dependencies: [
        "LoaderCore", "LoaderSDL", "SwiftLoaderCanvas", "SwiftLoaderSupport",
        "SwiftLoaderCairoReference", "CSwiftLoaderSDL2",
      ],
      path: "Tests/SwiftLoaderTestSupport"),

    // Not a product: one entry point that takes a count, a capacity, a thread count or a
    // byte budget, fed one value in a process of its own, so that a trap is seen as a crash
    // (`RasterTests.CountLimitsTests` runs it).
    .executableTarget(
      name: "SwiftLoaderCountLimitsChild", dependencies: ["LoaderCore", "LoaderSDL"],
      path: "Tests/CountLimitsChild"),
    // The `gpu` backend's check under one fault, in a process of its own (Mesa reads the
    // variables that fake a GPU and a broken driver once a process): `DefaultBackendTests` runs it.
    .executableTarget(
      name: "SwiftLoaderGPUTrustChild",
      dependencies: ["LoaderCore", "LoaderSDL", "SwiftLoaderCanvas", "SwiftLoaderSupport"],
      path: "Tests/GPUTrustChild"),

    // MARK: - Tests

    // SwiftLoaderHarness: the seeded toggle schedules the engine's tests replay.
    .testTarget(name: "LoaderCoreTests", dependencies: ["LoaderCore", "SwiftLoaderHarness"]),
    .testTarget(
      name: "RasterTests",
      dependencies: [
        "LoaderCore", "LoaderPixels", "LoaderSDL", "SwiftLoaderCanvas", "SwiftLoaderSupport",
        "SwiftLoaderTestSupport",
        "SwiftLoaderCairoReference",
        "CSwiftLoaderSDL2", "CSwiftLoaderGL",
        // Run as processes (`CountLimitsTests`, `DefaultBackendTests`), not imported.
        "SwiftLoaderCountLimitsChild", "SwiftLoaderGPUTrustChild",
      ]
    ),
    .testTarget(
      name: "DemoTests",
      dependencies: [
        "LoaderCore", "LoaderSDL", "SwiftLoaderCanvas", "SwiftLoaderSupport",
        "SwiftLoaderTestSupport",
        "CSwiftLoaderSDL2",
        "SwiftLoaderDemo", "SwiftLoaderHelloLoader", "SwiftLoaderLoaderList",
        "SwiftLoaderManyLoaders",
      ]
    ),
    .testTarget(
      name: "FrameRecordingTests",
      dependencies: [
        "SwiftLoaderFrameRecording", "LoaderCore", "LoaderSDL", "SwiftLoaderCanvas",
        "SwiftLoaderSupport", "SwiftLoaderTestSupport", "CSwiftLoaderGIF",
        "CSwiftLoaderWebP", "CSwiftLoaderFFmpeg", "SwiftLoaderDemo",
      ]
    ),
    .testTarget(
      name: "LoaderSupportTests",
      dependencies: ["SwiftLoaderSupport", "SwiftLoaderHarness", "LoaderCore"]),
    // `LoaderExport`'s SVG rendered by headless Chromium (run as a process) and its Lottie by
    // rlottie, each against Cairo; and the demo's `--record FILE.svg / .json`.
    .testTarget(
      name: "VectorExportTests",
      dependencies: [
        "LoaderCore", "SwiftLoaderSupport", "SwiftLoaderTestSupport", "SwiftLoaderCairoReference",
        "CSwiftLoaderCairo", "CSwiftLoaderRLottie",
        "SwiftLoaderDemo",
      ]
    ),
    // Every `swift` example of the documentation, compiled, and run where it can run headless.
    .testTarget(
      name: "DocExampleTests",
      dependencies: [
        "LoaderSDL", "SwiftLoaderCanvas", "SwiftLoaderFrameRecording", "CSwiftLoaderCairo",
      ]),
    // Links the bench's code, CSwiftLoaderAllocationCounter's malloc included, into the test bundle:
    // every allocation of the tests pays one relaxed atomic add.
    .testTarget(
      name: "BenchTests",
      dependencies: [
        "SwiftLoaderBench", "LoaderCore", "LoaderSDL", "SwiftLoaderCanvas", "SwiftLoaderHarness",
        "SwiftLoaderTestSupport",
      ]),
  ]
)
