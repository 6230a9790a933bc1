// `import LoaderSDL` gives a host SDL2 and SDL2_gfx's C API, LoaderPixels (`LoaderView`,
// `LoaderField`, `PixelBuffer`) and, through it, LoaderCore.
@_exported import CSwiftLoaderSDL2
@_exported import LoaderPixels
