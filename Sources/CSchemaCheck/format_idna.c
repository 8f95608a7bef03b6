/*
 * format_idna.c: IDNA2008 pieces for "hostname" and "idn-hostname": Punycode (RFC 3492),
 * the code point and contextual rules of RFC 5891/5892, and the Bidi rule of RFC 5893.
 *
 * Unicode properties come from PCRE2's tables (general category, script, bidi class,
 * a few binary properties), so no Unicode data is copied here. Each check compiles the
 * few small patterns it needs and frees them before returning: no global state.
 *
 * Approximations, on purpose: RFC 5892's "Unstable" category (NFKC case folding changes
 * the character) is approximated by excluding upper and title case letters; Joining_Type
 * (for ZERO WIDTH NON-JOINER) by "letter of a joining script" and "mark or format char";
 * Virama (combining class 9) by a list. NFC is not checked.
 */
#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8 /* the package also defines it for the target */
#endif
#include <pcre2.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "sc_regex_format.h"

/* ---- Punycode (RFC 3492) --------------------------------------------------------------- */

enum { PY_BASE = 36, PY_TMIN = 1, PY_TMAX = 26, PY_SKEW = 38, PY_DAMP = 700, PY_BIAS = 72, PY_N = 128 };

static uint32_t py_adapt(uint32_t delta, uint32_t numpoints, int first)
{
    delta = first ? delta / PY_DAMP : delta / 2;
    delta += delta / numpoints;
    uint32_t k = 0;
    while (delta > ((PY_BASE - PY_TMIN) * PY_TMAX) / 2) {
        delta /= PY_BASE - PY_TMIN;
        k += PY_BASE;
    }
    return k + (PY_BASE - PY_TMIN + 1) * delta / (delta + PY_SKEW);
}

static int py_digit_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0' + 26;
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a';
    return -1;
}

static char py_digit_char(uint32_t d)
{
    return (char)(d < 26 ? 'a' + d : '0' + (d - 26));
}

static uint32_t py_threshold(uint32_t k, uint32_t bias)
{
    return k <= bias ? PY_TMIN : k >= bias + PY_TMAX ? PY_TMAX : k - bias;
}

long sc_fmt_punycode_decode(const char *in, size_t n, uint32_t *out, size_t cap)
{
    size_t b = 0, len = 0;
    for (size_t j = 0; j < n; j++)
        if (in[j] == '-')
            b = j + 1;
    if (b > 0) {
        for (size_t j = 0; j + 1 < b; j++) {
            if ((unsigned char)in[j] >= 0x80 || len >= cap)
                return -1;
            out[len++] = (unsigned char)in[j];
        }
    }
    uint32_t cp = PY_N, i = 0, bias = PY_BIAS;
    for (size_t p = b; p < n;) {
        uint32_t oldi = i, w = 1;
        for (uint32_t k = PY_BASE;; k += PY_BASE) {
            if (p >= n)
                return -1;
            int d = py_digit_value(in[p++]);
            if (d < 0 || (uint32_t)d > (UINT32_MAX - i) / w)
                return -1;
            i += (uint32_t)d * w;
            uint32_t t = py_threshold(k, bias);
            if ((uint32_t)d < t)
                break;
            if (w > UINT32_MAX / (PY_BASE - t))
                return -1;
            w *= PY_BASE - t;
        }
        uint32_t count = (uint32_t)len + 1;
        bias = py_adapt(i - oldi, count, oldi == 0);
        if (i / count > 0x10FFFF - cp)
            return -1;
        cp += i / count;
        i %= count;
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || len >= cap)
            return -1;
        memmove(out + i + 1, out + i, (len - i) * sizeof *out);
        out[i++] = cp;
        len++;
    }
    return (long)len;
}

