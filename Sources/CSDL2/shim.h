#ifndef CSDL2_SHIM_H
#define CSDL2_SHIM_H

#include <SDL2/SDL.h>
#include <SDL2/SDL2_gfxPrimitives.h>
#include <SDL2/SDL_image.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

// Macros Swift cannot import.
static inline Uint32 csdl_window_pos_centered(void) { return SDL_WINDOWPOS_CENTERED; }
static inline int csdl_must_lock(SDL_Surface *s) { return SDL_MUSTLOCK(s); }

// Asks the CPU to start fetching the cache line at p, which is about to be read and written:
// CPU rasterizers issue these for the next ring's rows so the frame's lines arrive in parallel.
static inline void csdl_prefetch(const void *p) { __builtin_prefetch(p, 1, 3); }

// Hands the C allocator's free pages back to the system (glibc keeps freed blocks of up to
// its dynamic mmap threshold, 32 MiB, in its heap); nothing to do elsewhere.
static inline void csdl_return_free_memory(void) {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

#endif
