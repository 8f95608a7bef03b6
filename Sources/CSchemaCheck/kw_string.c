/*
 * kw_string.c: maxLength, minLength (counted in Unicode code points), pattern.
 */
#include "sc_internal.h"

#include <string.h>

static int validate_length(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    if (!json_is_string(instance))
        return 1;
    size_t bytes = json_string_length(instance);
    /* quick accept: code points <= bytes <= 4 * code points */
    if (kw->flag && bytes <= kw->n)
        return 1;
    size_t length = sc_utf8_length(json_string_value(instance), bytes);
    int ok = kw->flag ? length <= kw->n : length >= kw->n;
    if (ok)
        return 1;
    if (v->full) {
        sc_buf a;
        sc_buf_init(&a);
        sc_buf_quote(&a, instance);
        sc_report(v, kw, "%s is %s than %zu character%s", sc_buf_cstr(&a), kw->flag ? "longer" : "shorter", kw->n,
                  kw->n == 1 ? "" : "s");
        sc_buf_free(&a);
    }
    return 0;
}

int sc_kw_length(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    (void)cn;
    if (sc_compile_count(c, kw, value, &kw->n) < 0)
        return -1;
    kw->flag = strcmp(kw->name, "maxLength") == 0;
    kw->validate = validate_length;
    return 0;
}

static int validate_pattern(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    if (!json_is_string(instance))
        return 1;
    int r = sc_regex_search(kw->re, json_string_value(instance), json_string_length(instance));
    if (r == 1)
        return 1;
    if (r < 0) {
        v->incomplete = "a regular expression hit its match limit";
        if (v->full)
            sc_report(v, kw, "the pattern %s could not be checked: match limit reached", kw->str.s);
        return -1;
    }
    if (v->full) {
        sc_buf a;
        sc_buf_init(&a);
        sc_buf_quote(&a, instance);
        sc_report(v, kw, "%s does not match %s", sc_buf_cstr(&a), kw->str.s);
        sc_buf_free(&a);
    }
    return 0;
}

int sc_kw_pattern(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    (void)cn;
    if (!json_is_string(value))
        return sc_compile_fail(c, kw, "\"pattern\" must be a string");
    kw->str.len = json_string_length(value);
    kw->str.s = sc_strndup(json_string_value(value), kw->str.len);
    if (!kw->str.s)
        return sc_compile_fail(c, kw, "out of memory");
    kw->re = sc_compile_regex(c, kw, kw->str.s, kw->str.len);
    if (!kw->re)
        return -1;
    kw->validate = validate_pattern;
    return 0;
}
