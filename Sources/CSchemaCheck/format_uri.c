/*
 * format_uri.c: uri, uri-reference (RFC 3986), iri, iri-reference (RFC 3987) and
 * uri-template (RFC 6570), by a direct reading of the ABNF. The IRI variants differ only
 * in also accepting ucschar (and iprivate in the query) as UTF-8.
 */
#include <string.h>

#include "sc_regex_format.h"

static int is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}
static int is_alpha(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static int is_hex(unsigned char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static int is_unreserved(unsigned char c)
{
    return is_alpha(c) || is_digit(c) || c == '-' || c == '.' || c == '_' || c == '~';
}
static int is_sub_delim(unsigned char c)
{
    return c != 0 && strchr("!$&'()*+,;=", c) != NULL;
}

/* RFC 3987 ucschar and iprivate. */
static int is_ucschar(uint32_t c)
{
    if (c >= 0xA0 && c <= 0xD7FF)
        return 1;
    if (c >= 0xF900 && c <= 0xFDCF)
        return 1;
    if (c >= 0xFDF0 && c <= 0xFFEF)
        return 1;
    if (c >= 0x10000 && c <= 0xEFFFD && (c & 0xFFFF) <= 0xFFFD)
        return c < 0xE0000 || c >= 0xE1000;
    return 0;
}
static int is_iprivate(uint32_t c)
{
    return (c >= 0xE000 && c <= 0xF8FF) || (c >= 0xF0000 && c <= 0xFFFFD) || (c >= 0x100000 && c <= 0x10FFFD);
}

typedef struct {
    const unsigned char *s;
    size_t n;
    int iri;
} uri_in;

/* Bits for the extra ASCII characters a component allows beyond unreserved, sub-delims
 * and pct-encoded. */
enum { X_COLON = 1, X_AT = 2, X_SLASH = 4, X_QUESTION = 8, X_PRIVATE = 16 };

/* Scans [i, end) as *( unreserved / pct-encoded / sub-delims / extras ), plus ucschar for
 * IRIs. Returns 1 when the whole range is valid. */
static int scan_chars(const uri_in *u, size_t i, size_t end, int extra)
{
    while (i < end) {
        unsigned char c = u->s[i];
        if (c == '%') {
            if (i + 2 >= end || !is_hex(u->s[i + 1]) || !is_hex(u->s[i + 2]))
                return 0;
            i += 3;
        } else if (is_unreserved(c) || is_sub_delim(c) || (c == ':' && (extra & X_COLON)) ||
                   (c == '@' && (extra & X_AT)) || (c == '/' && (extra & X_SLASH)) ||
                   (c == '?' && (extra & X_QUESTION))) {
            i++;
        } else if (c >= 0x80 && u->iri) {
            uint32_t cp;
            size_t k = sc_fmt_utf8_decode(u->s + i, end - i, &cp);
            if (k == 0 || !(is_ucschar(cp) || ((extra & X_PRIVATE) && is_iprivate(cp))))
                return 0;
            i += k;
        } else {
            return 0;
        }
    }
    return 1;
}

/* IP-literal = "[" ( IPv6address / IPvFuture ) "]", the brackets excluded here. */
static int check_ip_literal(const uri_in *u, size_t i, size_t end)
{
    if (i < end && (u->s[i] == 'v' || u->s[i] == 'V')) {
        size_t j = i + 1;
        while (j < end && is_hex(u->s[j]))
            j++;
        if (j == i + 1 || j >= end || u->s[j] != '.' || j + 1 >= end)
            return 0;
        for (j++; j < end; j++)
            if (!is_unreserved(u->s[j]) && !is_sub_delim(u->s[j]) && u->s[j] != ':')
                return 0;
        return 1;
    }
    return sc_fmt_ipv6((const char *)u->s + i, end - i);
}

/* authority = [ userinfo "@" ] host [ ":" port ] over [i, end). */
static int check_authority(const uri_in *u, size_t i, size_t end)
{
    const unsigned char *at = memchr(u->s + i, '@', end - i);
    if (at) {
        size_t a = (size_t)(at - u->s);
        if (!scan_chars(u, i, a, X_COLON))
            return 0;
        i = a + 1;
    }
    size_t host_end;
    if (i < end && u->s[i] == '[') {
        const unsigned char *close = memchr(u->s + i, ']', end - i);
        if (!close)
            return 0;
        host_end = (size_t)(close - u->s);
        if (!check_ip_literal(u, i + 1, host_end))
            return 0;
        host_end++;
    } else {
        host_end = i;
        while (host_end < end && u->s[host_end] != ':')
            host_end++;
        /* reg-name; an IPv4address is a reg-name too, so no separate check */
        if (!scan_chars(u, i, host_end, 0))
            return 0;
    }
    if (host_end < end) {
        if (u->s[host_end] != ':')
            return 0;
        for (size_t j = host_end + 1; j < end; j++)
            if (!is_digit(u->s[j]))
                return 0;
    }
    return 1;
}

/* Checks hier-part / relative-part, then "?" query and "#" fragment, from i. When
 * relative, the first segment of a path that does not start with "/" must have no ':'. */
static int check_rest(const uri_in *u, size_t i, int relative)
{
    size_t n = u->n;
    size_t path_end = i;
    while (path_end < n && u->s[path_end] != '?' && u->s[path_end] != '#')
        path_end++;
    size_t p = i;
    if (path_end - i >= 2 && u->s[i] == '/' && u->s[i + 1] == '/') {
        size_t a = i + 2, a_end = a;
        while (a_end < path_end && u->s[a_end] != '/')
            a_end++;
        if (!check_authority(u, a, a_end))
            return 0;
        p = a_end;
    } else if (relative) {
        size_t seg_end = p;
        while (seg_end < path_end && u->s[seg_end] != '/')
            seg_end++;
        if (memchr(u->s + p, ':', seg_end - p))
            return 0; /* path-noscheme */
    }
    /* path: segments of pchar separated by "/" */
    if (!scan_chars(u, p, path_end, X_COLON | X_AT | X_SLASH))
        return 0;
    size_t q = path_end;
    if (q < n && u->s[q] == '?') {
        size_t q_end = q + 1;
        while (q_end < n && u->s[q_end] != '#')
            q_end++;
        if (!scan_chars(u, q + 1, q_end, X_COLON | X_AT | X_SLASH | X_QUESTION | X_PRIVATE))
            return 0;
        q = q_end;
    }
    if (q < n) { /* '#' */
        if (!scan_chars(u, q + 1, n, X_COLON | X_AT | X_SLASH | X_QUESTION))
            return 0;
    }
    return 1;
}

/* Length of a scheme followed by ':' at the start, or 0. */
static size_t scheme_length(const uri_in *u)
{
    if (u->n == 0 || !is_alpha(u->s[0]))
        return 0;
    size_t i = 1;
    while (i < u->n && (is_alpha(u->s[i]) || is_digit(u->s[i]) || u->s[i] == '+' || u->s[i] == '-' || u->s[i] == '.'))
        i++;
    return i < u->n && u->s[i] == ':' ? i : 0;
}

static int check_absolute(const uri_in *u)
{
    size_t k = scheme_length(u);
    return k > 0 && check_rest(u, k + 1, 0);
}

static int check_reference(const uri_in *u)
{
    return check_absolute(u) || check_rest(u, 0, 1);
}

int sc_fmt_uri(const char *s, size_t n)
{
    uri_in u = {(const unsigned char *)s, n, 0};
    return check_absolute(&u);
}
int sc_fmt_uri_reference(const char *s, size_t n)
{
    uri_in u = {(const unsigned char *)s, n, 0};
    return check_reference(&u);
}
int sc_fmt_iri(const char *s, size_t n)
{
    uri_in u = {(const unsigned char *)s, n, 1};
    return check_absolute(&u);
}
int sc_fmt_iri_reference(const char *s, size_t n)
{
    uri_in u = {(const unsigned char *)s, n, 1};
    return check_reference(&u);
}

/* ---- uri-template (RFC 6570 section 2) ------------------------------------------------- */

/* literals: any char but CTL, SP, '"', '%' (unless pct-encoded), '<', '>', '\', '^', '`',
 * '{', '|', '}'. The suite (following RFC 6570 errata) also allows "'". */
static int is_template_literal(unsigned char c)
{
    return c > 0x20 && c < 0x7F && strchr("\"%<>\\^`{|}", c) == NULL;
}

/* varspec list inside "{...}" over [i, end). */
static int check_expression(const unsigned char *s, size_t i, size_t end)
{
    if (i < end && strchr("+#./;?&", s[i]) != NULL)
        i++;
    for (;;) {
        /* varname = varchar *( ["."] varchar ), varchar = ALPHA / DIGIT / "_" / pct-encoded */
        int need_char = 1;
        while (i < end) {
            unsigned char c = s[i];
            if (c == '%') {
                if (i + 2 >= end || !is_hex(s[i + 1]) || !is_hex(s[i + 2]))
                    return 0;
                i += 3;
                need_char = 0;
            } else if (is_alpha(c) || is_digit(c) || c == '_') {
                i++;
                need_char = 0;
            } else if (c == '.' && !need_char) {
                i++;
                need_char = 1;
            } else {
                break;
            }
        }
        if (need_char)
            return 0;
        if (i < end && s[i] == ':') {
            /* prefix = ":" max-length, max-length = %x31-39 0*3DIGIT */
            size_t start = ++i;
            while (i < end && is_digit(s[i]))
                i++;
            if (i == start || i - start > 4 || s[start] == '0')
                return 0;
        } else if (i < end && s[i] == '*') {
            i++;
        }
        if (i == end)
            return 1;
        if (s[i] != ',')
            return 0;
        i++;
    }
}

int sc_fmt_uri_template(const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        if (c == '{') {
            const unsigned char *close = memchr(s + i, '}', n - i);
            if (!close)
                return 0;
            size_t end = (size_t)(close - s);
            if (memchr(s + i + 1, '{', end - i - 1) || !check_expression(s, i + 1, end))
                return 0;
            i = end + 1;
        } else if (c == '%') {
            if (i + 2 >= n || !is_hex(s[i + 1]) || !is_hex(s[i + 2]))
                return 0;
            i += 3;
        } else if (is_template_literal(c)) {
            i++;
        } else if (c >= 0x80) {
            uint32_t cp;
            size_t k = sc_fmt_utf8_decode(s + i, n - i, &cp);
            if (k == 0 || !(is_ucschar(cp) || is_iprivate(cp)))
                return 0;
            i += k;
        } else {
            return 0;
        }
    }
    return 1;
}
