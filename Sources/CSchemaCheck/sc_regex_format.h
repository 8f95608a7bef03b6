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
 * Formats: sc_format_check implements the JSON Schema format vocabulary as assertions,
 * read strictly from the RFCs (RFC 3339, 5321/6531, 1123/5890-5893, 2673, 4291, 3986/3987,
 * 6570, 4122, 6901). hostname and idn-hostname apply IDNA2008 (A-labels must be canonical
 * Punycode of a valid U-label; contextual and Bidi rules), using PCRE2's Unicode
 * properties. Known approximations: "Unstable" code points are approximated by upper and
 * title case letters (so U-labels must be lower case), Joining_Type and Virama by lists,
 * and NFC is not checked.
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
#define SC_REGEX_MATCH   1
#define SC_REGEX_NOMATCH 0
#define SC_REGEX_LIMIT   (-1) /* match or depth limit hit: the answer is unknown */
#define SC_REGEX_ERROR   (-2) /* any other failure (out of memory, bad UTF-8 subject) */

/*
 * Compiles an ECMA-262 pattern (UTF-8, length bytes, may contain NUL) for PCRE2 with JIT.
 * Returns NULL and a one-line message in errbuf (if errbuf and errlen > 0) on failure.
 * match_limit 0 = SC_REGEX_DEFAULT_MATCH_LIMIT; the same value bounds the depth limit.
 */
sc_regex *sc_regex_compile(const char *pattern, size_t length, uint32_t match_limit, char *errbuf, size_t errlen);

/*
 * Searches subject (UTF-8, length bytes), not anchored. Returns 1 match, 0 no match,
 * -1 limit hit or error (either way: no answer). Thread-safe: allocates its own match data.
 */
int sc_regex_search(const sc_regex *re, const char *subject, size_t length);

/* Frees re and everything it owns. NULL is allowed. */
void sc_regex_free(sc_regex *re);

/* Whether searches of re are answered without PCRE2 (a whole-string pattern of characters and
 * classes, regex_simple.h); the answers are the same either way. For tests and benchmarks. */
int sc_regex_uses_fast_path(const sc_regex *re);

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
int sc_regex_search_ex(const sc_regex *re, sc_regex_match_data *md, const char *subject, size_t length);

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

/* One format's checker: 1 valid, 0 invalid. */
typedef int (*sc_format_fn)(const char *value, size_t length);

/* The checker of a format name, or NULL when unknown. rfc1123_hostname: "hostname" as
 * draft-04 and draft-06 define it (RFC 1123 labels, no IDNA2008 rules). */
sc_format_fn sc_format_lookup(const char *format, int rfc1123_hostname);

/* ---- internal to format*.c: one checker per format, 1 valid / 0 invalid ------------ */
/* Not for the core: call sc_format_check. Declared here because the formats are split
 * over several files (format.c, format_time.c, format_net.c, format_idna.c,
 * format_uri.c) and CSchemaCheck has one private header for this component. */

int sc_fmt_date(const char *s, size_t n);
int sc_fmt_time(const char *s, size_t n);
int sc_fmt_date_time(const char *s, size_t n);
int sc_fmt_duration(const char *s, size_t n);
int sc_fmt_ipv4(const char *s, size_t n);
int sc_fmt_ipv6(const char *s, size_t n);
int sc_fmt_hostname(const char *s, size_t n);
int sc_fmt_hostname_rfc1123(const char *s, size_t n);
int sc_fmt_idn_hostname(const char *s, size_t n);
int sc_fmt_email(const char *s, size_t n);
int sc_fmt_idn_email(const char *s, size_t n);
int sc_fmt_uri(const char *s, size_t n);
int sc_fmt_uri_reference(const char *s, size_t n);
int sc_fmt_iri(const char *s, size_t n);
int sc_fmt_iri_reference(const char *s, size_t n);
int sc_fmt_uri_template(const char *s, size_t n);

/* Decodes one UTF-8 sequence (rejects overlongs, surrogates, > U+10FFFF, truncation);
 * returns its length in bytes, or 0 when invalid. */
size_t sc_fmt_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

/*
 * IDNA2008 (RFC 5890-5893) label checks, in format_idna.c. A "U-label" here is a label
 * given as code points. sc_fmt_idna_check_ulabel checks code point validity, hyphen
 * rules, leading combining marks and the contextual rules; it does not apply the Bidi
 * rule, which needs the whole domain (sc_fmt_idna_check_bidi). Both return 1 valid, 0 not.
 */
int sc_fmt_idna_check_ulabel(const uint32_t *cp, size_t n);
/* labels: n_labels arrays of code points; applies RFC 5893 when any label is RTL. */
int sc_fmt_idna_check_bidi(const uint32_t *const *labels, const size_t *lens, size_t n_labels);
/* Punycode (RFC 3492). decode: basic "xn--" stripped input; returns number of code points
 * written (<= cap) or -1. encode: returns the ASCII length written to out (<= cap) or -1. */
long sc_fmt_punycode_decode(const char *in, size_t n, uint32_t *out, size_t cap);
long sc_fmt_punycode_encode(const uint32_t *in, size_t n, char *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* SC_REGEX_FORMAT_H */