long sc_fmt_punycode_encode(const uint32_t *in, size_t n, char *out, size_t cap)
{
    size_t o = 0;
    uint32_t h, b = 0;
    for (size_t j = 0; j < n; j++) {
        if (in[j] < 0x80) {
            if (o >= cap)
                return -1;
            out[o++] = (char)in[j];
            b++;
        }
    }
    h = b;
    if (b > 0) {
        if (o >= cap)
            return -1;
        out[o++] = '-';
    }
    uint32_t cp = PY_N, delta = 0, bias = PY_BIAS;
    while (h < n) {
        uint32_t m = UINT32_MAX;
        for (size_t j = 0; j < n; j++)
            if (in[j] >= cp && in[j] < m)
                m = in[j];
        if ((m - cp) > (UINT32_MAX - delta) / (h + 1))
            return -1;
        delta += (m - cp) * (h + 1);
        cp = m;
        for (size_t j = 0; j < n; j++) {
            if (in[j] < cp && ++delta == 0)
                return -1;
            if (in[j] == cp) {
                uint32_t q = delta;
                for (uint32_t k = PY_BASE;; k += PY_BASE) {
                    uint32_t t = py_threshold(k, bias);
                    if (q < t)
                        break;
                    if (o >= cap)
                        return -1;
                    out[o++] = py_digit_char(t + (q - t) % (PY_BASE - t));
                    q = (q - t) / (PY_BASE - t);
                }
                if (o >= cap)
                    return -1;
                out[o++] = py_digit_char(q);
                bias = py_adapt(delta, h + 1, h == b);
                delta = 0;
                h++;
            }
        }
        delta++;
        cp++;
    }
    return (long)o;
}

/* ---- property queries through PCRE2 ---------------------------------------------------- */

enum {
    P_LABEL_CHARS,
    P_MARK,
    P_GREEK,
    P_HEBREW,
    P_HKH,
    P_JT_TRANSPARENT,
    P_JT_JOINING,
    P_RTL_ANY,
    P_BIDI_RTL,
    P_BIDI_EN_AN,
    P_BIDI_LTR,
    P_COUNT
};

#define BC(x) "\\p{bc:" x "}"
static const char *const PATTERNS[P_COUNT] = {
    /* RFC 5892: PVALID (LetterDigits minus the DISALLOWED exceptions and ignorables), plus
     * the CONTEXTJ/CONTEXTO code points, whose rules are checked one by one below. */
    [P_LABEL_CHARS] = "\\A(?:[\\x{2D}\\x{DF}\\x{3C2}\\x{6FD}\\x{6FE}\\x{F0B}\\x{3007}\\x{B7}\\x{375}"
                      "\\x{5F3}\\x{5F4}\\x{30FB}\\x{660}-\\x{669}\\x{6F0}-\\x{6F9}\\x{200C}\\x{200D}]"
                      "|(?![\\x{640}\\x{7FA}\\x{302E}\\x{302F}\\x{3031}-\\x{3035}\\x{303B}"
                      "\\x{1100}-\\x{11FF}\\x{A960}-\\x{A97F}\\x{D7B0}-\\x{D7FF}"
                      "\\x{20D0}-\\x{20FF}\\x{1D100}-\\x{1D24F}"
                      "\\p{Default_Ignorable_Code_Point}\\p{White_Space}\\p{Noncharacter_Code_Point}])"
                      "[\\p{Ll}\\p{Lo}\\p{Nd}\\p{Lm}\\p{Mn}\\p{Mc}])*\\z",
    [P_MARK] = "\\A\\p{M}",
    [P_GREEK] = "\\A\\p{sc:Greek}",
    [P_HEBREW] = "\\A\\p{sc:Hebrew}",
    [P_HKH] = "[\\p{sc:Hiragana}\\p{sc:Katakana}\\p{sc:Han}]",
    [P_JT_TRANSPARENT] = "\\A[\\p{Mn}\\p{Me}\\p{Cf}]",
    [P_JT_JOINING] = "\\A(?=\\p{L})[\\p{sc:Arabic}\\p{sc:Syriac}\\p{sc:Nko}\\p{sc:Mongolian}"
                     "\\p{sc:Mandaic}\\p{sc:Manichaean}\\p{sc:Psalter_Pahlavi}\\p{sc:Adlam}"
                     "\\p{sc:Hanifi_Rohingya}\\p{sc:Sogdian}\\p{sc:Phags_Pa}]",
    [P_RTL_ANY] = "[" BC("R") BC("AL") BC("AN") "]",
    /* RFC 5893 rules 1-3 for a label starting right-to-left. */
    [P_BIDI_RTL] = "\\A[" BC("R") BC("AL") "](?:[" BC("R") BC("AL") BC("AN") BC("EN") BC("ES") BC("CS") BC("ET")
        BC("ON") BC("BN") BC("NSM") "]*[" BC("R") BC("AL") BC("EN") BC("AN") "])?" BC("NSM") "*\\z",
    /* Rule 4: EN and AN together. */
    [P_BIDI_EN_AN] = BC("EN") ".*" BC("AN") "|" BC("AN") ".*" BC("EN"),
    /* Rules 1, 5, 6 for a label starting left-to-right. */
    [P_BIDI_LTR] = "\\A" BC("L") "(?:[" BC("L") BC("EN") BC("ES") BC("CS") BC("ET") BC("ON") BC("BN")
        BC("NSM") "]*[" BC("L") BC("EN") "])?" BC("NSM") "*\\z",
};

