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
#endif
