/* ICU's break iterators: UAX #14 line breaks and UAX #29 grapheme clusters (Debian: libicu-dev).
 * ICU's headers rename each function to a versioned symbol (ubrk_open -> ubrk_open_72) by
 * macros Swift cannot import; these inline wrappers call them by their plain names. The
 * versioned symbols are also why the system's ICU and Foundation's own copy (swift_-prefixed
 * symbols) live in one process without meeting. */
#include <unicode/ubrk.h>
#include <unicode/utext.h>
#include <unicode/uchar.h>

static inline UBreakIterator *layoutd_ubrk_open(UBreakIteratorType type, const char *locale, UErrorCode *status) {
    return ubrk_open(type, locale, NULL, 0, status);
}
static inline UBreakIterator *layoutd_ubrk_clone(const UBreakIterator *bi, UErrorCode *status) { return ubrk_clone(bi, status); }
static inline void layoutd_ubrk_setUText(UBreakIterator *bi, UText *text, UErrorCode *status) { ubrk_setUText(bi, text, status); }
static inline int32_t layoutd_ubrk_first(UBreakIterator *bi) { return ubrk_first(bi); }
static inline int32_t layoutd_ubrk_next(UBreakIterator *bi) { return ubrk_next(bi); }
static inline UText *layoutd_utext_openUTF8(const char *s, int64_t length, UErrorCode *status) {
    return utext_openUTF8(NULL, s, length, status);
}
static inline void layoutd_utext_close(UText *text) { utext_close(text); }
static inline void layoutd_u_getUnicodeVersion(UVersionInfo version) { u_getUnicodeVersion(version); }
