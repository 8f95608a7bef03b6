/*
 * regex_simple.h: private header of CSchemaCheck for the regex service's fast path.
 *
 * Most schema patterns are a whole-string shape: "^[a-z0-9-]{1,64}$", "^[A-Z]{2}[0-9]{4,8}$",
 * "^utm_[a-z]+$". Such a pattern is anchored at both ends and is a row of single characters
 * and character classes over ASCII, each repeated a fixed number of times except the last,
 * which may repeat within bounds. One pass over the subject's code points decides it, with no
 * allocation and no PCRE2 call. regex_ecma.c compiles every pattern with PCRE2 first (which
 * decides whether it is valid and reports errors) and keeps one of these beside it when the
 * pattern has that shape; the answers are the same (code points, as PCRE2 in UTF mode; an
 * invalid UTF-8 subject is an error, as PCRE2 reports it).
 *
 * Immutable after compile: one may be searched from many threads at once.
 */
#ifndef SC_REGEX_SIMPLE_H
#define SC_REGEX_SIMPLE_H

#include <stddef.h>

typedef struct sc_simple_regex sc_simple_regex;

/* The pattern (ECMA-262, UTF-8, length bytes) in the simple shape, or NULL when it has another
 * shape (or memory ran out): then PCRE2 answers. */
sc_simple_regex *sc_simple_regex_compile(const char *pattern, size_t length);

/* SC_REGEX_MATCH, SC_REGEX_NOMATCH, or SC_REGEX_ERROR for a subject that is not UTF-8. */
int sc_simple_regex_search(const sc_simple_regex *re, const char *subject, size_t length);

/* NULL is allowed. */
void sc_simple_regex_free(sc_simple_regex *re);

/* The value of a hexadecimal digit, or -1 (shared with regex_ecma.c's escapes). */
int sc_regex_hex_value(int c);

#endif
