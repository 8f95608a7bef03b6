/*
 * regex_ecma.c: ECMA-262 (unicode mode) regular expressions on PCRE2.
 *
 * The ECMA pattern is parsed by a small recursive-descent parser that follows the
 * ECMA-262 "u" grammar and emits an equivalent PCRE2 pattern. Every character the parser
 * does not pass through verbatim is emitted as \x{...}, and every ECMA class escape is
 * emitted as an explicit set of ranges, so the result does not depend on PCRE2's character
 * tables or on PCRE2_UCP: \d \w \b stay ASCII, \s is ECMA's set, "." excludes ECMA's line
 * terminators. The output is pure ASCII.
 *
 * Things ECMA allows that PCRE2 10.42 cannot express (variable-length lookbehind,
 * quantifier bounds above 65535, a few binary properties) are compile errors that name the
 * construct; sc_regex_is_valid still calls them valid ECMA (format "regex").
 */
#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8 /* the package also defines it for the target */
#endif
#include <pcre2.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "regex_simple.h"
#include "sc_regex_format.h"

struct sc_regex {
    pcre2_code *code;
    pcre2_match_context *mctx; /* read-only after compile, so shareable across threads */
    sc_simple_regex *simple;   /* the same pattern matched without PCRE2, when it has that shape */
};

struct sc_regex_match_data {
    pcre2_match_data *md;
};

/* Nesting bound for groups; keeps the recursive parser's stack use small and matches
 * PCRE2's own default parenthesis limit. */
#define MAX_NESTING 250
/* PCRE2 10.42 rejects {n,m} bounds above this. */
#define PCRE2_MAX_QUANT 65535u
/* Heap limit for the interpreter, in KiB: a hostile pattern must not eat memory. */
#define HEAP_LIMIT_KIB 65536u

/* ---- translator state ---------------------------------------------------------------- */

typedef struct {
    size_t out; /* offset in the PCRE2 pattern */
    size_t src; /* offset in the ECMA pattern */
} offset_pair;

typedef struct {
    const char *name; /* points into the source pattern, not NUL-terminated */
    size_t len;
} group_name;

typedef struct {
    const unsigned char *src;
    size_t len;
    size_t pos;

    char *out;
    size_t out_len, out_cap;

    offset_pair *map; /* to report PCRE2's errors at ECMA offsets */
    size_t map_len, map_cap;

    group_name *names; /* index i = capture group i + 1; name NULL when unnamed */
    size_t ngroups;

    int oom;
    int failed;      /* a syntax error: not ECMA */
    int unsupported; /* valid ECMA that PCRE2 cannot express */
    char msg[256];
} translator;

static void fail(translator *t, size_t at, const char *fmt, ...)
{
    if (t->failed)
        return;
    t->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->msg, sizeof t->msg, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < sizeof t->msg)
        snprintf(t->msg + n, sizeof t->msg - (size_t)n, " at offset %zu", at);
}

/* Like fail, but the pattern is valid ECMA; only PCRE2 cannot run it. */
static void unsupported(translator *t, size_t at, const char *fmt, ...)
{
    if (t->failed)
        return;
    t->failed = 1;
    t->unsupported = 1;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->msg, sizeof t->msg, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < sizeof t->msg)
        snprintf(t->msg + n, sizeof t->msg - (size_t)n, " at offset %zu (unsupported by PCRE2)", at);
}

static void emit_n(translator *t, const char *s, size_t n)
{
    if (t->oom)
        return;
    if (t->out_len + n + 1 > t->out_cap) {
        size_t cap = t->out_cap ? t->out_cap : 64;
        while (cap < t->out_len + n + 1)
            cap *= 2;
        char *p = realloc(t->out, cap);
        if (!p) {
            t->oom = 1;
            return;
        }
        t->out = p;
        t->out_cap = cap;
    }
    if (n)
        memcpy(t->out + t->out_len, s, n);
    t->out_len += n;
    t->out[t->out_len] = '\0';
}

static void emit(translator *t, const char *s)
{
    emit_n(t, s, strlen(s));
}

static void emitf(translator *t, const char *fmt, ...)
{
    char buf[64];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n > 0)
        emit_n(t, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

static void mark(translator *t, size_t src)
{
    if (t->oom)
        return;
    if (t->map_len == t->map_cap) {
        size_t cap = t->map_cap ? t->map_cap * 2 : 32;
        offset_pair *p = realloc(t->map, cap * sizeof *p);
        if (!p) {
            t->oom = 1;
            return;
        }
        t->map = p;
        t->map_cap = cap;
    }
    t->map[t->map_len].out = t->out_len;
    t->map[t->map_len].src = src;
    t->map_len++;
}

static size_t src_offset_of(const translator *t, size_t out)
{
    size_t best = 0;
    for (size_t i = 0; i < t->map_len; i++)
        if (t->map[i].out <= out)
            best = t->map[i].src;
    return best;
}

/* ---- UTF-8 and small lexing helpers ---------------------------------------------------- */

static int at_end(const translator *t)
{
    return t->pos >= t->len;
}
static int peek(const translator *t)
{
    return t->pos < t->len ? t->src[t->pos] : -1;
}
static int peek_at(const translator *t, size_t k)
{
    return t->pos + k < t->len ? t->src[t->pos + k] : -1;
}

static int is_syntax_char(int c)
{
    return c >= 0 && strchr("^$\\.*+?()[]{}|/", c) != NULL && c != '\0';
}

static int is_surrogate(uint32_t cp)
{
    return cp >= 0xD800 && cp <= 0xDFFF;
}

/* ---- code point sets (character classes) ----------------------------------------------- */

typedef struct {
    uint32_t lo, hi;
} range;

typedef struct {
    range *r;
    size_t n, cap;
    char *props; /* concatenated "\p{..}" items, emitted as-is inside the class */
    size_t props_len, props_cap;
    int oom;
} cset;

static void cset_add(cset *s, uint32_t lo, uint32_t hi)
{
    if (s->oom)
        return;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 8;
        range *p = realloc(s->r, cap * sizeof *p);
        if (!p) {
            s->oom = 1;
            return;
        }
        s->r = p;
        s->cap = cap;
    }
    s->r[s->n].lo = lo;
    s->r[s->n].hi = hi;
    s->n++;
}

