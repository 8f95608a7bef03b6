/*
 * kw_format.c: "format" glue. An annotation by default; an assertion when the options
 * ask for it or the meta-schema enables the format-assertion vocabulary. Unknown format
 * names are ignored, and only strings are checked; "hostname" is RFC 1123 alone before
 * draft-07.
 */
#include "sc_compile.h"
#include "sc_kw_families.h"
#include "sc_validate.h"

int sc_validate_format(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    if (!json_is_string(instance))
        return 1;
    const char *format = kw->as.format.name.s;
    if (kw->as.format.check(json_string_value(instance), json_string_length(instance)))
        return 1;
    if (v->full) {
        sc_buf a;
        sc_buf_init(&a);
        sc_buf_quote(&a, instance);
        sc_report(v, kw, "%s is not a valid %s", sc_buf_cstr(&a), format);
        sc_buf_free(&a);
    }
    return 0;
}

int sc_compile_format(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    if (!json_is_string(value))
        return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"format\" must be a string");
    int assert = c->opts->assert_format || (cn->draft == SC_DRAFT_2020 && (cn->vocab & SC_VOC_FORMAT_ASSERTION));
    if (!assert)
        return SC_COMPILE_DROP; /* annotation only: nothing to check */
    sc_str *name = &kw->as.format.name;
    name->len = json_string_length(value);
    name->s = sc_strndup(json_string_value(value), name->len);
    if (!name->s)
        return sc_compile_fail(c, kw, SC_ERROR_OUT_OF_MEMORY, "out of memory");
    kw->as.format.check = sc_format_lookup(name->s, cn->draft <= SC_DRAFT_6);
    return kw->as.format.check ? SC_COMPILE_KEEP : SC_COMPILE_DROP; /* unknown names are ignored */
}
