// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "SwiftLoader",
  products: [
    .library(name: "LoaderCore", targets: ["LoaderCore"]),
    .library(name: "LoaderSDL", targets: ["LoaderSDL"]),
    .executable(name: "demo", targets: ["demo"]),
    .executable(name: "bench", targets: ["bench"]),
  ],
  targets: [
    // MARK: - C shims (no Swift API of their own)

    .systemLibrary(
      name: "CSDL2",
      path: "Sources/CSDL2",
      pkgConfig: "sdl2",
      providers: [.apt(["libsdl2-dev", "libsdl2-gfx-dev", "libsdl2-image-dev"])]
    ),
    // Test and bench reference only: the product never links Cairo.
    .systemLibrary(
      name: "CCairo",
      path: "Sources/CCairo",
      pkgConfig: "cairo",
      providers: [.apt(["libcairo2-dev"])]
    ),

    // MARK: - Public API

    // Pure Swift: timing, engine, geometry, layout, colours. Imports no C.
    .target(name: "LoaderCore"),
    // Windows, renderers and rasterizers over SDL2 / SDL2_gfx / SDL2_image.
    .target(name: "LoaderSDL", dependencies: ["LoaderCore", "CSDL2"]),

    // MARK: - Executables

    .executableTarget(name: "demo", dependencies: ["LoaderCore", "LoaderSDL", "LoaderSupport"]),
    .executableTarget(
      name: "bench",
      dependencies: [
        "LoaderCore", "LoaderSDL", "LoaderSupport", "CairoReference", "CAllocationCounter",
      ],
      path: "Benchmarks/bench"
    ),

    // MARK: - Test and bench support

    // Foundation only, shared by the executables and tests (not a product): the flag table.
    .target(name: "LoaderSupport"),

    // Counts heap allocations for the bench by defining malloc & co. in the bench executable
    // (they forward to glibc's __libc_* functions). Link it into nothing else: every
    // allocation of the process pays one relaxed atomic add.
    .target(name: "CAllocationCounter", path: "Benchmarks/CAllocationCounter"),

    // An independent renderer (Cairo) that strokes the same dashed rings.
    .target(name: "CairoReference", dependencies: ["LoaderCore", "LoaderSDL", "CCairo"]),

    // MARK: - Tests

    .testTarget(name: "LoaderCoreTests", dependencies: ["LoaderCore"]),
    .testTarget(
      name: "LoaderSDLTests",
      dependencies: ["LoaderCore", "LoaderSDL", "LoaderSupport", "CairoReference", "demo"]
    ),
  ]
)