static void cset_add_prop(cset *s, const char *text)
{
    size_t n = strlen(text);
    if (s->oom)
        return;
    if (s->props_len + n + 1 > s->props_cap) {
        size_t cap = s->props_cap ? s->props_cap : 32;
        while (cap < s->props_len + n + 1)
            cap *= 2;
        char *p = realloc(s->props, cap);
        if (!p) {
            s->oom = 1;
            return;
        }
        s->props = p;
        s->props_cap = cap;
    }
    memcpy(s->props + s->props_len, text, n + 1);
    s->props_len += n;
}

static void cset_free(cset *s)
{
    free(s->r);
    free(s->props);
}

static int range_cmp(const void *a, const void *b)
{
    const range *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Adds the complement (within 0..10FFFF) of the sorted, disjoint ranges r[0..n). */
static void cset_add_complement(cset *s, const range *r, size_t n)
{
    uint32_t next = 0;
    for (size_t i = 0; i < n; i++) {
        if (r[i].lo > next)
            cset_add(s, next, r[i].lo - 1);
        next = r[i].hi + 1;
    }
    if (next <= 0x10FFFF)
        cset_add(s, next, 0x10FFFF);
}

static const range DIGIT_RANGES[] = {{'0', '9'}};
static const range WORD_RANGES[] = {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}};
/* ECMA WhiteSpace + LineTerminator, sorted. */
static const range SPACE_RANGES[] = {
    {0x09, 0x0D},     {0x20, 0x20},     {0xA0, 0xA0},     {0x1680, 0x1680}, {0x2000, 0x200A},
    {0x2028, 0x2029}, {0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000}, {0xFEFF, 0xFEFF},
};
/* ECMA LineTerminator, which "." excludes. */
static const range LINE_TERM_RANGES[] = {{0x0A, 0x0A}, {0x0D, 0x0D}, {0x2028, 0x2029}};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Adds \d \D \w \W \s \S (letter c) to s. */
static void cset_add_class_escape(cset *s, int c)
{
    const range *r;
    size_t n;
    switch (c | 0x20) {
    case 'd':
        r = DIGIT_RANGES;
        n = COUNT(DIGIT_RANGES);
        break;
    case 'w':
        r = WORD_RANGES;
        n = COUNT(WORD_RANGES);
        break;
    default:
        r = SPACE_RANGES;
        n = COUNT(SPACE_RANGES);
        break;
    }
    if (c >= 'a') {
        for (size_t i = 0; i < n; i++)
            cset_add(s, r[i].lo, r[i].hi);
    } else {
        cset_add_complement(s, r, n);
    }
}

