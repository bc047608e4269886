/* ICU's break iterators behind plain C types: ICU's own headers define UErrorCode, UProperty
 * and the rest, which Foundation's copy of ICU (_FoundationICU) defines too; a Swift module
 * that sees both fails to build. Only this file's declarations reach Swift; icu_breaks.c
 * includes ICU (Debian: libicu-dev). */
#ifndef LAYOUTD_ICU_BREAKS_H
#define LAYOUTD_ICU_BREAKS_H
#include <stdint.h>

/* A line (UAX #14) and a character (UAX #29 grapheme cluster) iterator; NULL when ICU's
 * data cannot be opened. */
void *layoutd_breaks_open(int line);
/* A copy for another thread (iterators are not thread-safe); NULL on failure. */
void *layoutd_breaks_clone(const void *iterator);

/* Marks `marks[i] = 1` at every boundary i in 1...length of the valid UTF-8 `text` (byte
 * offsets); 0 on success, -1 when ICU could not read it. */
int layoutd_breaks_find(void *iterator, const char *text, int64_t length, uint8_t *marks);

/* The Unicode version of ICU's data, as "15.0.0", into `out` (at least 16 bytes). */
void layoutd_breaks_unicode_version(char *out);
#endif
