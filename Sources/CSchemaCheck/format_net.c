/*
 * format_net.c: ipv4 (RFC 2673 dotted quad), ipv6 (RFC 4291 section 2.2), hostname
 * (RFC 1123, with A-labels checked per IDNA2008), idn-hostname (RFC 5890), email
 * (RFC 5321 Mailbox) and idn-email (RFC 6531).
 */
#include <stdlib.h>
#include <string.h>

#include "sc_regex_format.h"

#define MAX_NAME   253 /* RFC 1034: a name's presentation form, without a final dot */
#define MAX_LABEL  63
#define MAX_LABELS 128

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}
static int is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static int is_hex(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* ---- IP addresses ---------------------------------------------------------------------- */

/* Four decimal octets 0-255, ASCII digits, no leading zeros (they read as octal elsewhere). */
int sc_fmt_ipv4(const char *s, size_t n)
{
    size_t i = 0;
    for (int part = 0; part < 4; part++) {
        if (part > 0) {
            if (i >= n || s[i] != '.')
                return 0;
            i++;
        }
        size_t start = i;
        int v = 0;
        while (i < n && is_digit(s[i]) && i - start < 3)
            v = v * 10 + (s[i++] - '0');
        size_t len = i - start;
        if (len == 0 || v > 255 || (len > 1 && s[start] == '0'))
            return 0;
    }
    return i == n;
}

int sc_fmt_ipv6(const char *s, size_t n)
{
    size_t i = 0;
    int groups = 0, compressed = 0;
    if (n >= 2 && s[0] == ':' && s[1] == ':') {
        compressed = 1;
        i = 2;
        if (i == n)
            return 1;
    } else if (n > 0 && s[0] == ':') {
        return 0;
    }
    while (i < n) {
        size_t start = i;
        while (i < n && is_hex(s[i]))
            i++;
        if (i < n && s[i] == '.') {
            /* An embedded IPv4 address ends the address and fills two groups. */
            size_t j = start;
            while (j < n && (is_digit(s[j]) || s[j] == '.'))
                j++;
            if (j != n || !sc_fmt_ipv4(s + start, n - start))
                return 0;
            groups += 2;
            i = n;
            break;
        }
        if (i == start || i - start > 4)
            return 0;
        groups++;
        if (i == n)
            break;
        if (s[i] != ':')
            return 0;
        i++;
        if (i < n && s[i] == ':') {
            if (compressed)
                return 0;
            compressed = 1;
            i++;
            if (i == n)
                break;
        } else if (i == n) {
            return 0; /* a single trailing colon */
        }
        if (groups > 8)
            return 0;
    }
    return compressed ? groups <= 7 : groups == 8;
}

/* ---- host names ------------------------------------------------------------------------ */

static int is_ldh_label(const char *s, size_t n)
{
    if (n == 0 || n > MAX_LABEL || s[0] == '-' || s[n - 1] == '-')
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!is_alpha(s[i]) && !is_digit(s[i]) && s[i] != '-')
            return 0;
    return 1;
}

static int has_ace_prefix(const char *s, size_t n)
{
    return n >= 4 && lower(s[0]) == 'x' && lower(s[1]) == 'n' && s[2] == '-' && s[3] == '-';
}

/* Checks an LDH label starting with "xn--": valid Punycode that re-encodes to itself and
 * decodes to a valid, non-ASCII U-label. Writes the U-label to out (cap code points). */
static long check_a_label(const char *s, size_t n, uint32_t *out, size_t cap)
{
    long len = sc_fmt_punycode_decode(s + 4, n - 4, out, cap);
    if (len <= 0)
        return -1;
    int non_ascii = 0;
    for (long i = 0; i < len; i++)
        if (out[i] >= 0x80)
            non_ascii = 1;
    if (!non_ascii)
        return -1;
    char again[MAX_LABEL + 1];
    long m = sc_fmt_punycode_encode(out, (size_t)len, again, sizeof again);
    if (m < 0 || (size_t)m != n - 4)
        return -1;
    for (long i = 0; i < m; i++)
        if (lower(again[i]) != lower(s[4 + i]))
            return -1;
    return sc_fmt_idna_check_ulabel(out, (size_t)len) ? len : -1;
}