static void emit_cp_in_class(translator *t, uint32_t cp)
{
    if ((cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z'))
        emitf(t, "%c", (char)cp);
    else
        emitf(t, "\\x{%X}", (unsigned)cp);
}

/* Emits s as a PCRE2 class. Surrogates cannot occur in a UTF-8 subject, and PCRE2 in UTF
 * mode rejects them in a pattern, so they are clipped away. */
static void emit_cset(translator *t, cset *s, int negated)
{
    if (s->oom) {
        t->oom = 1;
        return;
    }
    size_t kept = 0;
    for (size_t i = 0; i < s->n; i++) {
        range r = s->r[i];
        if (is_surrogate(r.lo) && is_surrogate(r.hi))
            continue;
        if (is_surrogate(r.lo))
            r.lo = 0xE000;
        if (is_surrogate(r.hi))
            r.hi = 0xD7FF;
        if (r.lo > r.hi)
            continue;
        s->r[kept++] = r;
    }
    s->n = kept;
    if (s->n == 0 && s->props_len == 0) {
        /* ECMA [] never matches; [^] matches any character, newlines included. */
        emit(t, negated ? "[\\x{0}-\\x{10FFFF}]" : "(?:(?!))");
        return;
    }
    if (s->n > 1)
        qsort(s->r, s->n, sizeof *s->r, range_cmp);
    emit(t, negated ? "[^" : "[");
    for (size_t i = 0; i < s->n; i++) {
        emit_cp_in_class(t, s->r[i].lo);
        if (s->r[i].hi != s->r[i].lo) {
            emit(t, "-");
            emit_cp_in_class(t, s->r[i].hi);
        }
    }
    if (s->props_len)
        emit_n(t, s->props, s->props_len);
    emit(t, "]");
}

/* ---- Unicode property escapes ---------------------------------------------------------- */

typedef struct {
    const char *ecma;
    const char *pcre;
} name_map;

/* ECMA-262 General_Category values (long names, short names and the UCD aliases ECMA
 * lists), mapped to PCRE2's short names. ECMA matches these case-sensitively. */
static const name_map GC_NAMES[] = {
    {"Cased_Letter", "L&"},
    {"LC", "L&"},
    {"Close_Punctuation", "Pe"},
    {"Pe", "Pe"},
    {"Connector_Punctuation", "Pc"},
    {"Pc", "Pc"},
    {"Control", "Cc"},
    {"Cc", "Cc"},
    {"cntrl", "Cc"},
    {"Currency_Symbol", "Sc"},
    {"Sc", "Sc"},
    {"Dash_Punctuation", "Pd"},
    {"Pd", "Pd"},
    {"Decimal_Number", "Nd"},
    {"Nd", "Nd"},
    {"digit", "Nd"},
    {"Enclosing_Mark", "Me"},
    {"Me", "Me"},
    {"Final_Punctuation", "Pf"},
    {"Pf", "Pf"},
    {"Format", "Cf"},
    {"Cf", "Cf"},
    {"Initial_Punctuation", "Pi"},
    {"Pi", "Pi"},
    {"Letter", "L"},
    {"L", "L"},
    {"Letter_Number", "Nl"},
    {"Nl", "Nl"},
    {"Line_Separator", "Zl"},
    {"Zl", "Zl"},
    {"Lowercase_Letter", "Ll"},
    {"Ll", "Ll"},
    {"Mark", "M"},
    {"M", "M"},
    {"Combining_Mark", "M"},
    {"Math_Symbol", "Sm"},
    {"Sm", "Sm"},
    {"Modifier_Letter", "Lm"},
    {"Lm", "Lm"},
    {"Modifier_Symbol", "Sk"},
    {"Sk", "Sk"},
    {"Nonspacing_Mark", "Mn"},
    {"Mn", "Mn"},
    {"Number", "N"},
    {"N", "N"},
    {"Open_Punctuation", "Ps"},
    {"Ps", "Ps"},
    {"Other", "C"},
    {"C", "C"},
    {"Other_Letter", "Lo"},
    {"Lo", "Lo"},
    {"Other_Number", "No"},
    {"No", "No"},
    {"Other_Punctuation", "Po"},
    {"Po", "Po"},
    {"Other_Symbol", "So"},
    {"So", "So"},
    {"Paragraph_Separator", "Zp"},
    {"Zp", "Zp"},
    {"Private_Use", "Co"},
    {"Co", "Co"},
    {"Punctuation", "P"},
    {"P", "P"},
    {"punct", "P"},
    {"Separator", "Z"},
    {"Z", "Z"},
    {"Space_Separator", "Zs"},
    {"Zs", "Zs"},
    {"Spacing_Mark", "Mc"},
    {"Mc", "Mc"},
    {"Surrogate", "Cs"},
    {"Cs", "Cs"},
    {"Symbol", "S"},
    {"S", "S"},
    {"Titlecase_Letter", "Lt"},
    {"Lt", "Lt"},
    {"Unassigned", "Cn"},
    {"Cn", "Cn"},
    {"Uppercase_Letter", "Lu"},
    {"Lu", "Lu"},
};

/* ECMA-262 binary properties (long and short names). PCRE2 gets the long name; the few
 * it lacks are reported as unsupported by the probe compile. */
static const name_map BINARY_NAMES[] = {
    {"ASCII", "ASCII"},
    {"ASCII_Hex_Digit", "ASCII_Hex_Digit"},
    {"AHex", "ASCII_Hex_Digit"},
    {"Alphabetic", "Alphabetic"},
    {"Alpha", "Alphabetic"},
    {"Any", "Any"},
    {"Assigned", "Assigned"},
    {"Bidi_Control", "Bidi_Control"},
    {"Bidi_C", "Bidi_Control"},
    {"Bidi_Mirrored", "Bidi_Mirrored"},
    {"Bidi_M", "Bidi_Mirrored"},
    {"Case_Ignorable", "Case_Ignorable"},
    {"CI", "Case_Ignorable"},
    {"Cased", "Cased"},
    {"Changes_When_Casefolded", "Changes_When_Casefolded"},
    {"CWCF", "Changes_When_Casefolded"},
    {"Changes_When_Casemapped", "Changes_When_Casemapped"},
    {"CWCM", "Changes_When_Casemapped"},
    {"Changes_When_Lowercased", "Changes_When_Lowercased"},
    {"CWL", "Changes_When_Lowercased"},
    {"Changes_When_NFKC_Casefolded", "Changes_When_NFKC_Casefolded"},
    {"CWKCF", "Changes_When_NFKC_Casefolded"},
    {"Changes_When_Titlecased", "Changes_When_Titlecased"},
    {"CWT", "Changes_When_Titlecased"},
    {"Changes_When_Uppercased", "Changes_When_Uppercased"},
    {"CWU", "Changes_When_Uppercased"},
    {"Dash", "Dash"},
    {"Default_Ignorable_Code_Point", "Default_Ignorable_Code_Point"},
    {"DI", "Default_Ignorable_Code_Point"},
    {"Deprecated", "Deprecated"},
    {"Dep", "Deprecated"},
    {"Diacritic", "Diacritic"},
    {"Dia", "Diacritic"},
    {"Emoji", "Emoji"},
    {"Emoji_Component", "Emoji_Component"},
    {"EComp", "Emoji_Component"},
    {"Emoji_Modifier", "Emoji_Modifier"},
    {"EMod", "Emoji_Modifier"},
    {"Emoji_Modifier_Base", "Emoji_Modifier_Base"},
    {"EBase", "Emoji_Modifier_Base"},
    {"Emoji_Presentation", "Emoji_Presentation"},
    {"EPres", "Emoji_Presentation"},
    {"Extended_Pictographic", "Extended_Pictographic"},
    {"ExtPict", "Extended_Pictographic"},
    {"Extender", "Extender"},
    {"Ext", "Extender"},
    {"Grapheme_Base", "Grapheme_Base"},
    {"Gr_Base", "Grapheme_Base"},
    {"Grapheme_Extend", "Grapheme_Extend"},
    {"Gr_Ext", "Grapheme_Extend"},
    {"Hex_Digit", "Hex_Digit"},
    {"Hex", "Hex_Digit"},
    {"IDS_Binary_Operator", "IDS_Binary_Operator"},
    {"IDSB", "IDS_Binary_Operator"},
    {"IDS_Trinary_Operator", "IDS_Trinary_Operator"},
    {"IDST", "IDS_Trinary_Operator"},
    {"ID_Continue", "ID_Continue"},
    {"IDC", "ID_Continue"},
    {"ID_Start", "ID_Start"},
    {"IDS", "ID_Start"},
    {"Ideographic", "Ideographic"},
    {"Ideo", "Ideographic"},
    {"Join_Control", "Join_Control"},
    {"Join_C", "Join_Control"},
    {"Logical_Order_Exception", "Logical_Order_Exception"},
    {"LOE", "Logical_Order_Exception"},
    {"Lowercase", "Lowercase"},
    {"Lower", "Lowercase"},
    {"Math", "Math"},
    {"Noncharacter_Code_Point", "Noncharacter_Code_Point"},
    {"NChar", "Noncharacter_Code_Point"},
    {"Pattern_Syntax", "Pattern_Syntax"},
    {"Pat_Syn", "Pattern_Syntax"},
    {"Pattern_White_Space", "Pattern_White_Space"},
    {"Pat_WS", "Pattern_White_Space"},
    {"Quotation_Mark", "Quotation_Mark"},
    {"QMark", "Quotation_Mark"},
    {"Radical", "Radical"},
    {"Regional_Indicator", "Regional_Indicator"},
    {"RI", "Regional_Indicator"},
    {"Sentence_Terminal", "Sentence_Terminal"},
    {"STerm", "Sentence_Terminal"},
    {"Soft_Dotted", "Soft_Dotted"},
    {"SD", "Soft_Dotted"},
    {"Terminal_Punctuation", "Terminal_Punctuation"},
    {"Term", "Terminal_Punctuation"},
    {"Unified_Ideograph", "Unified_Ideograph"},
    {"UIdeo", "Unified_Ideograph"},
    {"Uppercase", "Uppercase"},
    {"Upper", "Uppercase"},
    {"Variation_Selector", "Variation_Selector"},
    {"VS", "Variation_Selector"},
    {"White_Space", "White_Space"},
    {"space", "White_Space"},
    {"XID_Continue", "XID_Continue"},
    {"XIDC", "XID_Continue"},
    {"XID_Start", "XID_Start"},
    {"XIDS", "XID_Start"},
};

static const char *lookup(const name_map *m, size_t n, const char *name, size_t len)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(m[i].ecma) == len && memcmp(m[i].ecma, name, len) == 0)
            return m[i].pcre;
    return NULL;
}

