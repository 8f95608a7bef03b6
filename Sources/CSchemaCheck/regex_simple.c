/*
 * regex_simple.c: whole-string patterns of single characters and classes, matched in one
 * pass (see regex_simple.h). The reader accepts only what it understands exactly and gives
 * up (NULL) on anything else, leaving that pattern to PCRE2.
 */
#include "regex_simple.h"
#include "sc_regex_format.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* More than this many pieces is no longer a simple pattern. */
#define MAX_SEGMENTS 64
/* Bounds above PCRE2's own limit never compile; this keeps the arithmetic small. */
#define MAX_BOUND 65535u
#define UNBOUNDED UINT32_MAX

/* One character or class, repeated min..max times (max UNBOUNDED for * and +). */
typedef struct segment {
    uint8_t ascii[16]; /* bit per code point 0-127 */
    int negated;       /* matches the code points not in ascii, all of those >= 128 too */
    uint32_t min, max;
} segment;

struct sc_simple_regex {
    size_t count;
    segment segments[];
};

typedef struct reader {
    const unsigned char *at, *end;
} reader;

static void add_range(segment *s, unsigned lo, unsigned hi)
{
    for (unsigned c = lo; c <= hi; c++)
        s->ascii[c >> 3] |= (uint8_t)(1u << (c & 7));
}

int sc_regex_hex_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* \uXXXX, \u{X...} or \xHH after the letter: the code point, or -1. Only ASCII is kept. */
static long read_hex_escape(reader *r, int letter)
{
    unsigned long value = 0;
    if (letter == 'u' && r->at < r->end && *r->at == '{') {
        r->at++;
        int digits = 0;
        while (r->at < r->end && *r->at != '}') {
            int h = sc_regex_hex_value(*r->at++);
            if (h < 0 || ++digits > 6)
                return -1;
            value = value * 16 + (unsigned long)h;
        }
        if (r->at == r->end || digits == 0)
            return -1;
        r->at++;
    } else {
        int want = letter == 'u' ? 4 : 2;
        for (int i = 0; i < want; i++) {
            if (r->at == r->end)
                return -1;
            int h = sc_regex_hex_value(*r->at++);
            if (h < 0)
                return -1;
            value = value * 16 + (unsigned long)h;
        }
    }
    return value < 0x80 ? (long)value : -1;
}

/* The character an escape stands for (after the backslash, inside a class when in_class),
 * or -1 when it is not a single ASCII character this reader knows. */
static long escaped_character(reader *r, int in_class)
{
    if (r->at == r->end)
        return -1;
    int c = *r->at++;
    if ((c != 0 && strchr("^$\\.*+?()[]{}|/", c)) || (in_class && c == '-'))
        return c;
    switch (c) {
    case 'n':
        return '\n';
    case 'r':
        return '\r';
    case 't':
        return '\t';
    case 'f':
        return '\f';
    case 'v':
        return '\v';
    case 'b':
        return in_class ? '\b' : -1; /* outside a class it is a word boundary */
    case '0':
        if (r->at < r->end && *r->at >= '0' && *r->at <= '9')
            return -1;
        return 0;
    case 'u':
    case 'x':
        return read_hex_escape(r, c);
    default:
        return -1;
    }
}

/* \d and \w (ASCII in this dialect) into s; 0 when the escape is something else. */
static int class_escape(int c, segment *s)
{
    if (c == 'd') {
        add_range(s, '0', '9');
        return 1;
    }
    if (c == 'w') {
        add_range(s, '0', '9');
        add_range(s, 'A', 'Z');
        add_range(s, 'a', 'z');
        add_range(s, '_', '_');
        return 1;
    }
    return 0;
}

/* One character of a class: its code point, -1 for something else, -2 for \d or \w (added). */
static long class_character(reader *r, segment *s)
{
    int c = *r->at;
    if (c >= 0x80)
        return -1;
    r->at++;
    if (c != '\\')
        return c;
    if (r->at < r->end && class_escape(*r->at, s)) {
        r->at++;
        return -2;
    }
    return escaped_character(r, 1);
}

/* [...] after the '['. */
static int read_class(reader *r, segment *s)
{
    if (r->at < r->end && *r->at == '^') {
        s->negated = 1;
        r->at++;
    }
    if (r->at < r->end && *r->at == ']')
        return -1; /* [] and [^]: rare, left to PCRE2 */
    while (r->at < r->end && *r->at != ']') {
        long lo = class_character(r, s);
        if (lo == -1)
            return -1;
        int range = r->at + 1 < r->end && r->at[0] == '-' && r->at[1] != ']';
        if (lo == -2) {
            if (range)
                return -1; /* [\d-z] is an error in unicode mode */
            continue;
        }
        if (!range) {
            add_range(s, (unsigned)lo, (unsigned)lo);
            continue;
        }
        r->at++;
        long hi = class_character(r, s);
        if (hi < 0 || hi < lo)
            return -1;
        add_range(s, (unsigned)lo, (unsigned)hi);
    }
    if (r->at == r->end)
        return -1;
    r->at++;
    return 0;
}

static int read_number(reader *r, uint32_t *value)
{
    if (r->at == r->end || *r->at < '0' || *r->at > '9')
        return -1;
    uint32_t n = 0;
    while (r->at < r->end && *r->at >= '0' && *r->at <= '9') {
        n = n * 10 + (uint32_t)(*r->at++ - '0');
        if (n > MAX_BOUND)
            return -1;
    }
    *value = n;
    return 0;
}

