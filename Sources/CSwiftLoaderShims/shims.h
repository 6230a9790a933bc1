#ifndef CSWIFTLOADERSHIMS_H
#define CSWIFTLOADERSHIMS_H

// LoaderSDL's own C helpers, for what Swift cannot say. Not exported: users never see them.
#ifdef __GLIBC__
#include <malloc.h>
#endif

// Hands the C allocator's free pages back to the system (glibc keeps freed blocks of up to
// its dynamic mmap threshold, 32 MiB, in its heap); nothing to do elsewhere.
static inline void swiftloader_return_free_memory(void) {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

#endif
