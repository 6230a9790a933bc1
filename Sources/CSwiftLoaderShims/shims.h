#ifndef CSWIFTLOADERSHIMS_H
#define CSWIFTLOADERSHIMS_H

// LoaderSDL's own C helpers, for what Swift cannot say. Not exported: users never see them.
#ifdef __GLIBC__
#include <malloc.h>
#endif

// Asks the CPU to start fetching the cache line at p, which is about to be read and written:
// CPU rasterizers issue these for the next ring's rows so the frame's lines arrive in parallel.
static inline void swiftloader_prefetch(const void *p) { __builtin_prefetch(p, 1, 3); }

// Hands the C allocator's free pages back to the system (glibc keeps freed blocks of up to
// its dynamic mmap threshold, 32 MiB, in its heap); nothing to do elsewhere.
static inline void swiftloader_return_free_memory(void) {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

#endif
