/*
 * sc_regex_format.h: private header of CSchemaCheck for the two leaf services the checker
 * core needs from outside jansson: ECMA-262 regular expressions (on PCRE2) for "pattern"
 * and "patternProperties", and the "format" assertions.
 *
 * Regexes: a pattern is read as ECMA-262 in unicode ("u" flag) mode, as JSON Schema asks,
 * translated to PCRE2 syntax and compiled (8-bit, UTF) with JIT when available. Semantics
 * kept from ECMA: \d \w \b are ASCII, \s is the ECMA WhiteSpace + LineTerminator set,
 * "." does not match \n \r U+2028 U+2029, "$" only matches at the very end, \p{...}
 * accepts ECMA long names. Constructs PCRE2 cannot express with ECMA meaning are compile
 * errors naming the construct and its byte offset.
 *
 * Ownership and threads: an sc_regex is immutable after compile and may be searched from
 * many threads at once; every search allocates its own match data unless the caller
 * passes one (sc_regex_match_data, owned by one thread at a time). Nothing here keeps
 * global mutable state.
 *
 * Formats: sc_format_check implements the JSON Schema format vocabulary as assertions.
 */
#ifndef SC_REGEX_FORMAT_H
#define SC_REGEX_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- regular expressions ---------------------------------------------------------- */

typedef struct sc_regex sc_regex;

/* Default PCRE2 match limit used when a caller passes match_limit 0. */
#define SC_REGEX_DEFAULT_MATCH_LIMIT 100000u

/* Return values of the search functions. */
#define SC_REGEX_MATCH 1
#define SC_REGEX_NOMATCH 0
#define SC_REGEX_LIMIT (-1)  /* match or depth limit hit: the answer is unknown */
#define SC_REGEX_ERROR (-2)  /* any other failure (out of memory, bad UTF-8 subject) */

/*
 * Compiles an ECMA-262 pattern (UTF-8, length bytes, may contain NUL) for PCRE2 with JIT.
 * Returns NULL and a one-line message in errbuf (if errbuf and errlen > 0) on failure.
 * match_limit 0 = SC_REGEX_DEFAULT_MATCH_LIMIT; the same value bounds the depth limit.
 */
sc_regex *sc_regex_compile(const char *pattern, size_t length, uint32_t match_limit,
                           char *errbuf, size_t errlen);

/*
 * Searches subject (UTF-8, length bytes), not anchored. Returns 1 match, 0 no match,
 * -1 limit hit or error (either way: no answer). Thread-safe: allocates its own match data.
 */
int sc_regex_search(const sc_regex *re, const char *subject, size_t length);

/* Frees re and everything it owns. NULL is allowed. */
void sc_regex_free(sc_regex *re);

/*
 * Optional fast path: a caller-owned match data block, reusable across searches of any
 * sc_regex by one thread at a time. Saves one allocation per search.
 */
typedef struct sc_regex_match_data sc_regex_match_data;

/* Returns NULL on out of memory. */
sc_regex_match_data *sc_regex_match_data_new(void);
void sc_regex_match_data_free(sc_regex_match_data *md);

/*
 * Like sc_regex_search but tells limit from error: returns SC_REGEX_MATCH,
 * SC_REGEX_NOMATCH, SC_REGEX_LIMIT or SC_REGEX_ERROR. md may be NULL (allocates per call).
 */
int sc_regex_search_ex(const sc_regex *re, sc_regex_match_data *md, const char *subject,
                       size_t length);

/* Checks that pattern is a valid ECMA-262 regex we can compile; 1 valid, 0 invalid. */
int sc_regex_is_valid(const char *pattern, size_t length);

/* ---- formats ---------------------------------------------------------------------- */

/*
 * Checks value (UTF-8, length bytes) against the named format. Returns 1 valid, 0 invalid,
 * -1 unknown format name. Known names: date-time, date, time, duration, email, idn-email,
 * hostname, idn-hostname, ipv4, ipv6, uri, uri-reference, iri, iri-reference,
 * uri-template, uuid, json-pointer, relative-json-pointer, regex.
 */
int sc_format_check(const char *format, const char *value, size_t length);

/* 1 when sc_format_check knows the format name, else 0. */
int sc_format_is_known(const char *format);

#ifdef __cplusplus
}
#endif

#endif /* SC_REGEX_FORMAT_H */
