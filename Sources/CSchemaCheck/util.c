/*
 * util.c: byte buffers, a small string-keyed hash map, numbers and JSON equality.
 */
#include "sc_buf.h"
#include "sc_error.h"
#include "sc_json.h"
#include "sc_map.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- strings ---------------------------------------------------------------------- */

char *sc_strndup(const char *text, size_t len)
{
    char *copy = malloc(len + 1);
    if (!copy)
        return NULL;
    if (len)
        memcpy(copy, text, len);
    copy[len] = '\0';
    return copy;
}

char *sc_strdup(const char *text)
{
    return sc_strndup(text, strlen(text));
}

/* ---- buffers ---------------------------------------------------------------------- */

void sc_buf_init(sc_buf *b)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    b->failed = 0;
}

void sc_buf_free(sc_buf *b)
{
    free(b->data);
    sc_buf_init(b);
}

static int buf_reserve(sc_buf *b, size_t extra)
{
    if (b->failed)
        return -1;
    if (b->len + extra + 1 <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1)
        cap *= 2;
    char *data = realloc(b->data, cap);
    if (!data) {
        b->failed = 1;
        return -1;
    }
    b->data = data;
    b->cap = cap;
    return 0;
}

void sc_buf_append(sc_buf *b, const char *data, size_t len)
{
    if (buf_reserve(b, len) < 0)
        return;
    if (len)
        memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
}

void sc_buf_puts(sc_buf *b, const char *text)
{
    sc_buf_append(b, text, strlen(text));
}

void sc_buf_printf(sc_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char small[256];
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        sc_buf_append(b, small, (size_t)n);
        return;
    }
    if (buf_reserve(b, (size_t)n) < 0)
        return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void sc_buf_truncate(sc_buf *b, size_t len)
{
    if (len < b->len) {
        b->len = len;
        b->data[len] = '\0';
    }
}

void sc_buf_pointer_token(sc_buf *b, const char *token, size_t len)
{
    sc_buf_append(b, "/", 1);
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
        if (token[i] == '~' || token[i] == '/') {
            sc_buf_append(b, token + start, i - start);
            sc_buf_append(b, token[i] == '~' ? "~0" : "~1", 2);
            start = i + 1;
        }
    }
    sc_buf_append(b, token + start, len - start);
}

const char *sc_buf_cstr(const sc_buf *b)
{
    return b->data ? b->data : "";
}

char *sc_buf_take(sc_buf *b)
{
    if (b->failed)
        return NULL;
    return sc_strndup(sc_buf_cstr(b), b->len);
}

/* Quotes a string as JSON, keeping at most max code points (then "..."). */
static void quote_string(sc_buf *b, const char *s, size_t len, size_t max)
{
    sc_buf_append(b, "\"", 1);
    size_t points = 0;
    size_t i = 0;
    while (i < len) {
        unsigned char ch = (unsigned char)s[i];
        if (points == max) {
            sc_buf_append(b, "...", 3);
            break;
        }
        size_t step = 1;
        if (ch >= 0xF0)
            step = 4;
        else if (ch >= 0xE0)
            step = 3;
        else if (ch >= 0xC0)
            step = 2;
        if (i + step > len)
            step = len - i;
        if (ch == '"' || ch == '\\') {
            char esc[2] = {'\\', (char)ch};
            sc_buf_append(b, esc, 2);
        } else if (ch == '\n') {
            sc_buf_append(b, "\\n", 2);
        } else if (ch == '\t') {
            sc_buf_append(b, "\\t", 2);
        } else if (ch == '\r') {
            sc_buf_append(b, "\\r", 2);
        } else if (ch < 0x20) {
            sc_buf_printf(b, "\\u%04x", ch);
        } else {
            sc_buf_append(b, s + i, step);
        }
        i += step;
        points++;
    }
    sc_buf_append(b, "\"", 1);
}

#define SC_QUOTE_MAX 64

