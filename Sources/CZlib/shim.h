/* deflateInit2/inflateInit2 are macros: wrapped so Swift can call them. */
#ifndef LAYOUTD_ZLIB_SHIM_H
#define LAYOUTD_ZLIB_SHIM_H
#include <zlib.h>

/* windowBits 31: gzip framing; -15: raw deflate (WebSocket permessage-deflate). */
static inline int layoutd_deflate_init(z_stream *s, int level, int window_bits) {
    return deflateInit2(s, level, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY);
}

static inline int layoutd_inflate_init(z_stream *s, int window_bits) {
    return inflateInit2(s, window_bits);
}
#endif
