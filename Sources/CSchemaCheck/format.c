/*
 * format.c: the JSON Schema "format" vocabulary as assertions. This file holds the
 * dispatcher and the formats that need no RFC machinery (uuid, JSON Pointers, regex);
 * dates and times are in format_time.c, addresses and host names in format_net.c and
 * format_idna.c, URIs and IRIs in format_uri.c.
 */
#include <string.h>

#include "sc_regex_format.h"

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int is_hex(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

size_t sc_fmt_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    if (n == 0)
        return 0;
    unsigned char c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    size_t len;
    uint32_t v, min;
    if ((c & 0xE0) == 0xC0) {
        len = 2;
        v = c & 0x1F;
        min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        len = 3;
        v = c & 0x0F;
        min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        len = 4;
        v = c & 0x07;
        min = 0x10000;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = (v << 6) | (s[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return len;
}

/* RFC 4122 layout 8-4-4-4-12; version and variant nibbles are not checked, as the suite
 * accepts hypothetical versions. */
static int check_uuid(const char *s, size_t n)
{
    if (n != 36)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (s[i] != '-')
                return 0;
        } else if (!is_hex(s[i])) {
            return 0;
        }
    }
    return 1;
}

/* RFC 6901: "" or ("/" reference-token)*, where "~" must be "~0" or "~1". Any other
 * character, NUL included, is allowed. */
static int check_json_pointer(const char *s, size_t n)
{
    if (n == 0)
        return 1;
    if (s[0] != '/')
        return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] == '~' && (i + 1 >= n || (s[i + 1] != '0' && s[i + 1] != '1')))
            return 0;
    return 1;
}

/* draft-handrews-relative-json-pointer: non-negative-integer then "#" or a JSON Pointer. */
static int check_relative_json_pointer(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && is_digit(s[i]))
        i++;
    if (i == 0 || (s[0] == '0' && i > 1))
        return 0;
    if (i < n && s[i] == '#')
        return i + 1 == n;
    return check_json_pointer(s + i, n - i);
}

static int check_regex(const char *s, size_t n)
{
    return sc_regex_is_valid(s, n);
}

typedef int (*format_fn)(const char *s, size_t n);

typedef struct {
    const char *name;
    format_fn check;
} format_entry;

static const format_entry FORMATS[] = {
    {"date-time", sc_fmt_date_time},
    {"date", sc_fmt_date},
    {"time", sc_fmt_time},
    {"duration", sc_fmt_duration},
    {"email", sc_fmt_email},
    {"idn-email", sc_fmt_idn_email},
    {"hostname", sc_fmt_hostname},
    {"idn-hostname", sc_fmt_idn_hostname},
    {"ipv4", sc_fmt_ipv4},
    {"ipv6", sc_fmt_ipv6},
    {"uri", sc_fmt_uri},
    {"uri-reference", sc_fmt_uri_reference},
    {"iri", sc_fmt_iri},
    {"iri-reference", sc_fmt_iri_reference},
    {"uri-template", sc_fmt_uri_template},
    {"uuid", check_uuid},
    {"json-pointer", check_json_pointer},
    {"relative-json-pointer", check_relative_json_pointer},
    {"regex", check_regex},
};

static const format_entry *find_format(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < sizeof FORMATS / sizeof FORMATS[0]; i++)
        if (strcmp(FORMATS[i].name, name) == 0)
            return &FORMATS[i];
    return NULL;
}

int sc_format_is_known(const char *format)
{
    return find_format(format) != NULL;
}

sc_format_fn sc_format_lookup(const char *format, int rfc1123_hostname)
{
    const format_entry *f = find_format(format);
    if (f && rfc1123_hostname && f->check == sc_fmt_hostname)
        return sc_fmt_hostname_rfc1123;
    return f ? f->check : NULL;
}

int sc_format_check(const char *format, const char *value, size_t length)
{
    const format_entry *f = find_format(format);
    if (!f)
        return -1;
    if (!value && length)
        return 0;
    return f->check(value ? value : "", length) ? 1 : 0;
}