typedef struct {
    pcre2_code *code[P_COUNT];
    pcre2_match_data *md;
    int broken; /* a pattern failed to compile or memory ran out: answer "invalid" */
} idna_ctx;

static void ctx_free(idna_ctx *c)
{
    for (int i = 0; i < P_COUNT; i++)
        pcre2_code_free(c->code[i]);
    pcre2_match_data_free(c->md);
}

/* 1 if pattern p matches utf8[0..len), 0 if not (or on any failure, with c->broken set). */
static int ctx_match(idna_ctx *c, int p, const char *utf8, size_t len)
{
    if (c->broken)
        return 0;
    if (!c->code[p]) {
        int err;
        PCRE2_SIZE off;
        c->code[p] = pcre2_compile((PCRE2_SPTR)PATTERNS[p], PCRE2_ZERO_TERMINATED, PCRE2_UTF, &err, &off, NULL);
        if (!c->code[p]) {
            c->broken = 1;
            return 0;
        }
    }
    if (!c->md && !(c->md = pcre2_match_data_create(1, NULL))) {
        c->broken = 1;
        return 0;
    }
    int rc = pcre2_match(c->code[p], (PCRE2_SPTR)utf8, len, 0, 0, c->md, NULL);
    if (rc < 0 && rc != PCRE2_ERROR_NOMATCH)
        c->broken = 1;
    return rc >= 0;
}

static size_t utf8_encode(uint32_t cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Encodes cps to UTF-8 into a new buffer (caller frees); NULL on out of memory. */
static char *to_utf8(const uint32_t *cp, size_t n, size_t *len)
{
    char *s = malloc(n * 4 + 1);
    if (!s)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n; i++)
        o += utf8_encode(cp[i], s + o);
    s[o] = '\0';
    *len = o;
    return s;
}

static int cp_is(idna_ctx *c, int p, uint32_t cp)
{
    char buf[4];
    size_t n = utf8_encode(cp, buf);
    return ctx_match(c, p, buf, n);
}

/* Code points with Canonical_Combining_Class = 9 (Virama). */
static const uint32_t VIRAMAS[] = {
    0x094D,  0x09CD,  0x0A4D,  0x0ACD,  0x0B4D,  0x0BCD,  0x0C4D,  0x0CCD,  0x0D3B,  0x0D3C,  0x0D4D,  0x0DCA,  0x0E3A,
    0x0EBA,  0x0F84,  0x1039,  0x103A,  0x1714,  0x1715,  0x1734,  0x17D2,  0x1A60,  0x1B44,  0x1BAA,  0x1BAB,  0x1BF2,
    0x1BF3,  0x2D7F,  0xA806,  0xA82C,  0xA8C4,  0xA953,  0xA9C0,  0xAAF6,  0xABED,  0x10A3F, 0x11046, 0x11070, 0x1107F,
    0x110B9, 0x11133, 0x11134, 0x111C0, 0x11235, 0x112EA, 0x1134D, 0x11442, 0x114C2, 0x115BF, 0x1163F, 0x116B6, 0x1172B,
    0x11839, 0x1193D, 0x1193E, 0x119E0, 0x11A34, 0x11A47, 0x11A99, 0x11C3F, 0x11D44, 0x11D45, 0x11D97,
};

static int is_virama(uint32_t cp)
{
    for (size_t i = 0; i < sizeof VIRAMAS / sizeof VIRAMAS[0]; i++)
        if (VIRAMAS[i] == cp)
            return 1;
    return 0;
}

/* RFC 5892 appendix A.1: ZERO WIDTH NON-JOINER after a virama, or inside a joining
 * context (L|D) T* ZWNJ T* (R|D). */