/* Labels collected for the domain-wide Bidi rule. */
typedef struct {
    uint32_t cp[MAX_LABELS][MAX_LABEL + 1];
    size_t len[MAX_LABELS];
    size_t count;
    int any_idn;
} label_set;

static int bidi_ok(const label_set *ls)
{
    if (!ls->any_idn)
        return 1; /* ASCII-only names have no right-to-left labels */
    const uint32_t *ptrs[MAX_LABELS];
    for (size_t i = 0; i < ls->count; i++)
        ptrs[i] = ls->cp[i];
    return sc_fmt_idna_check_bidi(ptrs, ls->len, ls->count);
}

/* Adds an ASCII label (already checked) to ls. */
static int add_ascii_label(label_set *ls, const char *s, size_t n)
{
    if (ls->count >= MAX_LABELS || n > MAX_LABEL)
        return 0;
    for (size_t i = 0; i < n; i++)
        ls->cp[ls->count][i] = (unsigned char)s[i];
    ls->len[ls->count++] = n;
    return 1;
}

/* One ASCII label of a host name: LDH, and a real A-label when it claims to be one. */
static int check_ascii_label(label_set *ls, const char *s, size_t n)
{
    if (!is_ldh_label(s, n) || ls->count >= MAX_LABELS)
        return 0;
    if (has_ace_prefix(s, n)) {
        long len = check_a_label(s, n, ls->cp[ls->count], MAX_LABEL);
        if (len < 0)
            return 0;
        ls->len[ls->count++] = (size_t)len;
        ls->any_idn = 1;
        return 1;
    }
    if (n >= 4 && s[2] == '-' && s[3] == '-')
        return 0; /* reserved LDH label (RFC 5890 2.3.1) that is not an A-label */
    return add_ascii_label(ls, s, n);
}

int sc_fmt_hostname(const char *s, size_t n)
{
    if (n == 0 || n > MAX_NAME)
        return 0;
    label_set *ls = calloc(1, sizeof *ls);
    if (!ls)
        return 0;
    int ok = 1;
    size_t start = 0;
    for (size_t i = 0; ok && i <= n; i++) {
        if (i == n || s[i] == '.') {
            ok = check_ascii_label(ls, s + start, i - start);
            start = i + 1;
        }
    }
    ok = ok && bidi_ok(ls);
    free(ls);
    return ok;
}

/* draft-04 and draft-06 read "hostname" by RFC 1123 alone: LDH labels, no IDNA rules. */
int sc_fmt_hostname_rfc1123(const char *s, size_t n)
{
    if (n == 0 || n > MAX_NAME)
        return 0;
    size_t start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i == n || s[i] == '.') {
            if (!is_ldh_label(s + start, i - start))
                return 0;
            start = i + 1;
        }
    }
    return 1;
}

static int is_dot(uint32_t cp)
{
    return cp == '.' || cp == 0x3002 || cp == 0xFF0E || cp == 0xFF61;
}

/* One label of an idn-hostname, given as code points. Adds its ASCII-form length to
 * *ascii_len. */
static int check_idn_label(label_set *ls, const uint32_t *cp, size_t n, size_t *ascii_len)
{
    if (n == 0 || ls->count >= MAX_LABELS)
        return 0;
    int ascii = 1;
    for (size_t i = 0; i < n; i++)
        if (cp[i] >= 0x80)
            ascii = 0;
    if (ascii) {
        char buf[MAX_LABEL + 1];
        if (n > MAX_LABEL)
            return 0;
        for (size_t i = 0; i < n; i++)
            buf[i] = (char)cp[i];
        *ascii_len += n;
        return check_ascii_label(ls, buf, n);
    }
    char ace[MAX_LABEL + 1];
    long m = sc_fmt_punycode_encode(cp, n, ace, MAX_LABEL - 4);
    if (m < 0 || n > MAX_LABEL || !sc_fmt_idna_check_ulabel(cp, n))
        return 0;
    *ascii_len += 4 + (size_t)m;
    memcpy(ls->cp[ls->count], cp, n * sizeof *cp);
    ls->len[ls->count++] = n;
    ls->any_idn = 1;
    return 1;
}

