#include "icu_breaks.h"
#include <stdio.h>
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/utext.h>

void *layoutd_breaks_open(int line) {
    UErrorCode status = U_ZERO_ERROR;
    UBreakIterator *it = ubrk_open(line ? UBRK_LINE : UBRK_CHARACTER, "en", NULL, 0, &status);
    if (U_FAILURE(status)) {
        if (it) ubrk_close(it);
        return NULL;
    }
    return it;
}

void *layoutd_breaks_clone(const void *iterator) {
    UErrorCode status = U_ZERO_ERROR;
    UBreakIterator *it = ubrk_clone((const UBreakIterator *)iterator, &status);
    if (U_FAILURE(status)) {
        if (it) ubrk_close(it);
        return NULL;
    }
    return it;
}

int layoutd_breaks_find(void *iterator, const char *text, int64_t length, uint8_t *marks) {
    UErrorCode status = U_ZERO_ERROR;
    /* Over the UTF-8 bytes themselves: no UTF-16 copy, and boundaries are byte offsets. */
    UText *ut = utext_openUTF8(NULL, text, length, &status);
    if (U_FAILURE(status)) return -1;
    UBreakIterator *it = iterator;
    ubrk_setUText(it, ut, &status);
    if (U_FAILURE(status)) {
        utext_close(ut);
        return -1;
    }
    ubrk_first(it);
    for (int32_t at = ubrk_next(it); at != UBRK_DONE; at = ubrk_next(it)) {
        if (at > 0 && at <= length) marks[at] = 1;
    }
    /* The iterator keeps a shallow copy of the UText, unused until its next text is set. */
    utext_close(ut);
    return 0;
}

void layoutd_breaks_unicode_version(char *out) {
    UVersionInfo v;
    u_getUnicodeVersion(v);
    snprintf(out, 16, "%d.%d.%d", v[0], v[1], v[2]);
}
