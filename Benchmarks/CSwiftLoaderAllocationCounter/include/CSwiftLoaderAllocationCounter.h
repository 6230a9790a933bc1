#ifndef CALLOCATION_COUNTER_H
#define CALLOCATION_COUNTER_H

/// Heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign) made by
/// any thread of this process since it started. Only meaningful in an executable that links
/// this target: its definitions of those functions interpose the C library's.
unsigned long long callocation_count(void);

#endif