/* ?, *, +, {n}, {n,}, {n,m} (none: once). A lazy one is left to PCRE2. */
static int read_quantifier(reader *r, segment *s)
{
    s->min = s->max = 1;
    if (r->at == r->end)
        return 0;
    switch (*r->at) {
    case '?':
        s->min = 0;
        s->max = 1;
        r->at++;
        break;
    case '*':
        s->min = 0;
        s->max = UNBOUNDED;
        r->at++;
        break;
    case '+':
        s->min = 1;
        s->max = UNBOUNDED;
        r->at++;
        break;
    case '{':
        r->at++;
        if (read_number(r, &s->min) != 0)
            return -1;
        s->max = s->min;
        if (r->at < r->end && *r->at == ',') {
            r->at++;
            s->max = UNBOUNDED;
            if (r->at < r->end && *r->at != '}' && read_number(r, &s->max) != 0)
                return -1;
        }
        if (r->at == r->end || *r->at != '}' || s->max < s->min)
            return -1;
        r->at++;
        break;
    default:
        return 0;
    }
    return r->at < r->end && *r->at == '?' ? -1 : 0;
}

/* One character or class and its quantifier. */
static int read_segment(reader *r, segment *s)
{
    memset(s, 0, sizeof *s);
    int c = *r->at;
    if (c == 0 || c >= 0x80 || strchr("^$.*+?()]{}|", c))
        return -1;
    r->at++;
    if (c == '[') {
        if (read_class(r, s) != 0)
            return -1;
    } else if (c == '\\') {
        if (r->at == r->end)
            return -1;
        int e = *r->at;
        if (e == 'D' || e == 'W') {
            r->at++;
            class_escape(e == 'D' ? 'd' : 'w', s);
            s->negated = 1;
        } else if (class_escape(e, s)) {
            r->at++;
        } else {
            long value = escaped_character(r, 0);
            if (value < 0)
                return -1;
            add_range(s, (unsigned)value, (unsigned)value);
        }
    } else {
        add_range(s, (unsigned)c, (unsigned)c);
    }
    return read_quantifier(r, s);
}

sc_simple_regex *sc_simple_regex_compile(const char *pattern, size_t length)
{
    if (!pattern || length < 2 || pattern[0] != '^')
        return NULL;
    segment segments[MAX_SEGMENTS];
    size_t count = 0;
    reader r = {(const unsigned char *)pattern + 1, (const unsigned char *)pattern + length};
    while (r.at < r.end && *r.at != '$') {
        if (count == MAX_SEGMENTS || read_segment(&r, &segments[count]) != 0)
            return NULL;
        count++;
    }
    /* Ends with the anchor, and every piece but the last has one length. */
    if (r.at + 1 != r.end)
        return NULL;
    for (size_t i = 0; i + 1 < count; i++) {
        if (segments[i].min != segments[i].max)
            return NULL;
    }
    sc_simple_regex *re = malloc(sizeof *re + count * sizeof re->segments[0]);
    if (!re)
        return NULL;
    re->count = count;
    if (count)
        memcpy(re->segments, segments, count * sizeof segments[0]);
    return re;
}

/* The code point at s (UTF-8 as PCRE2 checks it: no overlong forms, surrogates or values past
 * U+10FFFF), or NULL. */
static const unsigned char *decode(const unsigned char *s, const unsigned char *end, uint32_t *cp)
{
    unsigned c = s[0];
    if (c < 0x80) {
        *cp = c;
        return s + 1;
    }
    size_t extra;
    unsigned low = 0x80, high = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
        extra = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
        extra = 2;
        if (c == 0xE0)
            low = 0xA0;
        else if (c == 0xED)
            high = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        extra = 3;
        if (c == 0xF0)
            low = 0x90;
        else if (c == 0xF4)
            high = 0x8F;
    } else {
        return NULL;
    }
    if ((size_t)(end - s) <= extra || s[1] < low || s[1] > high)
        return NULL;
    uint32_t value = c & (0x3Fu >> extra);
    for (size_t i = 1; i <= extra; i++) {
        if (i > 1 && (s[i] & 0xC0) != 0x80)
            return NULL;
        value = (value << 6) | (s[i] & 0x3Fu);
    }
    *cp = value;
    return s + extra + 1;
}

static int in_segment(const segment *s, uint32_t cp)
{
    if (cp >= 0x80)
        return s->negated;
    return ((s->ascii[cp >> 3] >> (cp & 7)) & 1) != (unsigned)s->negated;
}

int sc_simple_regex_search(const sc_simple_regex *re, const char *subject, size_t length)
{
    if (!re || (!subject && length))
        return SC_REGEX_ERROR;
    const unsigned char *s = (const unsigned char *)subject;
    const unsigned char *end = s + length;
    int matched = 1;
    for (size_t i = 0; i < re->count && matched; i++) {
        const segment *g = &re->segments[i];
        /* A piece before the last has one length; the last takes what is left, up to max. */
        uint32_t most = i + 1 < re->count ? g->min : g->max;
        uint32_t taken = 0;
        while (taken < most && s < end) {
            uint32_t cp;
            const unsigned char *next = decode(s, end, &cp);
            if (!next)
                return SC_REGEX_ERROR;
            if (!in_segment(g, cp))
                break;
            s = next;
            taken++;
        }
        matched = taken >= g->min;
    }
    if (s != end)
        matched = 0;
    /* PCRE2 checks the whole subject before matching: an invalid one is an error either way. */
    while (s < end) {
        uint32_t cp;
        s = decode(s, end, &cp);
        if (!s)
            return SC_REGEX_ERROR;
    }
    return matched ? SC_REGEX_MATCH : SC_REGEX_NOMATCH;
}

void sc_simple_regex_free(sc_simple_regex *re)
{
    free(re);
}