int sc_fmt_idn_hostname(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    label_set *ls = calloc(1, sizeof *ls);
    uint32_t *cps = malloc((n + 1) * sizeof *cps);
    int ok = ls && cps;
    size_t count = 0;
    for (size_t i = 0; ok && i < n;) {
        size_t k = sc_fmt_utf8_decode((const unsigned char *)s + i, n - i, &cps[count]);
        if (k == 0)
            ok = 0;
        i += k;
        count++;
    }
    size_t ascii_len = 0, start = 0, labels = 0;
    for (size_t i = 0; ok && i <= count; i++) {
        if (i == count || is_dot(cps[i])) {
            ok = check_idn_label(ls, cps + start, i - start, &ascii_len);
            labels++;
            start = i + 1;
        }
    }
    if (ok && ascii_len + (labels - 1) > MAX_NAME)
        ok = 0;
    ok = ok && bidi_ok(ls);
    free(ls);
    free(cps);
    return ok;
}

/* ---- email ----------------------------------------------------------------------------- */

static int is_atext(unsigned char c)
{
    return is_alpha((char)c) || is_digit((char)c) || (c != 0 && strchr("!#$%&'*+-/=?^_`{|}~", c));
}

/* Length in bytes of one valid UTF-8 character at s when it is non-ASCII, else 0. */
static size_t utf8_non_ascii(const char *s, size_t n)
{
    uint32_t cp;
    size_t k = sc_fmt_utf8_decode((const unsigned char *)s, n, &cp);
    return k > 1 ? k : 0;
}

/* Parses the local part; returns its length (up to the '@'), or 0 when invalid.
 * intl: RFC 6531 also allows any non-ASCII UTF-8 character. */
static size_t parse_local_part(const char *s, size_t n, int intl)
{
    size_t i = 0;
    if (n > 0 && s[0] == '"') {
        i = 1;
        for (;;) {
            if (i >= n)
                return 0;
            unsigned char c = (unsigned char)s[i];
            if (c == '"') {
                i++;
                break;
            }
            if (c == '\\') {
                i++;
                if (i >= n)
                    return 0;
                c = (unsigned char)s[i];
            }
            if (c >= 32 && c <= 126) {
                i++;
            } else if (intl && c >= 0x80) {
                size_t k = utf8_non_ascii(s + i, n - i);
                if (!k)
                    return 0;
                i += k;
            } else {
                return 0;
            }
        }
    } else {
        /* Dot-string: atoms separated by single dots. */
        int need_atom = 1;
        while (i < n && s[i] != '@') {
            unsigned char c = (unsigned char)s[i];
            if (c == '.') {
                if (need_atom)
                    return 0;
                need_atom = 1;
                i++;
            } else if (is_atext(c)) {
                need_atom = 0;
                i++;
            } else if (intl && c >= 0x80) {
                size_t k = utf8_non_ascii(s + i, n - i);
                if (!k)
                    return 0;
                need_atom = 0;
                i += k;
            } else {
                return 0;
            }
        }
        if (need_atom)
            return 0;
    }
    if (i >= n || s[i] != '@' || i > 64)
        return 0;
    return i;
}

static int starts_with_nocase(const char *s, size_t n, const char *prefix)
{
    size_t k = strlen(prefix);
    if (n < k)
        return 0;
    for (size_t i = 0; i < k; i++)
        if (lower(s[i]) != lower(prefix[i]))
            return 0;
    return 1;
}

static int check_address_literal(const char *s, size_t n)
{
    if (n < 2 || s[0] != '[' || s[n - 1] != ']')
        return 0;
    s++;
    n -= 2;
    if (starts_with_nocase(s, n, "IPv6:"))
        return sc_fmt_ipv6(s + 5, n - 5);
    return sc_fmt_ipv4(s, n);
}

static int check_email(const char *s, size_t n, int intl)
{
    size_t at = parse_local_part(s, n, intl);
    if (at == 0)
        return 0;
    const char *d = s + at + 1;
    size_t dn = n - at - 1;
    if (dn > 0 && d[0] == '[')
        return check_address_literal(d, dn);
    return intl ? sc_fmt_idn_hostname(d, dn) : sc_fmt_hostname(d, dn);
}

int sc_fmt_email(const char *s, size_t n)
{
    return check_email(s, n, 0);
}
int sc_fmt_idn_email(const char *s, size_t n)
{
    return check_email(s, n, 1);
}