/* Does PCRE2 know this \p{...} body? Asked by compiling it alone, so the error can name
 * the property instead of pointing into the translated pattern. */
static int pcre2_knows_property(const char *body)
{
    char pat[160];
    int n = snprintf(pat, sizeof pat, "\\p{%s}", body);
    if (n < 0 || (size_t)n >= sizeof pat)
        return 0;
    int err;
    PCRE2_SIZE off;
    pcre2_code *c = pcre2_compile((PCRE2_SPTR)pat, (PCRE2_SIZE)n, PCRE2_UTF, &err, &off, NULL);
    if (!c)
        return 0;
    pcre2_code_free(c);
    return 1;
}

static int is_script_value(const unsigned char *s, size_t n)
{
    if (n == 0 || n > 64 || !(s[0] >= 'A' && s[0] <= 'Z'))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') || s[i] == '_'))
            return 0;
    return 1;
}

/* Parses "{...}" after \p or \P (t->pos at '{') and writes the PCRE2 item ("\p{..}" or
 * "\P{..}") to item. Returns 0 on success. */
static int parse_property(translator *t, size_t start, int negated, char *item, size_t itemlen)
{
    if (peek(t) != '{') {
        fail(t, start, "\\%c must be followed by {name}", negated ? 'P' : 'p');
        return -1;
    }
    size_t open = ++t->pos;
    while (!at_end(t) && peek(t) != '}')
        t->pos++;
    if (at_end(t)) {
        fail(t, start, "unterminated Unicode property escape");
        return -1;
    }
    const unsigned char *body = t->src + open;
    size_t blen = t->pos - open;
    t->pos++; /* '}' */

    const unsigned char *eq = memchr(body, '=', blen);
    char pcre[160];
    if (eq) {
        size_t nlen = (size_t)(eq - body);
        const unsigned char *val = eq + 1;
        size_t vlen = blen - nlen - 1;
        const char *gc = NULL;
        if ((nlen == 16 && memcmp(body, "General_Category", 16) == 0) || (nlen == 2 && memcmp(body, "gc", 2) == 0)) {
            gc = lookup(GC_NAMES, COUNT(GC_NAMES), (const char *)val, vlen);
            if (!gc) {
                fail(t, start, "unknown General_Category value '%.*s'", (int)vlen, val);
                return -1;
            }
            snprintf(pcre, sizeof pcre, "%s", gc);
        } else {
            const char *kind;
            if ((nlen == 6 && memcmp(body, "Script", 6) == 0) || (nlen == 2 && memcmp(body, "sc", 2) == 0))
                kind = "sc";
            else if ((nlen == 17 && memcmp(body, "Script_Extensions", 17) == 0) ||
                     (nlen == 3 && memcmp(body, "scx", 3) == 0))
                kind = "scx";
            else {
                fail(t, start, "unknown Unicode property name '%.*s'", (int)nlen, body);
                return -1;
            }
            if (!is_script_value(val, vlen)) {
                fail(t, start, "unknown script '%.*s'", (int)vlen, val);
                return -1;
            }
            snprintf(pcre, sizeof pcre, "%s:%.*s", kind, (int)vlen, val);
            if (!pcre2_knows_property(pcre)) {
                fail(t, start, "unknown script '%.*s'", (int)vlen, val);
                return -1;
            }
        }
    } else {
        const char *gc = lookup(GC_NAMES, COUNT(GC_NAMES), (const char *)body, blen);
        const char *bin = gc ? NULL : lookup(BINARY_NAMES, COUNT(BINARY_NAMES), (const char *)body, blen);
        if (gc) {
            snprintf(pcre, sizeof pcre, "%s", gc);
        } else if (bin && strcmp(bin, "Assigned") == 0) {
            /* PCRE2 has no Assigned; it is exactly "not Unassigned". */
            snprintf(item, itemlen, "\\%c{Cn}", negated ? 'p' : 'P');
            return 0;
        } else if (bin) {
            if (!pcre2_knows_property(bin)) {
                unsupported(t, start, "Unicode property \\p{%.*s}", (int)blen, body);
                return -1;
            }
            snprintf(pcre, sizeof pcre, "%s", bin);
        } else {
            fail(t, start, "unknown Unicode property name '%.*s'", (int)blen, body);
            return -1;
        }
    }
    snprintf(item, itemlen, "\\%c{%s}", negated ? 'P' : 'p', pcre);
    return 0;
}

/* ---- escapes shared by atoms and classes ----------------------------------------------- */

