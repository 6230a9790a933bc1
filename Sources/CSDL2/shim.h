#ifndef CSDL2_SHIM_H
#define CSDL2_SHIM_H

#include <SDL2/SDL.h>
#include <SDL2/SDL2_gfxPrimitives.h>
#include <SDL2/SDL_image.h>

// Macros Swift cannot import.
static inline Uint32 csdl_window_pos_centered(void) { return SDL_WINDOWPOS_CENTERED; }
static inline int csdl_must_lock(SDL_Surface *s) { return SDL_MUSTLOCK(s); }

// Asks the CPU to start fetching the cache line at p, which is about to be read and written:
// CPU rasterizers issue these for the next ring's rows so the frame's lines arrive in parallel.
static inline void csdl_prefetch(const void *p) { __builtin_prefetch(p, 1, 3); }

#endif
