/*
 * kw_numeric.c: multipleOf, maximum, exclusiveMaximum, minimum, exclusiveMinimum.
 * Integers compare exactly; 1.0 is the integer 1.
 */
#include "sc_internal.h"

#include <string.h>

static void quote_num(sc_buf *b, const sc_num *n)
{
    if (n->is_int)
        sc_buf_printf(b, "%" JSON_INTEGER_FORMAT, n->i);
    else
        sc_buf_printf(b, "%.17g", n->d);
}

static int validate_multiple_of(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    sc_num value;
    if (sc_num_get(instance, &value) < 0)
        return 1;
    if (sc_num_multiple_of(&value, &kw->num))
        return 1;
    if (v->full) {
        sc_buf a, b;
        sc_buf_init(&a);
        sc_buf_init(&b);
        sc_buf_quote(&a, instance);
        quote_num(&b, &kw->num);
        sc_report(v, kw, "%s is not a multiple of %s", sc_buf_cstr(&a), sc_buf_cstr(&b));
        sc_buf_free(&a);
        sc_buf_free(&b);
    }
    return 0;
}

int sc_kw_multiple_of(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    (void)cn;
    if (sc_num_get(value, &kw->num) < 0 || kw->num.d <= 0)
        return sc_compile_fail(c, kw, "\"multipleOf\" must be a number greater than 0");
    kw->validate = validate_multiple_of;
    return 0;
}

/* flag: which bound; flag2: draft-04 style boolean exclusives are not supported */
enum { B_MAX, B_XMAX, B_MIN, B_XMIN };

static int validate_bound(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    sc_num value;
    if (sc_num_get(instance, &value) < 0)
        return 1;
    int cmp = sc_num_cmp(&value, &kw->num);
    int ok;
    const char *relation;
    switch (kw->flag) {
    case B_MAX:
        ok = cmp <= 0;
        relation = "greater than the maximum";
        break;
    case B_XMAX:
        ok = cmp < 0;
        relation = "not less than the exclusive maximum";
        break;
    case B_MIN:
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
        quote_num(&b, &kw->num);
        sc_report(v, kw, "%s is %s %s", sc_buf_cstr(&a), relation, sc_buf_cstr(&b));
        sc_buf_free(&a);
        sc_buf_free(&b);
    }
    return 0;
}

int sc_kw_bound(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    (void)cn;
    if (sc_num_get(value, &kw->num) < 0)
        return sc_compile_fail(c, kw, "\"%s\" must be a number", kw->name);
    if (strcmp(kw->name, "maximum") == 0)
        kw->flag = B_MAX;
    else if (strcmp(kw->name, "exclusiveMaximum") == 0)
        kw->flag = B_XMAX;
    else if (strcmp(kw->name, "minimum") == 0)
        kw->flag = B_MIN;
    else
        kw->flag = B_XMIN;
    kw->validate = validate_bound;
    return 0;
}
