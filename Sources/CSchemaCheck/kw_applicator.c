/*
 * kw_applicator.c: allOf, anyOf, oneOf, not, if/then/else.
 *
 * Branch errors of anyOf/oneOf are kept when the applicator fails (after its own unit);
 * errors of branches that do not decide the outcome (a passing anyOf, "not", "if",
 * "contains") are dropped. Annotations of a branch count only when the branch passes.
 */
#include "sc_compile.h"
#include "sc_kw_families.h"
#include "sc_validate.h"

int sc_compile_schema_list(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    sc_schema_list_kw *list = &kw->as.list;
    if (sc_compile_schema_array(c, cn, kw, value, &list->schemas, &list->count) < 0)
        return SC_COMPILE_FAILED;
    return SC_COMPILE_KEEP;
}

/* Every keyword whose value is one schema: not, unevaluatedItems, unevaluatedProperties. */
int sc_compile_subschema(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    kw->as.sub.schema = sc_compile_keyword_schema(c, cn, kw, value);
    return kw->as.sub.schema ? SC_COMPILE_KEEP : SC_COMPILE_FAILED;
}

int sc_validate_all_of(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    const sc_schema_list_kw *list = &kw->as.list;
    int result = 1;
    for (size_t i = 0; i < list->count; i++) {
        sc_step step = {.instance = instance, .via = sc_index_token(i), .ann = ann};
        int r = sc_validate_step(v, kw, list->schemas[i], &step);
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

/* Runs one branch with its own annotations; merges them into ann when it passes. */
static int run_branch(sc_vctx *v, const sc_kw *kw, size_t index, const json_t *instance, sc_ann *ann)
{
    sc_step step = {.instance = instance, .via = sc_index_token(index)};
    const sc_node *branch = kw->as.list.schemas[index];
    if (!ann)
        return sc_validate_step(v, kw, branch, &step);
    sc_ann local;
    sc_ann_init(&local);
    step.ann = &local;
    int r = sc_validate_step(v, kw, branch, &step);
    if (r == 1)
        sc_ann_merge(ann, &local);
    sc_ann_free(&local);
    return r;
}

int sc_validate_any_of(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    size_t count = kw->as.list.count;
    size_t mark = sc_units_mark(v);
    int passed = 0;
    for (size_t i = 0; i < count; i++) {
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
    sc_report(v, kw, "the value matches none of the %zu \"anyOf\" schemas", count);
    return 0;
}

int sc_validate_one_of(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    size_t count = kw->as.list.count;
    size_t mark = sc_units_mark(v);
    size_t passed = 0, first = 0, second = 0;
    for (size_t i = 0; i < count; i++) {
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
        sc_report(v, kw, "the value matches none of the %zu \"oneOf\" schemas", count);
    } else {
        sc_units_rewind(v, mark);
        sc_report(v, kw, "the value matches more than one \"oneOf\" schema (%zu and %zu)", first, second);
    }
    return 0;
}

int sc_validate_not(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    size_t mark = sc_units_mark(v);
    sc_step step = {.instance = instance};
    int r = sc_validate_step(v, kw, kw->as.sub.schema, &step);
    sc_units_rewind(v, mark);
    if (r < 0)
        return -1;
    if (r == 0)
        return 1;
    sc_report(v, kw, "the value must not match the \"not\" schema");
    return 0;
}

int sc_validate_if(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    const sc_conditional_kw *cond = &kw->as.conditional;
    if (!cond->then_schema && !cond->else_schema && !ann)
        return 1; /* "if" alone only matters for its annotations */
    size_t mark = sc_units_mark(v);
    sc_ann local;
    sc_ann_init(&local);
    sc_step test = {.instance = instance, .ann = ann ? &local : NULL};
    int r = sc_validate_step(v, kw, cond->if_schema, &test);
    sc_units_rewind(v, mark);
    if (r == 1 && ann)
        sc_ann_merge(ann, &local);
    sc_ann_free(&local);
    if (r < 0)
        return -1;
    const sc_node *branch = r == 1 ? cond->then_schema : cond->else_schema;
    if (!branch)
        return 1;
    sc_step step = {.instance = instance, .ann = ann, .keyword = r == 1 ? "then" : "else"};
    return sc_validate_step(v, kw, branch, &step);
}

int sc_compile_if(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    if (!sc_is_schema(value))
        return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"if\" must be a schema");
    json_t *then_value = json_object_get(cn->json, "then");
    json_t *else_value = json_object_get(cn->json, "else");
    if (then_value && !sc_is_schema(then_value))
        return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"then\" must be a schema");
    if (else_value && !sc_is_schema(else_value))
        return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"else\" must be a schema");
    sc_conditional_kw *cond = &kw->as.conditional;
    cond->if_schema = sc_compile_sub(c, cn, value, "/if");
    if (!cond->if_schema)
        return SC_COMPILE_FAILED;
    if (then_value && !(cond->then_schema = sc_compile_sub(c, cn, then_value, "/then")))
        return SC_COMPILE_FAILED;
    if (else_value && !(cond->else_schema = sc_compile_sub(c, cn, else_value, "/else")))
        return SC_COMPILE_FAILED;
    return SC_COMPILE_KEEP;
}
