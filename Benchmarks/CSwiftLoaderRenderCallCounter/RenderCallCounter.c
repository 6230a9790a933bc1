// Counts a process's SDL render calls by defining them in the executable: the static linker
// binds the executable's own calls (the host's, the library's, the peer's) to these
// definitions, which count and forward to SDL's through dlsym(RTLD_NEXT). SDL's own internal
// calls stay inside SDL. Only the bench links this target (its `host/*` children report the
// calls a view costs a frame). Signatures are SDL 2's, with its pointer types as `void *`.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "CSwiftLoaderRenderCallCounter.h"

static _Atomic unsigned long long draws;
static _Atomic unsigned long long others;

unsigned long long crendercalls_draws(void) {
  return atomic_load_explicit(&draws, memory_order_relaxed);
}

unsigned long long crendercalls_others(void) {
  return atomic_load_explicit(&others, memory_order_relaxed);
}

// SDL's function `name`, looked up once (a race looks it up twice, to the same address).
static void *real(const char *name, void *_Atomic *slot) {
  void *f = atomic_load_explicit(slot, memory_order_relaxed);
  if (f == NULL) {
    f = dlsym(RTLD_NEXT, name);
    if (f == NULL) {
      fprintf(stderr, "bench: SDL has no %s\n", name);
      abort();
    }
    atomic_store_explicit(slot, f, memory_order_relaxed);
  }
  return f;
}

#define FORWARD(counter, ret, name, params, args)                                           \
  ret name params {                                                                          \
    static void *_Atomic slot;                                                                \
    atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);                            \
    ret(*f) params = (ret(*) params)real(#name, &slot);                                      \
    return f args;                                                                           \
  }

FORWARD(draws, int, SDL_RenderCopy, (void *r, void *t, const void *s, const void *d),
        (r, t, s, d))
FORWARD(draws, int, SDL_RenderCopyF, (void *r, void *t, const void *s, const void *d),
        (r, t, s, d))
FORWARD(draws, int, SDL_RenderCopyEx,
        (void *r, void *t, const void *s, const void *d, double a, const void *c, int flip),
        (r, t, s, d, a, c, flip))
FORWARD(draws, int, SDL_RenderCopyExF,
        (void *r, void *t, const void *s, const void *d, double a, const void *c, int flip),
        (r, t, s, d, a, c, flip))
FORWARD(draws, int, SDL_RenderGeometry,
        (void *r, void *t, const void *v, int nv, const int *i, int ni), (r, t, v, nv, i, ni))
FORWARD(draws, int, SDL_RenderFillRect, (void *r, const void *rect), (r, rect))
FORWARD(draws, int, SDL_RenderFillRectF, (void *r, const void *rect), (r, rect))
FORWARD(draws, int, SDL_RenderFillRects, (void *r, const void *rects, int n), (r, rects, n))
FORWARD(draws, int, SDL_RenderFillRectsF, (void *r, const void *rects, int n), (r, rects, n))
FORWARD(draws, int, SDL_RenderClear, (void *r), (r))
FORWARD(others, int, SDL_SetTextureColorMod, (void *t, uint8_t r, uint8_t g, uint8_t b),
        (t, r, g, b))
FORWARD(others, int, SDL_SetTextureAlphaMod, (void *t, uint8_t a), (t, a))
FORWARD(others, int, SDL_UpdateTexture, (void *t, const void *rect, const void *p, int pitch),
        (t, rect, p, pitch))
FORWARD(others, int, SDL_LockTexture, (void *t, const void *rect, void **p, int *pitch),
        (t, rect, p, pitch))
FORWARD(others, int, SDL_RenderSetScale, (void *r, float x, float y), (r, x, y))
FORWARD(others, int, SDL_SetRenderDrawColor, (void *r, uint8_t cr, uint8_t g, uint8_t b, uint8_t a),
        (r, cr, g, b, a))
FORWARD(others, int, SDL_SetRenderDrawBlendMode, (void *r, int mode), (r, mode))
FORWARD(others, int, SDL_RenderFlush, (void *r), (r))
