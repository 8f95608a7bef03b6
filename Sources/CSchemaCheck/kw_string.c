/*
 * kw_string.c: maxLength, minLength (counted in Unicode code points), pattern.
 */
#include "sc_compile.h"
#include "sc_kw_families.h"
#include "sc_validate.h"

int sc_validate_length(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    if (!json_is_string(instance))
        return 1;
    const sc_count_kw *bound = &kw->as.count;
    int at_most = bound->side == SC_AT_MOST;
    size_t bytes = json_string_length(instance);
    /* quick accept: code points <= bytes <= 4 * code points */
    if (at_most && bytes <= bound->limit)
        return 1;
    size_t length = sc_utf8_length(json_string_value(instance), bytes);
    int ok = at_most ? length <= bound->limit : length >= bound->limit;
    if (ok)
        return 1;
    if (v->full) {
        sc_buf a;
        sc_buf_init(&a);
        sc_buf_quote(&a, instance);
        sc_report(v, kw, "%s is %s than %zu character%s", sc_buf_cstr(&a), at_most ? "longer" : "shorter", bound->limit,
                  bound->limit == 1 ? "" : "s");
        sc_buf_free(&a);
    }
    return 0;
}

int sc_compile_length(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    (void)cn;
    if (sc_compile_count(c, kw, value, &kw->as.count.limit) < 0)
        return SC_COMPILE_FAILED;
    kw->as.count.side = (sc_count_side)kw->def->variant;
    return SC_COMPILE_KEEP;
}

int sc_validate_pattern(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    if (!json_is_string(instance))
        return 1;
    const sc_pattern_kw *pattern = &kw->as.pattern;
    int r = sc_regex_search(pattern->re, json_string_value(instance), json_string_length(instance));
    if (r == 1)
        return 1;
    if (r < 0) {
        v->incomplete = "a regular expression hit its match limit";
        if (v->full)
            sc_report(v, kw, "the pattern %s could not be checked: match limit reached", pattern->source.s);
        return -1;
    }
    if (v->full) {
        sc_buf a;
        sc_buf_init(&a);
        sc_buf_quote(&a, instance);
        sc_report(v, kw, "%s does not match %s", sc_buf_cstr(&a), pattern->source.s);
        sc_buf_free(&a);
    }
    return 0;
}

int sc_compile_pattern(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    (void)cn;
    if (!json_is_string(value))
        return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"pattern\" must be a string");
    sc_pattern_kw *pattern = &kw->as.pattern;
    pattern->source.len = json_string_length(value);
    pattern->source.s = sc_strndup(json_string_value(value), pattern->source.len);
    if (!pattern->source.s)
        return sc_compile_fail(c, kw, SC_ERROR_OUT_OF_MEMORY, "out of memory");
    pattern->re = sc_compile_regex(c, kw, pattern->source.s, pattern->source.len);
    return pattern->re ? SC_COMPILE_KEEP : SC_COMPILE_FAILED;
}