void sc_buf_quote(sc_buf *b, const json_t *value)
{
    switch (json_typeof(value)) {
    case JSON_STRING:
        quote_string(b, json_string_value(value), json_string_length(value), SC_QUOTE_MAX);
        return;
    case JSON_INTEGER:
        sc_buf_printf(b, "%" JSON_INTEGER_FORMAT, json_integer_value(value));
        return;
    case JSON_REAL: {
        double d = json_real_value(value);
        if (floor(d) == d && fabs(d) < 1e15)
            sc_buf_printf(b, "%.1f", d);
        else
            sc_buf_printf(b, "%.17g", d);
        return;
    }
    case JSON_TRUE:
        sc_buf_puts(b, "true");
        return;
    case JSON_FALSE:
        sc_buf_puts(b, "false");
        return;
    case JSON_NULL:
        sc_buf_puts(b, "null");
        return;
    default: {
        char *text = json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY);
        if (!text) {
            sc_buf_puts(b, json_is_array(value) ? "[...]" : "{...}");
            return;
        }
        size_t len = strlen(text);
        if (len > 2 * SC_QUOTE_MAX) {
            sc_buf_append(b, text, 2 * SC_QUOTE_MAX);
            sc_buf_puts(b, "...");
        } else {
            sc_buf_append(b, text, len);
        }
        free(text);
        return;
    }
    }
}

/* ---- hash map --------------------------------------------------------------------- */

static uint64_t hash_bytes(const char *key, size_t len)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)key[i];
        h *= 1099511628211ull;
    }
    return h;
}

void sc_map_init(sc_map *m)
{
    m->slots = NULL;
    m->cap = 0;
    m->count = 0;
}

void sc_map_free(sc_map *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->slots[i].key);
    free(m->slots);
    sc_map_init(m);
}

static sc_map_slot *map_find(const sc_map *m, const char *key, size_t klen, uint64_t h)
{
    size_t mask = m->cap - 1;
    size_t i = (size_t)h & mask;
    for (;;) {
        sc_map_slot *slot = &m->slots[i];
        if (!slot->key)
            return slot;
        if (slot->hash == h && slot->klen == klen && memcmp(slot->key, key, klen) == 0)
            return slot;
        i = (i + 1) & mask;
    }
}

static int map_grow(sc_map *m)
{
    size_t cap = m->cap ? m->cap * 2 : 16;
    sc_map_slot *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return -1;
    sc_map old = *m;
    m->slots = slots;
    m->cap = cap;
    for (size_t i = 0; i < old.cap; i++) {
        if (old.slots[i].key) {
            sc_map_slot *slot = map_find(m, old.slots[i].key, old.slots[i].klen, old.slots[i].hash);
            *slot = old.slots[i];
        }
    }
    free(old.slots);
    return 0;
}

int sc_map_put(sc_map *m, const char *key, size_t klen, size_t value, int overwrite)
{
    if ((m->count + 1) * 2 > m->cap && map_grow(m) < 0)
        return -1;
    uint64_t h = hash_bytes(key, klen);
    sc_map_slot *slot = map_find(m, key, klen, h);
    if (slot->key) {
        if (overwrite)
            slot->value = value;
        return 0;
    }
    slot->key = sc_strndup(key, klen);
    if (!slot->key)
        return -1;
    slot->klen = klen;
    slot->hash = h;
    slot->value = value;
    m->count++;
    return 0;
}

int sc_map_get(const sc_map *m, const char *key, size_t klen, size_t *out)
{
    if (!m->cap)
        return 0;
    sc_map_slot *slot = map_find(m, key, klen, hash_bytes(key, klen));
    if (!slot->key)
        return 0;
    if (out)
        *out = slot->value;
    return 1;
}

int sc_map_put_ptr(sc_map *m, const void *ptr, size_t value)
{
    uintptr_t address = (uintptr_t)ptr;
    return sc_map_put(m, (const char *)&address, sizeof address, value, 1);
}

int sc_map_get_ptr(const sc_map *m, const void *ptr, size_t *out)
{
    uintptr_t address = (uintptr_t)ptr;
    return sc_map_get(m, (const char *)&address, sizeof address, out);
}

/* ---- errors ----------------------------------------------------------------------- */

void sc_error_set(sc_error *error, sc_error_code code, const char *location, const char *fmt, ...)
{
    if (!error)
        return;
    memset(error, 0, sizeof *error);
    error->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(error->text, sizeof error->text, fmt, ap);
    va_end(ap);
    if (location)
        snprintf(error->location, sizeof error->location, "%s", location);
}

/* ---- numbers ---------------------------------------------------------------------- */

/* Largest magnitude below which a double converts to json_int_t exactly. */
#define SC_INT_LIMIT 9223372036854775808.0 /* 2^63 */