/* Reads exactly four hex digits at t->pos; returns the value or -1 (pos unchanged). */
static long read_hex4(translator *t)
{
    long v = 0;
    for (size_t i = 0; i < 4; i++) {
        int h = sc_regex_hex_value(peek_at(t, i));
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    t->pos += 4;
    return v;
}

/* After "\u" (t->pos just past 'u'): \uXXXX, a \uHHHH\uLLLL surrogate pair or \u{...}.
 * Returns the code point (a lone surrogate is returned as is) or -1 after fail(). */
static long parse_unicode_escape(translator *t, size_t start)
{
    if (peek(t) == '{') {
        t->pos++;
        long v = 0;
        size_t digits = 0;
        int h;
        while ((h = sc_regex_hex_value(peek(t))) >= 0) {
            v = v * 16 + h;
            if (v > 0x10FFFF) {
                fail(t, start, "\\u{...} escape above U+10FFFF");
                return -1;
            }
            t->pos++;
            digits++;
        }
        if (digits == 0 || peek(t) != '}') {
            fail(t, start, "invalid \\u{...} escape");
            return -1;
        }
        t->pos++;
        return v;
    }
    long v = read_hex4(t);
    if (v < 0) {
        fail(t, start, "invalid \\u escape (needs four hex digits)");
        return -1;
    }
    /* A UTF-16 pair written as two escapes is one code point in unicode mode. */
    if (v >= 0xD800 && v <= 0xDBFF && peek(t) == '\\' && peek_at(t, 1) == 'u') {
        size_t save = t->pos;
        t->pos += 2;
        long lo = read_hex4(t);
        if (lo >= 0xDC00 && lo <= 0xDFFF)
            return 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
        t->pos = save;
    }
    return v;
}

/* Character escapes valid in both atoms and classes (ECMA CharacterEscape, u-mode).
 * t->pos is just past the letter c. Returns the code point, or -1 after fail(). */
static long parse_character_escape(translator *t, int c, size_t start)
{
    switch (c) {
    case 'f':
        return 0x0C;
    case 'n':
        return 0x0A;
    case 'r':
        return 0x0D;
    case 't':
        return 0x09;
    case 'v':
        return 0x0B;
    case 'c': {
        int l = peek(t);
        if ((l >= 'a' && l <= 'z') || (l >= 'A' && l <= 'Z')) {
            t->pos++;
            return l % 32;
        }
        fail(t, start, "invalid control escape \\c");
        return -1;
    }
    case '0':
        if (peek(t) >= '0' && peek(t) <= '9') {
            fail(t, start, "invalid octal escape \\0%c", peek(t));
            return -1;
        }
        return 0;
    case 'x': {
        int h1 = sc_regex_hex_value(peek(t)), h2 = sc_regex_hex_value(peek_at(t, 1));
        if (h1 < 0 || h2 < 0) {
            fail(t, start, "invalid \\x escape (needs two hex digits)");
            return -1;
        }
        t->pos += 2;
        return h1 * 16 + h2;
    }
    case 'u':
        return parse_unicode_escape(t, start);
    default:
        if (is_syntax_char(c))
            return c;
        if (c >= 0x20 && c < 0x7F)
            fail(t, start, "invalid escape '\\%c'", c);
        else
            fail(t, start, "invalid escape");
        return -1;
    }
}

/* ---- character classes ----------------------------------------------------------------- */

/* One ClassAtom: returns 1 with *cp set for a single character, 0 when it added a set (class
 * escape or property) to s, -1 on error. */
static int parse_class_atom(translator *t, cset *s, uint32_t *cp)
{
    size_t start = t->pos;
    int c = peek(t);
    if (c != '\\') {
        uint32_t v;
        size_t n = sc_fmt_utf8_decode(t->src + t->pos, t->len - t->pos, &v);
        if (n == 0) {
            fail(t, start, "invalid UTF-8");
            return -1;
        }
        t->pos += n;
        *cp = v;
        return 1;
    }
    t->pos++;
    if (at_end(t)) {
        fail(t, start, "pattern ends with a backslash");
        return -1;
    }
    c = t->src[t->pos++];
    switch (c) {
    case 'd':
    case 'D':
    case 'w':
    case 'W':
    case 's':
    case 'S':
        cset_add_class_escape(s, c);
        return 0;
    case 'p':
    case 'P': {
        char item[200];
        if (parse_property(t, start, c == 'P', item, sizeof item) != 0)
            return -1;
        cset_add_prop(s, item);
        return 0;
    }
    case 'b':
        *cp = 0x08;
        return 1;
    case '-':
        *cp = '-';
        return 1;
    default: {
        if (c >= '1' && c <= '9') {
            fail(t, start, "backreference \\%c inside a character class", c);
            return -1;
        }
        long v = parse_character_escape(t, c, start);
        if (v < 0)
            return -1;
        *cp = (uint32_t)v;
        return 1;
    }
    }
}

/* t->pos at '['. */
static void parse_class(translator *t)
{
    size_t start = t->pos++;
    int negated = 0;
    if (peek(t) == '^') {
        negated = 1;
        t->pos++;
    }
    cset s = {0};
    for (;;) {
        if (at_end(t)) {
            fail(t, start, "unterminated character class");
            break;
        }
        if (peek(t) == ']') {
            t->pos++;
            break;
        }
        size_t atom_start = t->pos;
        uint32_t lo, hi;
        int r = parse_class_atom(t, &s, &lo);
        if (r < 0)
            break;
        if (peek(t) == '-' && peek_at(t, 1) != ']' && peek_at(t, 1) != -1) {
            t->pos++;
            int r2 = parse_class_atom(t, &s, &hi);
            if (r2 < 0)
                break;
            if (r == 0 || r2 == 0) {
                fail(t, atom_start, "character class escape used as a range bound");
                break;
            }
            if (lo > hi) {
                fail(t, atom_start, "range out of order in character class");
                break;
            }
            cset_add(&s, lo, hi);
        } else if (r == 1) {
            cset_add(&s, lo, lo);
        }
    }
    if (!t->failed)
        emit_cset(t, &s, negated);
    cset_free(&s);
}

/* ---- atoms, terms, alternatives -------------------------------------------------------- */

static void emit_literal(translator *t, uint32_t cp)
{
    if (is_surrogate(cp)) {
        /* A lone surrogate can never occur in a UTF-8 subject. */
        emit(t, "(?:(?!))");
    } else if ((cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z')) {
        emitf(t, "%c", (char)cp);
    } else {
        emitf(t, "\\x{%X}", (unsigned)cp);
    }
}

static void emit_ranges(translator *t, const range *r, size_t n, int negated)
{
    cset s = {0};
    for (size_t i = 0; i < n; i++)
        cset_add(&s, r[i].lo, r[i].hi);
    emit_cset(t, &s, negated);
    cset_free(&s);
}

/* Parses a group name after "<" up to and including ">"; returns its length or 0. */
static size_t scan_group_name(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i] != '>') {
        unsigned char c = s[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80 ||
                 (i > 0 && c >= '0' && c <= '9') || c == '\\';
        if (!ok)
            return 0;
        i++;
    }
    if (i == 0 || i >= n)
        return 0;
    return i;
}

static long find_group(const translator *t, const unsigned char *name, size_t len)
{
    for (size_t i = 0; i < t->ngroups; i++)
        if (t->names[i].name && t->names[i].len == len && memcmp(t->names[i].name, name, len) == 0)
            return (long)i + 1;
    return -1;
}

static void parse_disjunction(translator *t, int depth);

/* Parses {n}, {n,}, {n,m} at t->pos ('{'); returns 1 and the bounds, or 0 if it is not a
 * quantifier (pos unchanged). max is UINT32_MAX for "no upper bound". */
static int parse_braces(translator *t, uint32_t *min, uint32_t *max)
{
    size_t p = t->pos + 1;
    uint64_t a = 0, b = 0;
    size_t da = 0, db = 0;
    while (p < t->len && t->src[p] >= '0' && t->src[p] <= '9') {
        if (a < 0xFFFFFFFFu)
            a = a * 10 + (t->src[p] - '0');
        p++;
        da++;
    }
    if (da == 0)
        return 0;
    int has_comma = 0;
    if (p < t->len && t->src[p] == ',') {
        has_comma = 1;
        p++;
        while (p < t->len && t->src[p] >= '0' && t->src[p] <= '9') {
            if (b < 0xFFFFFFFFu)
                b = b * 10 + (t->src[p] - '0');
            p++;
            db++;
        }
    }
    if (p >= t->len || t->src[p] != '}')
        return 0;
    t->pos = p + 1;
    if (a > 0xFFFFFFFEu)
        a = 0xFFFFFFFEu;
    if (b > 0xFFFFFFFEu)
        b = 0xFFFFFFFEu;
    *min = (uint32_t)a;
    *max = !has_comma ? (uint32_t)a : db == 0 ? UINT32_MAX : (uint32_t)b;
    return 1;
}

static void parse_quantifier(translator *t)
{
    size_t start = t->pos;
    int c = peek(t);
    if (c == '*' || c == '+' || c == '?') {
        t->pos++;
        emitf(t, "%c", c);
    } else if (c == '{') {
        uint32_t min, max;
        if (!parse_braces(t, &min, &max)) {
            fail(t, start, "incomplete quantifier '{'");
            return;
        }
        if (max != UINT32_MAX && min > max) {
            fail(t, start, "numbers out of order in {} quantifier");
            return;
        }
        if (min > PCRE2_MAX_QUANT || (max != UINT32_MAX && max > PCRE2_MAX_QUANT)) {
            unsupported(t, start, "quantifier bound above %u", PCRE2_MAX_QUANT);
            return;
        }
        if (max == UINT32_MAX)
            emitf(t, "{%u,}", (unsigned)min);
        else if (min == max)
            emitf(t, "{%u}", (unsigned)min);
        else
            emitf(t, "{%u,%u}", (unsigned)min, (unsigned)max);
    } else {
        return;
    }
    if (peek(t) == '?') {
        t->pos++;
        emit(t, "?");
    }
}

static int starts_quantifier(const translator *t)
{
    int c = peek(t);
    return c == '*' || c == '+' || c == '?' || c == '{';
}

/* ASCII word boundary, built from explicit classes so no table or UCP setting matters. */
#define WORD_CLASS   "[0-9A-Z_a-z]"
#define BOUNDARY     "(?:(?<=" WORD_CLASS ")(?!" WORD_CLASS ")|(?<!" WORD_CLASS ")(?=" WORD_CLASS "))"
#define NON_BOUNDARY "(?:(?<=" WORD_CLASS ")(?=" WORD_CLASS ")|(?<!" WORD_CLASS ")(?!" WORD_CLASS "))"

/* Parses one Term. Returns 0 to continue, 1 at the end of the alternative. */
static int parse_term(translator *t, int depth)
{
    size_t start = t->pos;
    mark(t, start);
    int c = peek(t);
    int quantifiable = 1;
    switch (c) {
    case -1:
    case '|':
    case ')':
        return 1;
    case '^':
        t->pos++;
        emit(t, "^");
        quantifiable = 0;
        break;
    case '$':
        t->pos++;
        emit(t, "$"); /* compiled with PCRE2_DOLLAR_ENDONLY */
        quantifiable = 0;
        break;
    case '.':
        t->pos++;
        emit_ranges(t, LINE_TERM_RANGES, COUNT(LINE_TERM_RANGES), 1);
        break;
    case '[':
        parse_class(t);
        break;
    case '*':
    case '+':
    case '?':
        fail(t, start, "nothing to repeat before '%c'", c);
        return 1;
    case '{':
        fail(t, start, "nothing to repeat before '{' (or a lone '{')");
        return 1;
    case '}':
    case ']':
        fail(t, start, "lone '%c'", c);
        return 1;
    case '(': {
        if (depth >= MAX_NESTING) {
            fail(t, start, "groups nested too deeply");
            return 1;
        }
        t->pos++;
        if (peek(t) == '?') {
            int k = peek_at(t, 1);
            if (k == ':' || k == '=' || k == '!') {
                t->pos += 2;
                emitf(t, "(?%c", k);
                quantifiable = (k == ':');
            } else if (k == '<' && (peek_at(t, 2) == '=' || peek_at(t, 2) == '!')) {
                emitf(t, "(?<%c", peek_at(t, 2));
                t->pos += 3;
                quantifiable = 0;
            } else if (k == '<') {
                t->pos += 2;
                size_t n = scan_group_name(t->src + t->pos, t->len - t->pos);
                if (n == 0) {
                    fail(t, start, "invalid group name");
                    return 1;
                }
                t->pos += n + 1;
                /* Names are resolved to numbers here, so PCRE2's name rules never apply. */
                emit(t, "(");
            } else {
                if (k == 'P')
                    fail(t, start, "Python-style group '(?P' is not ECMA-262");
                else if (k == '#')
                    fail(t, start, "comment group '(?#' is not ECMA-262");
                else
                    fail(t, start, "invalid group '(?%c'", k > 0x20 && k < 0x7F ? k : '?');
                return 1;
            }
        } else {
            emit(t, "(");
        }
        parse_disjunction(t, depth + 1);
        if (t->failed)
            return 1;
        if (peek(t) != ')') {
            fail(t, start, "unterminated group");
            return 1;
        }
        t->pos++;
        emit(t, ")");
        break;
    }
    case '\\': {
        t->pos++;
        if (at_end(t)) {
            fail(t, start, "pattern ends with a backslash");
            return 1;
        }
        int e = t->src[t->pos++];
        if (e == 'b' || e == 'B') {
            emit(t, e == 'b' ? BOUNDARY : NON_BOUNDARY);
            quantifiable = 0;
        } else if (e == 'd' || e == 'D' || e == 'w' || e == 'W' || e == 's' || e == 'S') {
            cset s = {0};
            cset_add_class_escape(&s, e);
            emit_cset(t, &s, 0);
            cset_free(&s);
        } else if (e == 'p' || e == 'P') {
            char item[200];
            if (parse_property(t, start, e == 'P', item, sizeof item) != 0)
                return 1;
            emit(t, item);
        } else if (e == 'k') {
            if (peek(t) != '<') {
                fail(t, start, "\\k must be followed by <name>");
                return 1;
            }
            t->pos++;
            size_t n = scan_group_name(t->src + t->pos, t->len - t->pos);
            long g = n ? find_group(t, t->src + t->pos, n) : -1;
            if (g < 0) {
                fail(t, start, "\\k<%.*s> names no group", (int)(n ? n : 0), t->src + t->pos);
                return 1;
            }
            t->pos += n + 1;
            emitf(t, "\\g{%ld}", g);
        } else if (e >= '1' && e <= '9') {
            unsigned long g = (unsigned long)(e - '0');
            while (peek(t) >= '0' && peek(t) <= '9') {
                if (g < 100000)
                    g = g * 10 + (unsigned long)(t->src[t->pos] - '0');
                t->pos++;
            }
            if (g > t->ngroups) {
                fail(t, start, "backreference \\%lu to a group that does not exist", g);
                return 1;
            }
            emitf(t, "\\g{%lu}", g);
        } else {
            long v = parse_character_escape(t, e, start);
            if (v < 0)
                return 1;
            emit_literal(t, (uint32_t)v);
        }
        break;
    }
    default: {
        uint32_t v;
        size_t n = sc_fmt_utf8_decode(t->src + t->pos, t->len - t->pos, &v);
        if (n == 0) {
            fail(t, start, "invalid UTF-8");
            return 1;
        }
        t->pos += n;
        emit_literal(t, v);
        break;
    }
    }
    if (t->failed)
        return 1;
    if (starts_quantifier(t)) {
        if (!quantifiable) {
            fail(t, t->pos, "quantifier after an assertion");
            return 1;
        }
        parse_quantifier(t);
        if (!t->failed && starts_quantifier(t)) {
            fail(t, t->pos, "nothing to repeat (quantifier after a quantifier)");
            return 1;
        }
    }
    return t->failed;
}

static void parse_disjunction(translator *t, int depth)
{
    for (;;) {
        while (!parse_term(t, depth))
            ;
        if (t->failed || peek(t) != '|')
            return;
        t->pos++;
        emit(t, "|");
    }
}

/* Pre-pass: counts capture groups and records their names, so that forward references
 * (\2 before group 2, \k<n> before (?<n>...)) resolve as in ECMA. */
static void collect_groups(translator *t)
{
    size_t cap = 0;
    int in_class = 0;
    for (size_t i = 0; i < t->len && !t->oom; i++) {
        unsigned char c = t->src[i];
        if (c == '\\') {
            i++;
            continue;
        }
        if (in_class) {
            if (c == ']')
                in_class = 0;
            continue;
        }
        if (c == '[') {
            in_class = 1;
            continue;
        }
        if (c != '(')
            continue;
        const unsigned char *name = NULL;
        size_t nlen = 0;
        if (i + 1 < t->len && t->src[i + 1] == '?') {
            if (!(i + 2 < t->len && t->src[i + 2] == '<'))
                continue;
            if (i + 3 < t->len && (t->src[i + 3] == '=' || t->src[i + 3] == '!'))
                continue;
            name = t->src + i + 3;
            nlen = scan_group_name(name, t->len - (i + 3));
            if (nlen == 0)
                continue; /* the main pass reports it */
            if (find_group(t, name, nlen) > 0) {
                fail(t, i, "duplicate group name '%.*s'", (int)nlen, name);
                return;
            }
        }
        if (t->ngroups == cap) {
            cap = cap ? cap * 2 : 8;
            group_name *p = realloc(t->names, cap * sizeof *p);
            if (!p) {
                t->oom = 1;
                return;
            }
            t->names = p;
        }
        t->names[t->ngroups].name = (const char *)name;
        t->names[t->ngroups].len = nlen;
        t->ngroups++;
    }
}

static void translator_free(translator *t)
{
    free(t->out);
    free(t->map);
    free(t->names);
}

/* Runs the translator. Returns 0 when t->out holds the PCRE2 pattern. */
static int translate(translator *t, const char *pattern, size_t length)
{
    memset(t, 0, sizeof *t);
    t->src = (const unsigned char *)pattern;
    t->len = length;
    collect_groups(t);
    if (!t->failed && !t->oom) {
        emit(t, ""); /* make t->out non-NULL even for an empty pattern */
        parse_disjunction(t, 0);
        if (!t->failed && !at_end(t))
            fail(t, t->pos, "unmatched ')'");
    }
    if (t->oom && !t->failed) {
        t->failed = 1;
        snprintf(t->msg, sizeof t->msg, "out of memory");
    }
    return t->failed ? -1 : 0;
}

static void set_err(char *errbuf, size_t errlen, const char *fmt, ...)
{
    if (!errbuf || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(errbuf, errlen, fmt, ap);
    va_end(ap);
}

#define COMPILE_OPTIONS (PCRE2_UTF | PCRE2_DOLLAR_ENDONLY | PCRE2_MATCH_UNSET_BACKREF)

/* PCRE2 compile errors that reject valid ECMA (PCRE2 limits, not syntax errors). */
static int is_pcre2_limitation(int code)
{
    return code == PCRE2_ERROR_LOOKBEHIND_NOT_FIXED_LENGTH || code == PCRE2_ERROR_QUANTIFIER_TOO_BIG
#ifdef PCRE2_ERROR_LOOKBEHIND_TOO_LONG
           || code == PCRE2_ERROR_LOOKBEHIND_TOO_LONG
#endif
           || code == PCRE2_ERROR_PATTERN_TOO_LARGE || code == PCRE2_ERROR_PATTERN_TOO_COMPLICATED;
}

/* ---- public API ------------------------------------------------------------------------ */

sc_regex *sc_regex_compile(const char *pattern, size_t length, uint32_t match_limit, char *errbuf, size_t errlen)
{
    if (errbuf && errlen)
        errbuf[0] = '\0';
    if (!pattern && length) {
        set_err(errbuf, errlen, "no pattern");
        return NULL;
    }
    translator t;
    if (translate(&t, pattern ? pattern : "", length) != 0) {
        set_err(errbuf, errlen, "invalid regex: %s", t.msg);
        translator_free(&t);
        return NULL;
    }
    int code;
    PCRE2_SIZE off;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)t.out, t.out_len, COMPILE_OPTIONS, &code, &off, NULL);
    if (!re) {
        char msg[160];
        pcre2_get_error_message(code, (PCRE2_UCHAR *)msg, sizeof msg);
        size_t at = src_offset_of(&t, off);
        if (code == PCRE2_ERROR_LOOKBEHIND_NOT_FIXED_LENGTH)
            set_err(errbuf, errlen,
                    "unsupported regex: variable-length lookbehind at offset %zu (PCRE2 needs a fixed length per "
                    "alternative)",
                    at);
        else
            set_err(errbuf, errlen, "%s regex: %s near offset %zu",
                    is_pcre2_limitation(code) ? "unsupported" : "invalid", msg, at);
        translator_free(&t);
        return NULL;
    }
    translator_free(&t);
    /* A pattern of the simple shape is searched without PCRE2 (its compile above still decided
     * that the pattern is valid), so it needs no JIT code. NULL also when memory ran out. */
    sc_simple_regex *simple = sc_simple_regex_compile(pattern, length);
#ifndef SC_REGEX_NO_JIT
    /* JIT is an optimisation: when unavailable the interpreter runs the same code. Builds
     * for platforms that forbid it (iOS; the vendored PCRE2) define SC_REGEX_NO_JIT. The
     * match, depth and heap limits below bound the interpreter and the JIT alike. */
    if (!simple)
        (void)pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
#endif

    sc_regex *r = calloc(1, sizeof *r);
    pcre2_match_context *mctx = pcre2_match_context_create(NULL);
    if (!r || !mctx) {
        free(r);
        pcre2_match_context_free(mctx);
        pcre2_code_free(re);
        sc_simple_regex_free(simple);
        set_err(errbuf, errlen, "out of memory");
        return NULL;
    }
    uint32_t limit = match_limit ? match_limit : SC_REGEX_DEFAULT_MATCH_LIMIT;
    pcre2_set_match_limit(mctx, limit);
    pcre2_set_depth_limit(mctx, limit);
    pcre2_set_heap_limit(mctx, HEAP_LIMIT_KIB);
    r->code = re;
    r->mctx = mctx;
    r->simple = simple;
    return r;
}

