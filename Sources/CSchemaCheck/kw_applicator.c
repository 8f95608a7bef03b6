/*
 * kw_applicator.c: allOf, anyOf, oneOf, not, if/then/else.
 *
 * Branch errors of anyOf/oneOf are kept when the applicator fails (after its own unit);
 * errors of branches that do not decide the outcome (a passing anyOf, "not", "if",
 * "contains") are dropped. Annotations of a branch count only when the branch passes.
 */
#include "sc_internal.h"

#include <stdlib.h>
#include <string.h>

static int validate_all_of(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    int result = 1;
    for (size_t i = 0; i < kw->nsubs; i++) {
        int r = sc_validate_child(v, kw, NULL, 0, i, kw->subs[i], instance, NULL, 0, (size_t)-1, ann);
        if (r < 0)
            return -1;
        if (r == 0) {
            result = 0;
            if (!v->full)
                return 0;
        }
    }
    return result;
}

int sc_kw_all_of(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    if (sc_compile_schema_array(c, cn, kw, value) < 0)
        return -1;
    kw->validate = validate_all_of;
    kw->in_place = 1;
    return 0;
}

/* Runs one branch with its own annotations; merges them into ann when it passes. */
static int run_branch(sc_vctx *v, const sc_kw *kw, size_t index, const json_t *instance, sc_ann *ann)
{
    if (!ann)
        return sc_validate_child(v, kw, NULL, 0, index, kw->subs[index], instance, NULL, 0, (size_t)-1, NULL);
    sc_ann local;
    sc_ann_init(&local);
    int r = sc_validate_child(v, kw, NULL, 0, index, kw->subs[index], instance, NULL, 0, (size_t)-1, &local);
    if (r == 1)
        sc_ann_merge(ann, &local);
    sc_ann_free(&local);
    return r;
}

static int validate_any_of(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    size_t mark = sc_units_mark(v);
    int passed = 0;
    for (size_t i = 0; i < kw->nsubs; i++) {
        int r = run_branch(v, kw, i, instance, ann);
        if (r < 0)
            return -1;
        if (r == 1) {
            passed = 1;
            if (!ann)
                break;
        }
    }
    if (passed) {
        sc_units_rewind(v, mark);
        return 1;
    }
    sc_report(v, kw, "the value matches none of the %zu \"anyOf\" schemas", kw->nsubs);
    return 0;
}

int sc_kw_any_of(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    if (sc_compile_schema_array(c, cn, kw, value) < 0)
        return -1;
    kw->validate = validate_any_of;
    kw->in_place = 1;
    return 0;
}

static int validate_one_of(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    size_t mark = sc_units_mark(v);
    size_t passed = 0, first = 0, second = 0;
    for (size_t i = 0; i < kw->nsubs; i++) {
        int r = run_branch(v, kw, i, instance, ann);
        if (r < 0)
            return -1;
        if (r == 1) {
            if (passed == 0)
                first = i;
            else if (passed == 1)
                second = i;
            passed++;
            if (passed > 1 && !v->full)
                return 0;
        }
    }
    if (passed == 1) {
        sc_units_rewind(v, mark);
        return 1;
    }
    if (passed == 0) {
        sc_report(v, kw, "the value matches none of the %zu \"oneOf\" schemas", kw->nsubs);
    } else {
        sc_units_rewind(v, mark);
        sc_report(v, kw, "the value matches more than one \"oneOf\" schema (%zu and %zu)", first, second);
    }
    return 0;
}

int sc_kw_one_of(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    if (sc_compile_schema_array(c, cn, kw, value) < 0)
        return -1;
    kw->validate = validate_one_of;
    kw->in_place = 1;
    return 0;
}

static int validate_not(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    size_t mark = sc_units_mark(v);
    int r = sc_validate_child(v, kw, NULL, 0, (size_t)-1, kw->a, instance, NULL, 0, (size_t)-1, NULL);
    sc_units_rewind(v, mark);
    if (r < 0)
        return -1;
    if (r == 0)
        return 1;
    sc_report(v, kw, "the value must not match the \"not\" schema");
    return 0;
}

int sc_kw_not(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    if (!sc_is_schema(value))
        return sc_compile_fail(c, kw, "\"not\" must be a schema");
    kw->a = sc_compile_sub(c, cn, value, "/not");
    if (!kw->a)
        return -1;
    kw->validate = validate_not;
    kw->in_place = 1;
    return 0;
}

/* if: kw->a "if", kw->b "then", kw->c "else"; names[0]/names[1] hold the absolute
 * locations of "then" and "else" for their error units. */
static int validate_if(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    if (!kw->b && !kw->c && !ann)
        return 1; /* "if" alone only matters for its annotations */
    size_t mark = sc_units_mark(v);
    sc_ann local;
    sc_ann_init(&local);
    int r = sc_validate_child(v, kw, NULL, 0, (size_t)-1, kw->a, instance, NULL, 0, (size_t)-1, ann ? &local : NULL);
    sc_units_rewind(v, mark);
    if (r == 1 && ann)
        sc_ann_merge(ann, &local);
    sc_ann_free(&local);
    if (r < 0)
        return -1;
    const sc_node *branch = r == 1 ? kw->b : kw->c;
    if (!branch)
        return 1;
    sc_kw step = *kw;
    step.name = r == 1 ? "then" : "else";
    step.abs = kw->names[r == 1 ? 0 : 1].s;
    return sc_validate_child(v, &step, NULL, 0, (size_t)-1, branch, instance, NULL, 0, (size_t)-1, ann);
}

static char *sibling_location(const char *if_abs, const char *name)
{
    size_t n = strlen(if_abs);
    char *text = malloc(n + strlen(name) + 1);
    if (!text)
        return NULL;
    memcpy(text, if_abs, n - 2); /* drop "if" */
    strcpy(text + n - 2, name);
    return text;
}

int sc_kw_if(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    if (!sc_is_schema(value))
        return sc_compile_fail(c, kw, "\"if\" must be a schema");
    json_t *then_value = json_object_get(cn->json, "then");
    json_t *else_value = json_object_get(cn->json, "else");
    if (then_value && !sc_is_schema(then_value))
        return sc_compile_fail(c, kw, "\"then\" must be a schema");
    if (else_value && !sc_is_schema(else_value))
        return sc_compile_fail(c, kw, "\"else\" must be a schema");
    kw->a = sc_compile_sub(c, cn, value, "/if");
    if (!kw->a)
        return -1;
    if (then_value && !(kw->b = sc_compile_sub(c, cn, then_value, "/then")))
        return -1;
    if (else_value && !(kw->c = sc_compile_sub(c, cn, else_value, "/else")))
        return -1;
    kw->names = calloc(2, sizeof *kw->names);
    if (!kw->names)
        return sc_compile_fail(c, kw, "out of memory");
    kw->nnames = 2;
    kw->names[0].s = sibling_location(kw->abs, "then");
    kw->names[1].s = sibling_location(kw->abs, "else");
    if (!kw->names[0].s || !kw->names[1].s)
        return sc_compile_fail(c, kw, "out of memory");
    kw->validate = validate_if;
    kw->in_place = 1;
    return 0;
}