int sc_num_get(const json_t *value, sc_num *out)
{
    if (json_is_integer(value)) {
        out->is_int = 1;
        out->i = json_integer_value(value);
        out->d = (double)out->i;
        return 0;
    }
    if (json_is_real(value)) {
        double d = json_real_value(value);
        out->d = d;
        out->is_int = 0;
        out->i = 0;
        if (floor(d) == d && d >= -SC_INT_LIMIT && d < SC_INT_LIMIT) {
            out->is_int = 1;
            out->i = (json_int_t)d;
        }
        return 0;
    }
    return -1;
}

static int cmp_int_double(json_int_t i, double d)
{
    if (d >= SC_INT_LIMIT)
        return -1;
    if (d < -SC_INT_LIMIT)
        return 1;
    json_int_t t = (json_int_t)d; /* truncates toward zero */
    if (i < t)
        return -1;
    if (i > t)
        return 1;
    double frac = d - (double)t;
    if (frac > 0)
        return -1;
    if (frac < 0)
        return 1;
    return 0;
}

int sc_num_cmp(const sc_num *a, const sc_num *b)
{
    if (a->is_int && b->is_int)
        return a->i < b->i ? -1 : a->i > b->i;
    if (a->is_int)
        return cmp_int_double(a->i, b->d);
    if (b->is_int)
        return -cmp_int_double(b->i, a->d);
    return a->d < b->d ? -1 : a->d > b->d;
}

int sc_num_multiple_of(const sc_num *value, const sc_num *divisor)
{
    if (value->is_int && divisor->is_int) {
        if (divisor->i == 0)
            return 0;
        if (divisor->i == -1)
            return 1;
        return value->i % divisor->i == 0;
    }
    double x = value->d, m = divisor->d;
    if (m == 0 || isnan(x) || isnan(m))
        return 0;
    double q = x / m;
    if (isinf(q)) {
        /* Overflowed quotient: an integer value is still a multiple of 1/k. */
        double inv = 1.0 / m;
        return isfinite(x) && floor(x) == x && floor(inv) == inv;
    }
    double r = nearbyint(q);
    if (r == q)
        return 1;
    /* Divisors like 0.0001 have no exact binary form: allow rounding noise of the
     * division, relative to the size of the quotient. */
    double tolerance = fabs(q) * 1e-9;
    if (tolerance < 1e-9)
        tolerance = 1e-9;
    return fabs(q - r) <= tolerance;
}

int sc_json_is_integral(const json_t *value)
{
    if (json_is_integer(value))
        return 1;
    if (json_is_real(value)) {
        double d = json_real_value(value);
        return isfinite(d) && floor(d) == d;
    }
    return 0;
}

int sc_json_equal(const json_t *a, const json_t *b)
{
    if (json_is_number(a) && json_is_number(b)) {
        sc_num x, y;
        sc_num_get(a, &x);
        sc_num_get(b, &y);
        return sc_num_cmp(&x, &y) == 0;
    }
    if (json_typeof(a) != json_typeof(b))
        return 0;
    switch (json_typeof(a)) {
    case JSON_STRING:
        return json_string_length(a) == json_string_length(b) &&
               memcmp(json_string_value(a), json_string_value(b), json_string_length(a)) == 0;
    case JSON_ARRAY: {
        size_t n = json_array_size(a);
        if (n != json_array_size(b))
            return 0;
        for (size_t i = 0; i < n; i++)
            if (!sc_json_equal(json_array_get(a, i), json_array_get(b, i)))
                return 0;
        return 1;
    }
    case JSON_OBJECT: {
        if (json_object_size(a) != json_object_size(b))
            return 0;
        for (void *it = json_object_iter((json_t *)a); it; it = json_object_iter_next((json_t *)a, it)) {
            const char *key = json_object_iter_key(it);
            size_t klen = json_object_iter_key_len(it);
            json_t *other = json_object_getn(b, key, klen);
            if (!other || !sc_json_equal(json_object_iter_value(it), other))
                return 0;
        }
        return 1;
    }
    default:
        return 1; /* true, false, null */
    }
}

const char *sc_json_type_name(const json_t *value)
{
    switch (json_typeof(value)) {
    case JSON_OBJECT:
        return "object";
    case JSON_ARRAY:
        return "array";
    case JSON_STRING:
        return "string";
    case JSON_INTEGER:
        return "integer";
    case JSON_REAL:
        return sc_json_is_integral(value) ? "integer" : "number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "boolean";
    default:
        return "null";
    }
}

size_t sc_utf8_length(const char *text, size_t len)
{
    size_t count = 0;
    for (size_t i = 0; i < len; i++)
        if (((unsigned char)text[i] & 0xC0) != 0x80)
            count++;
    return count;
}
