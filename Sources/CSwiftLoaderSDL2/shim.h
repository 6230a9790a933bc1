#ifndef CSWIFTLOADERSDL2_SHIM_H
#define CSWIFTLOADERSDL2_SHIM_H

// SDL2, SDL2_gfx and SDL2_image as they are: `import LoaderSDL` re-exports this module, so a
// host program has the SDL API it draws with. The module is named after this package so that
// it cannot meet another package's `CSwiftLoaderSDL2` in one package graph. Nothing of the package's own
// is declared here (its C helpers are in CSwiftLoaderShims, which is not exported).
#include <SDL2/SDL.h>
#include <SDL2/SDL2_gfxPrimitives.h>
#include <SDL2/SDL_image.h>

#endif
