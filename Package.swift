// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "SwiftLoader",
  products: [
    .library(name: "LoaderCore", targets: ["LoaderCore"]),
    .library(name: "LoaderSDL", targets: ["LoaderSDL"]),
    .executable(name: "demo", targets: ["demo"]),
    .executable(name: "bench", targets: ["bench"]),
    .executable(name: "hello-loader", targets: ["hello-loader"]),
    .executable(name: "loader-list", targets: ["loader-list"]),
    .executable(name: "many-loaders", targets: ["many-loaders"]),
  ],
  targets: [
    // MARK: - C shims (no Swift API of their own)

    // SDL2, SDL2_gfx and SDL2_image, re-exported by LoaderSDL (a host draws with them). Named
    // after this package: a `CSDL2` of another package could not sit in one graph with it.
    .systemLibrary(
      name: "CSwiftLoaderSDL2",
      path: "Sources/CSwiftLoaderSDL2",
      providers: [.apt(["libsdl2-dev", "libsdl2-gfx-dev", "libsdl2-image-dev"])]
    ),
    // LoaderSDL's own C helpers (prefetch, malloc_trim): imported, never exported.
    .systemLibrary(name: "CSwiftLoaderShims", path: "Sources/CSwiftLoaderShims"),
    // Test and bench reference only: the product never links Cairo.
    .systemLibrary(
      name: "CCairo",
      path: "Sources/CCairo",
      pkgConfig: "cairo",
      providers: [.apt(["libcairo2-dev"])]
    ),
    // Test only: renders the Lottie files `LoaderExport` writes (the product never links it).
    .systemLibrary(
      name: "CRLottie",
      path: "Sources/CRLottie",
      pkgConfig: "rlottie",
      providers: [.apt(["librlottie-dev"])]
    ),
    // Recording only (`FrameRecording`): LoaderSDL and its consumers never link these.
    .systemLibrary(
      name: "CGIF", path: "Sources/CGIF", pkgConfig: "libgif", providers: [.apt(["libgif-dev"])]
    ),
    .systemLibrary(
      name: "CWebP",
      path: "Sources/CWebP",
      pkgConfig: "libwebpmux",
      providers: [.apt(["libwebp-dev"])]
    ),
    .systemLibrary(
      name: "CFFmpeg",
      path: "Sources/CFFmpeg",
      pkgConfig: "libavformat",
      providers: [.apt(["libavcodec-dev", "libavformat-dev", "libswscale-dev", "libavutil-dev"])]
    ),
    // The demo's HUD text. No pkgConfig: SDL2_ttf's flags repeat SDL2's `-D_REENTRANT`, and
    // every header it needs is on the default search path.
    .systemLibrary(
      name: "CSDL2TTF",
      path: "Sources/CSDL2TTF",
      providers: [.apt(["libsdl2-ttf-dev", "libfontconfig-dev", "fonts-dejavu-core"])]
    ),

    // MARK: - Public API

    // Pure Swift: timing, engine, geometry, layout, colours. Imports no C.
    .target(name: "LoaderCore", exclude: ["README.md"]),
    // Windows, renderers and rasterizers over SDL2 / SDL2_gfx / SDL2_image.
    .target(
      name: "LoaderSDL", dependencies: ["LoaderCore", "CSwiftLoaderSDL2", "CSwiftLoaderShims"],
      exclude: ["README.md"]),

    // MARK: - Executables

    .executableTarget(
      name: "demo",
      dependencies: ["LoaderCore", "LoaderSDL", "LoaderSupport", "FrameRecording", "CSDL2TTF"],
      exclude: ["README.md"]),
    .executableTarget(
      name: "bench",
      dependencies: [
        "LoaderCore", "LoaderSDL", "LoaderSupport", "LoaderTestSupport", "CairoReference",
        "CAllocationCounter",
      ],
      path: "Benchmarks/bench",
      exclude: ["README.md"]
    ),
    // The README's example: one LoaderView in a window (or one PNG headless).
    .executableTarget(
      name: "hello-loader", dependencies: ["LoaderSDL"], path: "Examples/hello-loader"),
    // The README's second example: a list whose rows each fit a loader into a rect, under a
    // logical size.
    .executableTarget(
      name: "loader-list", dependencies: ["LoaderSDL"], path: "Examples/loader-list"),
    // The README's third example: loaders of many sizes anywhere in one LoaderField (`.free`
    // layout), recoloured and raised at runtime.
    .executableTarget(
      name: "many-loaders", dependencies: ["LoaderSDL"], path: "Examples/many-loaders"),

    // MARK: - Test and bench support

    // Foundation only, no product: the one output writer (temporary, fsync, rename), signal
    // cancellation, the error-line format, the flag table and image comparison, shared by the executables,
    // the tests and CairoReference. LoaderSDL must not depend on it (users link LoaderSDL).
    .target(name: "LoaderSupport", exclude: ["README.md"]),

    // Counts heap allocations for the bench by defining malloc & co. in the bench executable
    // (they forward to glibc's __libc_* functions). Link it into nothing else: every
    // allocation of the process pays one relaxed atomic add.
    .target(name: "CAllocationCounter", path: "Benchmarks/CAllocationCounter"),

    // An independent renderer (Cairo) that strokes the same dashed rings.
    .target(
      name: "CairoReference", dependencies: ["LoaderCore", "LoaderSupport", "CCairo"],
      exclude: ["README.md"]),

    // Animated GIF / WebP / MP4 / WebM files from ARGB frames (giflib, libwebp, FFmpeg). Not a
    // product: only the demo and the tests link it.
    .target(
      name: "FrameRecording", dependencies: ["LoaderCore", "CGIF", "CWebP", "CFFmpeg"],
      exclude: ["README.md"]),

    // Not a product: the scenes the bench and the raster tests both draw (`RasterScene`) and
    // the launcher the executable tests go through (`BuiltProduct`, `DemoProcess`).
    .target(
      name: "LoaderTestSupport",
      dependencies: [
        "LoaderCore", "LoaderSDL", "LoaderSupport", "CairoReference", "CSwiftLoaderSDL2",
      ],
      path: "Tests/LoaderTestSupport"),

    // MARK: - Tests

    .testTarget(name: "LoaderCoreTests", dependencies: ["LoaderCore"]),
    .testTarget(
      name: "RasterTests",
      dependencies: [
        "LoaderCore", "LoaderSDL", "LoaderSupport", "LoaderTestSupport", "CairoReference",
        "CSwiftLoaderSDL2",
      ]
    ),
    .testTarget(
      name: "DemoTests",
      dependencies: [
        "LoaderCore", "LoaderSDL", "LoaderSupport", "LoaderTestSupport", "CSwiftLoaderSDL2", "demo",
        "hello-loader", "loader-list", "many-loaders",
      ]
    ),
    .testTarget(
      name: "FrameRecordingTests",
      dependencies: [
        "FrameRecording", "LoaderCore", "LoaderSDL", "LoaderSupport", "LoaderTestSupport", "CGIF",
        "CWebP", "CFFmpeg", "demo",
      ]
    ),
    .testTarget(name: "LoaderSupportTests", dependencies: ["LoaderSupport"]),
    // `LoaderExport`'s SVG rendered by headless Chromium (run as a process) and its Lottie by
    // rlottie, each against Cairo; and the demo's `--record FILE.svg / .json`.
    .testTarget(
      name: "VectorExportTests",
      dependencies: [
        "LoaderCore", "LoaderSupport", "LoaderTestSupport", "CairoReference", "CCairo", "CRLottie",
        "demo",
      ]
    ),
    // Links the bench's code, CAllocationCounter's malloc included, into the test bundle:
    // every allocation of the tests pays one relaxed atomic add.
    .testTarget(
      name: "BenchTests", dependencies: ["bench", "LoaderCore", "LoaderTestSupport"]),
  ]
)
