/*
 * reader.c: the fast path of sc_parse.
 *
 * jansson's decoder pulls every byte through a stream callback, a UTF-8 check and a token
 * buffer, then copies each token again: on bridge messages that costs more than validating
 * them. This reader makes one pass over the bytes and builds the tree with jansson's own
 * constructors, in document order, so the value is the one json_loadb would return (same
 * types, same member order, same strings).
 *
 * It only ever accepts. Whenever the input is anything but plain valid JSON inside the
 * limits (a syntax error, invalid UTF-8, a duplicate key, an integer of more than 18 digits,
 * a real that overflows, a limit hit, a NUL in a key, ...) it declines, and sc_parse hands
 * the bytes to jansson, whose verdict and error message stand. Tests/c/reader_tests.c and
 * the fuzz target "parse" hold it to that: accepted means jansson accepts the same tree.
 */
#include "sc_parse.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Deeper documents go to jansson (its own recursion, capped at 2048, is what sc_parse always
 * had): the reader's frames then stay under about 32 KiB of stack even in a debug build, so
 * it is safe on threads with small stacks. Bridge messages stop at 64 anyway. */
#define SC_READER_MAX_DEPTH 128

typedef struct reader {
    const unsigned char *at;
    const unsigned char *end;
    const sc_parse_limits *limits; /* never NULL */
    size_t max_depth;
    char *scratch; /* decoded text of the last string with escapes: local, or heap */
    size_t scratch_size;
    char local[512]; /* enough for any string of a bridge message */
} reader;

static json_t *read_value(reader *r, size_t depth);

static inline void skip_space(reader *r)
{
    while (r->at < r->end && (*r->at == ' ' || *r->at == '\n' || *r->at == '\r' || *r->at == '\t'))
        r->at++;
}

static inline int is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

/* Length of the well-formed UTF-8 sequence at p (2-4 bytes), or 0: overlong forms,
 * surrogates and code points past U+10FFFF are refused, as jansson refuses them. */
static size_t utf8_sequence(const unsigned char *p, const unsigned char *end)
{
    unsigned char lead = p[0];
    size_t count;
    unsigned long code;
    if (lead >= 0xC2 && lead <= 0xDF) {
        count = 2;
        code = lead & 0x1F;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        count = 3;
        code = lead & 0x0F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        count = 4;
        code = lead & 0x07;
    } else {
        return 0;
    }
    if ((size_t)(end - p) < count)
        return 0;
    for (size_t i = 1; i < count; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        code = (code << 6) | (p[i] & 0x3F);
    }
    if (count == 3 && (code < 0x800 || (code >= 0xD800 && code <= 0xDFFF)))
        return 0;
    if (count == 4 && (code < 0x10000 || code > 0x10FFFF))
        return 0;
    return count;
}

static int read_hex4(const unsigned char *p, const unsigned char *end, unsigned long *code)
{
    if (end - p < 4)
        return -1;
    unsigned long value = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char c = p[i];
        value <<= 4;
        if (c >= '0' && c <= '9')
            value |= (unsigned long)(c - '0');
        else if (c >= 'a' && c <= 'f')
            value |= (unsigned long)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            value |= (unsigned long)(c - 'A' + 10);
        else
            return -1;
    }
    *code = value;
    return 0;
}

