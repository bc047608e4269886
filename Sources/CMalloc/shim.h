/* glibc's count of heap bytes in use, all arenas and mmap'd blocks (mallinfo2 is not in
 * Swift's Glibc module). Unlike RSS it drops when memory is freed, even if the allocator
 * keeps the pages for reuse. */
#ifndef LAYOUTD_MALLOC_SHIM_H
#define LAYOUTD_MALLOC_SHIM_H
#include <malloc.h>
#include <stddef.h>

static inline size_t layoutd_heap_in_use(void) {
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}
/* Freed memory kept for reuse: blocks below 32 MiB (the largest mmap threshold glibc takes)
 * come from the heap, and up to keep_bytes free at a heap's top stay there, where glibc's
 * default returns them to the kernel at each free and faults them in again at the next
 * request. 0 keeps glibc's own policy. */
static inline void layoutd_heap_keep(size_t keep_bytes) {
    if (keep_bytes == 0) return;
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, (int)(keep_bytes < (1u << 30) ? keep_bytes : (1u << 30)));
}
#endif