int sc_regex_uses_fast_path(const sc_regex *re)
{
    return re && re->simple;
}

void sc_regex_free(sc_regex *re)
{
    if (!re)
        return;
    pcre2_match_context_free(re->mctx);
    pcre2_code_free(re->code);
    sc_simple_regex_free(re->simple);
    free(re);
}

sc_regex_match_data *sc_regex_match_data_new(void)
{
    sc_regex_match_data *md = malloc(sizeof *md);
    if (!md)
        return NULL;
    /* One pair is enough: only "did it match" is asked, and PCRE2 keeps group state
     * internally; the block still caches the interpreter's heap frames between calls. */
    md->md = pcre2_match_data_create(1, NULL);
    if (!md->md) {
        free(md);
        return NULL;
    }
    return md;
}

void sc_regex_match_data_free(sc_regex_match_data *md)
{
    if (!md)
        return;
    pcre2_match_data_free(md->md);
    free(md);
}

static int map_match_result(int rc)
{
    if (rc >= 0)
        return SC_REGEX_MATCH; /* 0 = matched but ovector too small: still a match */
    if (rc == PCRE2_ERROR_NOMATCH)
        return SC_REGEX_NOMATCH;
    if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT || rc == PCRE2_ERROR_HEAPLIMIT ||
        rc == PCRE2_ERROR_JIT_STACKLIMIT)
        return SC_REGEX_LIMIT;
    return SC_REGEX_ERROR;
}

