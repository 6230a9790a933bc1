#ifndef CALLOCATION_COUNTER_H
#define CALLOCATION_COUNTER_H

/// 1 where this target counts: its definitions of malloc & co. interpose the C library's. 0 in
/// a build with AddressSanitizer or ThreadSanitizer, whose runtimes own those functions: there
/// nothing is interposed and `callocation_count()` stays 0.
int callocation_counting(void);

/// Heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign) made by
/// any thread of this process since it started. Only meaningful in an executable that links
/// this target, and where `callocation_counting()` is 1.
unsigned long long callocation_count(void);

#endif
