/*
 * kw_format.c: "format" glue. An annotation by default; an assertion when the options
 * ask for it or the meta-schema enables the format-assertion vocabulary. Unknown format
 * names are ignored, and only strings are checked.
 */
#include "sc_internal.h"

static int validate_format(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    if (!json_is_string(instance))
        return 1;
    int r = sc_format_check(kw->str.s, json_string_value(instance), json_string_length(instance));
    if (r != 0)
        return 1;
    if (v->full) {
        sc_buf a;
        sc_buf_init(&a);
        sc_buf_quote(&a, instance);
        sc_report(v, kw, "%s is not a valid %s", sc_buf_cstr(&a), kw->str.s);
        sc_buf_free(&a);
    }
    return 0;
}

int sc_kw_format(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    if (!json_is_string(value))
        return sc_compile_fail(c, kw, "\"format\" must be a string");
    int assert = c->opts->assert_format || (!cn->draft7 && (cn->vocab & SC_VOC_FORMAT_ASSERTION));
    if (!assert)
        return 0; /* annotation only: nothing to check */
    kw->str.len = json_string_length(value);
    kw->str.s = sc_strndup(json_string_value(value), kw->str.len);
    if (!kw->str.s)
        return sc_compile_fail(c, kw, "out of memory");
    kw->validate = validate_format;
    return 0;
}