static int zwnj_ok(idna_ctx *c, const uint32_t *cp, size_t n, size_t i)
{
    if (i > 0 && is_virama(cp[i - 1]))
        return 1;
    size_t j = i;
    while (j > 0 && cp[j - 1] != 0x200C && cp_is(c, P_JT_TRANSPARENT, cp[j - 1]))
        j--;
    if (j == 0 || !cp_is(c, P_JT_JOINING, cp[j - 1]))
        return 0;
    size_t k = i + 1;
    while (k < n && cp[k] != 0x200C && cp_is(c, P_JT_TRANSPARENT, cp[k]))
        k++;
    return k < n && cp_is(c, P_JT_JOINING, cp[k]);
}

static int contexts_ok(idna_ctx *c, const uint32_t *cp, size_t n, const char *utf8, size_t len)
{
    int arabic_indic = 0, extended = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t x = cp[i];
        if (x >= 0x660 && x <= 0x669)
            arabic_indic = 1;
        if (x >= 0x6F0 && x <= 0x6F9)
            extended = 1;
        switch (x) {
        case 0x200C:
            if (!zwnj_ok(c, cp, n, i))
                return 0;
            break;
        case 0x200D: /* ZERO WIDTH JOINER */
            if (i == 0 || !is_virama(cp[i - 1]))
                return 0;
            break;
        case 0x00B7: /* MIDDLE DOT, only in "l·l" (Catalan) */
            if (i == 0 || i + 1 >= n || cp[i - 1] != 'l' || cp[i + 1] != 'l')
                return 0;
            break;
        case 0x0375: /* GREEK KERAIA: followed by Greek */
            if (i + 1 >= n || !cp_is(c, P_GREEK, cp[i + 1]))
                return 0;
            break;
        case 0x05F3:
        case 0x05F4: /* HEBREW GERESH, GERSHAYIM: preceded by Hebrew */
            if (i == 0 || !cp_is(c, P_HEBREW, cp[i - 1]))
                return 0;
            break;
        case 0x30FB: /* KATAKANA MIDDLE DOT: some Hiragana, Katakana or Han in the label */
            if (!ctx_match(c, P_HKH, utf8, len))
                return 0;
            break;
        default:
            break;
        }
    }
    return !(arabic_indic && extended);
}

int sc_fmt_idna_check_ulabel(const uint32_t *cp, size_t n)
{
    if (n == 0 || cp[0] == '-' || cp[n - 1] == '-')
        return 0;
    if (n >= 4 && cp[2] == '-' && cp[3] == '-')
        return 0; /* RFC 5891 4.2.3.1 */
    size_t len;
    char *utf8 = to_utf8(cp, n, &len);
    if (!utf8)
        return 0;
    idna_ctx c = {0};
    int ok = !ctx_match(&c, P_MARK, utf8, len) && ctx_match(&c, P_LABEL_CHARS, utf8, len) &&
             contexts_ok(&c, cp, n, utf8, len) && !c.broken;
    ctx_free(&c);
    free(utf8);
    return ok;
}

int sc_fmt_idna_check_bidi(const uint32_t *const *labels, const size_t *lens, size_t n_labels)
{
    idna_ctx c = {0};
    char **utf8 = calloc(n_labels ? n_labels : 1, sizeof *utf8);
    size_t *ulen = calloc(n_labels ? n_labels : 1, sizeof *ulen);
    int ok = utf8 && ulen;
    int bidi_domain = 0;
    for (size_t i = 0; ok && i < n_labels; i++) {
        utf8[i] = to_utf8(labels[i], lens[i], &ulen[i]);
        if (!utf8[i])
            ok = 0;
        else if (ctx_match(&c, P_RTL_ANY, utf8[i], ulen[i]))
            bidi_domain = 1;
    }
    /* RFC 5893 applies only to a domain name with at least one right-to-left label. */
    for (size_t i = 0; ok && bidi_domain && i < n_labels; i++) {
        int rtl = ctx_match(&c, P_BIDI_RTL, utf8[i], ulen[i]) && !ctx_match(&c, P_BIDI_EN_AN, utf8[i], ulen[i]);
        if (!rtl && !ctx_match(&c, P_BIDI_LTR, utf8[i], ulen[i]))
            ok = 0;
    }
    if (c.broken)
        ok = 0;
    for (size_t i = 0; utf8 && i < n_labels; i++)
        free(utf8[i]);
    free(utf8);
    free(ulen);
    ctx_free(&c);
    return ok;
}