int sc_regex_search_ex(const sc_regex *re, sc_regex_match_data *md, const char *subject, size_t length)
{
    if (!re || (!subject && length))
        return SC_REGEX_ERROR;
    if (re->simple)
        return sc_simple_regex_search(re->simple, subject, length);
    pcre2_match_data *data = md ? md->md : pcre2_match_data_create(1, NULL);
    if (!data)
        return SC_REGEX_ERROR;
    PCRE2_SPTR s = (PCRE2_SPTR)(subject ? subject : "");
    int rc = pcre2_match(re->code, s, length, 0, 0, data, re->mctx);
    if (rc == PCRE2_ERROR_JIT_STACKLIMIT) {
        /* The JIT's 32 KiB machine stack is small; the interpreter uses the heap, bounded
         * by the heap, depth and match limits of the match context. */
        rc = pcre2_match(re->code, s, length, 0, PCRE2_NO_JIT, data, re->mctx);
    }
    if (!md)
        pcre2_match_data_free(data);
    return map_match_result(rc);
}

int sc_regex_search(const sc_regex *re, const char *subject, size_t length)
{
    int rc = sc_regex_search_ex(re, NULL, subject, length);
    return rc == SC_REGEX_ERROR ? -1 : rc;
}

int sc_regex_is_valid(const char *pattern, size_t length)
{
    if (!pattern && length)
        return 0;
    translator t;
    int ok;
    if (translate(&t, pattern ? pattern : "", length) != 0) {
        ok = t.unsupported; /* valid ECMA that PCRE2 cannot run */
    } else {
        int code;
        PCRE2_SIZE off;
        pcre2_code *re = pcre2_compile((PCRE2_SPTR)t.out, t.out_len, COMPILE_OPTIONS, &code, &off, NULL);
        ok = re != NULL || is_pcre2_limitation(code);
        pcre2_code_free(re);
    }
    translator_free(&t);
    return ok;
}
