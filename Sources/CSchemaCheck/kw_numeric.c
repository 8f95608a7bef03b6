/*
 * kw_numeric.c: multipleOf, maximum, exclusiveMaximum, minimum, exclusiveMinimum (numbers,
 * or draft-04's booleans that make maximum and minimum exclusive). Integers compare exactly;
 * 1.0 is the integer 1.
 */
#include "sc_compile.h"
#include "sc_kw_families.h"
#include "sc_validate.h"

static void quote_num(sc_buf *b, const sc_num *n)
{
    if (n->is_int)
        sc_buf_printf(b, "%" JSON_INTEGER_FORMAT, n->i);
    else
        sc_buf_printf(b, "%.17g", n->d);
}

int sc_validate_multiple_of(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    sc_num value;
    if (sc_num_get(instance, &value) < 0)
        return 1;
    const sc_num *divisor = &kw->as.multiple.divisor;
    if (sc_num_multiple_of(&value, divisor))
        return 1;
    if (v->full) {
        sc_buf a, b;
        sc_buf_init(&a);
        sc_buf_init(&b);
        sc_buf_quote(&a, instance);
        quote_num(&b, divisor);
        sc_report(v, kw, "%s is not a multiple of %s", sc_buf_cstr(&a), sc_buf_cstr(&b));
        sc_buf_free(&a);
        sc_buf_free(&b);
    }
    return 0;
}

int sc_compile_multiple_of(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    (void)cn;
    sc_num *divisor = &kw->as.multiple.divisor;
    if (sc_num_get(value, divisor) < 0 || divisor->d <= 0)
        return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"multipleOf\" must be a number greater than 0");
    return SC_COMPILE_KEEP;
}

int sc_validate_bound(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    sc_num value;
    if (sc_num_get(instance, &value) < 0)
        return 1;
    const sc_bound_kw *bound = &kw->as.bound;
    int cmp = sc_num_cmp(&value, &bound->limit);
    int ok;
    const char *relation;
    switch (bound->kind) {
    case SC_BOUND_MAXIMUM:
        ok = cmp <= 0;
        relation = "greater than the maximum";
        break;
    case SC_BOUND_EXCLUSIVE_MAXIMUM:
        ok = cmp < 0;
        relation = "not less than the exclusive maximum";
        break;
    case SC_BOUND_MINIMUM:
        ok = cmp >= 0;
        relation = "less than the minimum";
        break;
    default:
        ok = cmp > 0;
        relation = "not greater than the exclusive minimum";
        break;
    }
    if (ok)
        return 1;
    if (v->full) {
        sc_buf a, b;
        sc_buf_init(&a);
        sc_buf_init(&b);
        sc_buf_quote(&a, instance);
        quote_num(&b, &bound->limit);
        sc_report(v, kw, "%s is %s %s", sc_buf_cstr(&a), relation, sc_buf_cstr(&b));
        sc_buf_free(&a);
        sc_buf_free(&b);
    }
    return 0;
}

int sc_compile_bound(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    if (sc_num_get(value, &kw->as.bound.limit) < 0)
        return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"%s\" must be a number", kw->def->name);
    sc_bound_kind kind = (sc_bound_kind)kw->def->variant;
    if (cn->draft == SC_DRAFT_4) {
        /* draft-04: "exclusiveMaximum": true beside "maximum" makes it exclusive */
        if (kind == SC_BOUND_MAXIMUM && json_is_true(json_object_get(cn->json, "exclusiveMaximum")))
            kind = SC_BOUND_EXCLUSIVE_MAXIMUM;
        if (kind == SC_BOUND_MINIMUM && json_is_true(json_object_get(cn->json, "exclusiveMinimum")))
            kind = SC_BOUND_EXCLUSIVE_MINIMUM;
    }
    kw->as.bound.kind = kind;
    return SC_COMPILE_KEEP;
}

/* draft-04's exclusiveMaximum and exclusiveMinimum: a boolean that maximum and minimum read. */
int sc_compile_exclusive_flag(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    (void)cn;
    if (!json_is_boolean(value))
        return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"%s\" must be a boolean in draft-04", kw->def->name);
    return SC_COMPILE_DROP;
}
