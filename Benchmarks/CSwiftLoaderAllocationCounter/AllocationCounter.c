// Counts heap allocations by defining the C allocation functions in the executable itself.
// The dynamic linker binds every library's malloc (Swift runtime, SDL, Cairo) to the
// executable's definition first, so each call lands here; the memory itself still comes from
// glibc through its exported __libc_* entry points, which is why free() needs no wrapper.
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "CSwiftLoaderAllocationCounter.h"

// Under AddressSanitizer or ThreadSanitizer the sanitizer's runtime owns malloc & co.: its
// interceptors must be the ones every library binds to, and they call malloc while they set
// themselves up, before anything here could forward. A sanitized build (`swift build
// --sanitize=...`, which compiles C targets with -fsanitize too) defines none of them, and
// counts nothing.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SWIFTLOADER_SANITIZED 1
#endif
#endif

#ifdef SWIFTLOADER_SANITIZED

int callocation_counting(void) { return 0; }

unsigned long long callocation_count(void) { return 0; }

#else

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static _Atomic unsigned long long allocations;

static inline void count_one(void) {
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
}

int callocation_counting(void) { return 1; }

unsigned long long callocation_count(void) {
  return atomic_load_explicit(&allocations, memory_order_relaxed);
}

void *malloc(size_t size) {
  count_one();
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  count_one();
  return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
  count_one();
  return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
  count_one();
  return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
  count_one();
  return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
  // POSIX: a power of two that is a multiple of sizeof(void *).
  if (alignment == 0 || (alignment & (alignment - 1)) != 0 || alignment % sizeof(void *) != 0) {
    return EINVAL;
  }
  count_one();
  void *p = __libc_memalign(alignment, size);
  if (p == NULL) return ENOMEM;
  *out = p;
  return 0;
}

#endif