static size_t encode_utf8(unsigned long code, char *out)
{
    if (code < 0x80) {
        out[0] = (char)code;
        return 1;
    }
    if (code < 0x800) {
        out[0] = (char)(0xC0 | (code >> 6));
        out[1] = (char)(0x80 | (code & 0x3F));
        return 2;
    }
    if (code < 0x10000) {
        out[0] = (char)(0xE0 | (code >> 12));
        out[1] = (char)(0x80 | ((code >> 6) & 0x3F));
        out[2] = (char)(0x80 | (code & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (code >> 18));
    out[1] = (char)(0x80 | ((code >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((code >> 6) & 0x3F));
    out[3] = (char)(0x80 | (code & 0x3F));
    return 4;
}

/* The bytes among the 8 at p that end a plain run (a quote, a backslash, a control character
 * or a non-ASCII byte), each marked by its high bit. Word-at-a-time tests: the lowest marked
 * byte is always exact (a borrow only runs upwards, so it can mark bytes after a real one). */
static inline uint64_t attention_mask(const unsigned char *p)
{
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t word;
    memcpy(&word, p, sizeof word);
    uint64_t quote = word ^ (ones * '"');
    uint64_t backslash = word ^ (ones * '\\');
    uint64_t below_space = (word - ones * 0x20) & ~word;
    uint64_t is_quote = (quote - ones) & ~quote;
    uint64_t is_backslash = (backslash - ones) & ~backslash;
    return (below_space | is_quote | is_backslash | word) & highs;
}

/* p moved to the first byte that ends a plain run, or to within 8 bytes of end. On a
 * little-endian machine the mask says where that byte is; otherwise it is looked for. */
static inline const unsigned char *skip_plain(const unsigned char *p, const unsigned char *end)
{
    while (end - p >= 8) {
        uint64_t mask = attention_mask(p);
        if (!mask)
            p += 8;
        else {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            return p + (__builtin_ctzll(mask) >> 3);
#else
            return p;
#endif
        }
    }
    return p;
}

/* Makes room for at least size bytes of decoded text, keeping what is there. */
static int grow_scratch(reader *r, size_t size)
{
    size_t grown = r->scratch_size * 2;
    while (grown < size)
        grown *= 2;
    char *scratch = malloc(grown);
    if (!scratch)
        return -1;
    memcpy(scratch, r->scratch, r->scratch_size);
    if (r->scratch != r->local)
        free(r->scratch);
    r->scratch = scratch;
    r->scratch_size = grown;
    return 0;
}

/* The string whose opening quote was just consumed. On success *text points either into
 * the input (no escapes) or into r->scratch (valid until the next string is read). */
static int read_string(reader *r, const char **text, size_t *length)
{
    const unsigned char *start = r->at;
    const unsigned char *p = start;
    for (;;) {
        p = skip_plain(p, r->end);
        if (p >= r->end)
            return -1;
        unsigned char c = *p;
        if (c == '"') {
            *text = (const char *)start;
            *length = (size_t)(p - start);
            r->at = p + 1;
            return 0;
        }
        if (c == '\\')
            break;
        if (c < 0x20)
            return -1;
        if (c < 0x80) {
            p++;
            continue;
        }
        /* a run of non-ASCII text (Korean) stays in this loop */
        do {
            size_t count = utf8_sequence(p, r->end);
            if (!count)
                return -1;
            p += count;
        } while (p < r->end && *p >= 0x80);
    }

    size_t used = (size_t)(p - start);
    if (used + 4 > r->scratch_size && grow_scratch(r, used + 4) < 0)
        return -1;
    memcpy(r->scratch, start, used);
    for (;;) {
        /* one step writes at most 4 bytes */
        if (used + 4 > r->scratch_size && grow_scratch(r, used + 4) < 0)
            return -1;
        if (p >= r->end)
            return -1;
        unsigned char c = *p;
        if (c == '"')
            break;
        if (c < 0x20)
            return -1;
        if (c >= 0x80) {
            size_t count = utf8_sequence(p, r->end);
            if (!count)
                return -1;
            memcpy(r->scratch + used, p, count);
            used += count;
            p += count;
            continue;
        }
        if (c != '\\') {
            r->scratch[used++] = (char)c;
            p++;
            continue;
        }
        if (++p >= r->end)
            return -1;
        char simple = 0;
        switch (*p) {
        case '"':
            simple = '"';
            break;
        case '\\':
            simple = '\\';
            break;
        case '/':
            simple = '/';
            break;
        case 'b':
            simple = '\b';
            break;
        case 'f':
            simple = '\f';
            break;
        case 'n':
            simple = '\n';
            break;
        case 'r':
            simple = '\r';
            break;
        case 't':
            simple = '\t';
            break;
        case 'u': {
            unsigned long code, low;
            if (read_hex4(p + 1, r->end, &code) < 0)
                return -1;
            p += 5;
            if (code >= 0xDC00 && code <= 0xDFFF)
                return -1;
            if (code >= 0xD800 && code <= 0xDBFF) {
                if (r->end - p < 6 || p[0] != '\\' || p[1] != 'u' || read_hex4(p + 2, r->end, &low) < 0 ||
                    low < 0xDC00 || low > 0xDFFF)
                    return -1;
                p += 6;
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
            }
            used += encode_utf8(code, r->scratch + used);
            continue;
        }
        default:
            return -1;
        }
        r->scratch[used++] = simple;
        p++;
    }
    *text = r->scratch;
    *length = used;
    r->at = p + 1;
    return 0;
}

static json_t *read_number(reader *r)
{
    const unsigned char *start = r->at;
    const unsigned char *p = start;
    const unsigned char *end = r->end;
    int negative = 0;
    if (*p == '-') {
        negative = 1;
        if (++p >= end)
            return NULL;
    }
    if (*p == '0') {
        p++;
    } else if (*p >= '1' && *p <= '9') {
        while (p < end && is_digit(*p))
            p++;
    } else {
        return NULL;
    }
    /* a leading zero followed by a digit is not JSON: let jansson say so */
    if (p < end && is_digit(*p))
        return NULL;
    int real = 0;
    if (p < end && *p == '.') {
        if (++p >= end || !is_digit(*p))
            return NULL;
        while (p < end && is_digit(*p))
            p++;
        real = 1;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        if (++p < end && (*p == '+' || *p == '-'))
            p++;
        if (p >= end || !is_digit(*p))
            return NULL;
        while (p < end && is_digit(*p))
            p++;
        real = 1;
    }
    size_t length = (size_t)(p - start);
    if (!real) {
        /* 18 digits always fit in json_int_t; longer ones take jansson's overflow path */
        if (length - (size_t)negative > 18)
            return NULL;
        json_int_t value = 0;
        for (const unsigned char *d = start + negative; d < p; d++)
            value = value * 10 + (*d - '0');
        r->at = p;
        return json_integer(negative ? -value : value);
    }
    char text[64];
    if (length >= sizeof text)
        return NULL;
    memcpy(text, start, length);
    text[length] = '\0';
    char *stop;
    double value = strtod(text, &stop);
    /* a locale whose decimal point is not '.', or an overflow jansson reports */
    if (stop != text + length || isinf(value))
        return NULL;
    r->at = p;
    return json_real(value);
}

static int read_literal(reader *r, const char *word, size_t length)
{
    if ((size_t)(r->end - r->at) < length || memcmp(r->at, word, length) != 0)
        return -1;
    r->at += length;
    return 0;
}

static json_t *read_array(reader *r, size_t depth)
{
    json_t *array = json_array();
    if (!array)
        return NULL;
    skip_space(r);
    if (r->at < r->end && *r->at == ']') {
        r->at++;
        return array;
    }
    size_t max_items = r->limits->max_array_length;
    for (;;) {
        json_t *item = read_value(r, depth);
        if (!item || json_array_append_new(array, item) < 0)
            break;
        if (max_items && json_array_size(array) > max_items)
            break;
        skip_space(r);
        if (r->at >= r->end)
            break;
        if (*r->at == ',') {
            r->at++;
            continue;
        }
        if (*r->at == ']') {
            r->at++;
            return array;
        }
        break;
    }
    json_decref(array);
    return NULL;
}

/* One "key": value member into object. The key's escapes decoded into the scratch buffer are
 * copied out first (the value's strings reuse the buffer); that copy is on the heap, not in
 * this frame, so deep nesting costs little stack. members: the object's size once this one is in. */
static int read_member(reader *r, json_t *object, size_t members, size_t depth)
{
    if (r->at >= r->end || *r->at != '"')
        return -1;
    r->at++;
    const char *key;
    size_t key_length;
    size_t max_length = r->limits->max_string_length;
    if (read_string(r, &key, &key_length) < 0 || (max_length && key_length > max_length))
        return -1;
    char *escaped_key = NULL;
    if (key == r->scratch) {
        if (memchr(key, '\0', key_length))
            return -1; /* jansson refuses a NUL in a key */
        escaped_key = malloc(key_length + 1);
        if (!escaped_key)
            return -1;
        memcpy(escaped_key, key, key_length);
        key = escaped_key;
    }
    int status = -1;
    skip_space(r);
    if (r->at < r->end && *r->at == ':') {
        r->at++;
        json_t *value = read_value(r, depth);
        /* a size short of members means a duplicate key replaced a member: jansson's error to report */
        if (value && json_object_setn_new_nocheck(object, key, key_length, value) == 0 &&
            json_object_size(object) == members)
            status = 0;
    }
    free(escaped_key);
    return status;
}

static json_t *read_object(reader *r, size_t depth)
{
    json_t *object = json_object();
    if (!object)
        return NULL;
    skip_space(r);
    if (r->at < r->end && *r->at == '}') {
        r->at++;
        return object;
    }
    size_t max_members = r->limits->max_properties;
    for (size_t members = 1;; members++) {
        if (read_member(r, object, members, depth) < 0)
            break;
        if (max_members && members > max_members)
            break;
        skip_space(r);
        if (r->at >= r->end)
            break;
        if (*r->at == ',') {
            r->at++;
            skip_space(r);
            continue;
        }
        if (*r->at == '}') {
            r->at++;
            return object;
        }
        break;
    }
    json_decref(object);
    return NULL;
}

/* depth counts the containers around the value, as check_limits in parse.c does. */
static json_t *read_value(reader *r, size_t depth)
{
    skip_space(r);
    if (r->at >= r->end)
        return NULL;
    switch (*r->at) {
    case '{':
        if (depth + 1 > r->max_depth)
            return NULL;
        r->at++;
        return read_object(r, depth + 1);
    case '[':
        if (depth + 1 > r->max_depth)
            return NULL;
        r->at++;
        return read_array(r, depth + 1);
    case '"': {
        r->at++;
        const char *text;
        size_t length;
        if (read_string(r, &text, &length) < 0)
            return NULL;
        if (r->limits->max_string_length && length > r->limits->max_string_length)
            return NULL;
        return json_stringn_nocheck(text, length);
    }
    case 't':
        return read_literal(r, "true", 4) < 0 ? NULL : json_true();
    case 'f':
        return read_literal(r, "false", 5) < 0 ? NULL : json_false();
    case 'n':
        return read_literal(r, "null", 4) < 0 ? NULL : json_null();
    default:
        return read_number(r);
    }
}

json_t *sc_parse_fast(const char *buffer, size_t length, const sc_parse_limits *limits, size_t max_depth)
{
    static const sc_parse_limits no_limits = {0, 0, 0, 0, 0};
    if (!buffer)
        return NULL;
    reader r = {
        .at = (const unsigned char *)buffer,
        .end = (const unsigned char *)buffer + length,
        .limits = limits ? limits : &no_limits,
        .max_depth = max_depth < SC_READER_MAX_DEPTH ? max_depth : SC_READER_MAX_DEPTH,
    };
    r.scratch = r.local;
    r.scratch_size = sizeof r.local;
    json_t *value = read_value(&r, 0);
    if (value) {
        skip_space(&r);
        if (r.at != r.end) {
            json_decref(value);
            value = NULL;
        }
    }
    if (r.scratch != r.local)
        free(r.scratch);
    return value;
}
