/*
 * kw_array.c: maxItems, minItems, uniqueItems; the array applicators prefixItems, items
 * (either form) and additionalItems, which all compile to one sc_items_kw; contains with
 * minContains/maxContains (2019-09 on).
 */
#include "sc_compile.h"
#include "sc_kw_families.h"
#include "sc_validate.h"

#include <stdint.h>

int sc_validate_item_count(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    if (!json_is_array(instance))
        return 1;
    const sc_count_kw *bound = &kw->as.count;
    int at_most = bound->side == SC_AT_MOST;
    size_t n = json_array_size(instance);
    if (at_most ? n <= bound->limit : n >= bound->limit)
        return 1;
    sc_report(v, kw, "the array has %zu item%s, %s %zu", n, n == 1 ? "" : "s", at_most ? "more than" : "fewer than",
              bound->limit);
    return 0;
}

int sc_compile_item_count(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    (void)cn;
    if (sc_compile_count(c, kw, value, &kw->as.count.limit) < 0)
        return SC_COMPILE_FAILED;
    kw->as.count.side = (sc_count_side)kw->def->variant;
    return SC_COMPILE_KEEP;
}

int sc_validate_unique_items(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    if (!json_is_array(instance))
        return 1;
    size_t n = json_array_size(instance);
    for (size_t i = 0; i < n; i++) {
        const json_t *a = json_array_get(instance, i);
        for (size_t k = i + 1; k < n; k++) {
            if (sc_json_equal(a, json_array_get(instance, k))) {
                sc_report(v, kw, "items %zu and %zu are equal, but items must be unique", i, k);
                return 0;
            }
        }
    }
    return 1;
}

int sc_compile_unique_items(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    (void)cn;
    if (!json_is_boolean(value))
        return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"uniqueItems\" must be a boolean");
    return json_is_true(value) ? SC_COMPILE_KEEP : SC_COMPILE_DROP;
}

/* ---- prefixItems, items, additionalItems ------------------------------------------------ */

int sc_validate_items(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    if (!json_is_array(instance))
        return 1;
    const sc_items_kw *items = &kw->as.items;
    size_t n = json_array_size(instance);
    int result = 1;
    for (size_t i = 0; i < n && i < items->nprefix; i++) {
        sc_step step = {.instance = json_array_get(instance, i), .at = sc_index_token(i), .via = sc_index_token(i)};
        int r = sc_validate_step(v, kw, items->prefix[i], &step);
        if (r < 0)
            return -1;
        if (r == 0) {
            result = 0;
            if (!v->full)
                return 0;
        }
    }
    if (ann && items->nprefix > ann->items_prefix)
        ann->items_prefix = items->nprefix;
    if (!items->rest)
        return result;
    size_t from = items->rest_from;
    for (size_t i = from; i < n; i++) {
        int r;
        if (items->rest->boolean == 0) {
            sc_report_at(v, kw, sc_index_token(i), "item %zu is not allowed (only %zu item%s allowed)", i, from,
                         from == 1 ? " is" : "s are");
            r = 0;
        } else {
            sc_step step = {.instance = json_array_get(instance, i), .at = sc_index_token(i)};
            r = sc_validate_step(v, kw, items->rest, &step);
        }
        if (r < 0)
            return -1;
        if (r == 0) {
            result = 0;
            if (!v->full)
                return 0;
        }
    }
    if (ann)
        ann->all_items = 1;
    return result;
}

int sc_compile_prefix_items(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    sc_items_kw *items = &kw->as.items;
    if (sc_compile_schema_array(c, cn, kw, value, &items->prefix, &items->nprefix) < 0)
        return SC_COMPILE_FAILED;
    return SC_COMPILE_KEEP;
}

int sc_compile_items(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    sc_items_kw *items = &kw->as.items;
    if (cn->draft <= SC_DRAFT_2019 && json_is_array(value)) {
        /* the tuple form (up to 2019-09) behaves like prefixItems */
        if (json_array_size(value) == 0)
            return SC_COMPILE_DROP; /* nothing to apply; additionalItems then covers every item */
        return sc_compile_prefix_items(c, cn, kw, value);
    }
    items->rest = sc_compile_keyword_schema(c, cn, kw, value);
    if (!items->rest)
        return SC_COMPILE_FAILED;
    items->rest_from = 0;
    if (cn->draft == SC_DRAFT_2020) {
        json_t *prefix = json_object_get(cn->json, "prefixItems");
        if (json_is_array(prefix) && (cn->vocab & SC_VOC_APPLICATOR))
            items->rest_from = json_array_size(prefix);
    }
    return SC_COMPILE_KEEP;
}

int sc_compile_additional_items(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    json_t *tuple = json_object_get(cn->json, "items");
    if (!json_is_array(tuple))
        return SC_COMPILE_DROP; /* ignored unless items is an array */
    sc_items_kw *items = &kw->as.items;
    items->rest = sc_compile_keyword_schema(c, cn, kw, value);
    if (!items->rest)
        return SC_COMPILE_FAILED;
    items->rest_from = json_array_size(tuple);
    return SC_COMPILE_KEEP;
}

/* ---- contains ------------------------------------------------------------------------- */

int sc_validate_contains(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    if (!json_is_array(instance))
        return 1;
    const sc_contains_kw *contains = &kw->as.contains;
    size_t n = json_array_size(instance);
    size_t matches = 0;
    int need_all = ann != NULL || contains->max != SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        size_t mark = sc_units_mark(v);
        sc_step step = {.instance = json_array_get(instance, i), .at = sc_index_token(i)};
        int r = sc_validate_step(v, kw, contains->schema, &step);
        sc_units_rewind(v, mark);
        if (r < 0)
            return -1;
        if (r == 1) {
            matches++;
            if (ann)
                sc_ann_mark_item(ann, i, n);
            if (!need_all && matches >= contains->min)
                return 1;
        }
    }
    if (matches < contains->min) {
        if (contains->min == 1)
            sc_report(v, kw, "the array has no item that matches the \"contains\" schema");
        else
            sc_report(v, kw, "the array has %zu item%s matching the \"contains\" schema, fewer than minContains %zu",
                      matches, matches == 1 ? "" : "s", contains->min);
        return 0;
    }
    if (matches > contains->max) {
        sc_report(v, kw, "the array has %zu items matching the \"contains\" schema, more than maxContains %zu", matches,
                  contains->max);
        return 0;
    }
    return 1;
}

int sc_compile_contains(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    sc_contains_kw *contains = &kw->as.contains;
    contains->schema = sc_compile_keyword_schema(c, cn, kw, value);
    if (!contains->schema)
        return SC_COMPILE_FAILED;
    contains->min = 1;
    contains->max = SIZE_MAX;
    if (cn->draft >= SC_DRAFT_2019 && (cn->vocab & SC_VOC_VALIDATION)) {
        json_t *min = json_object_get(cn->json, "minContains");
        json_t *max = json_object_get(cn->json, "maxContains");
        sc_num num;
        if (min && sc_num_get(min, &num) == 0 && num.is_int && num.i >= 0)
            contains->min = (size_t)num.i;
        if (max && sc_num_get(max, &num) == 0 && num.is_int && num.i >= 0)
            contains->max = (size_t)num.i;
    }
    return SC_COMPILE_KEEP;
}

/* minContains and maxContains: their values are checked here; contains applies them. */
int sc_compile_contains_bound(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    (void)cn;
    size_t count;
    return sc_compile_count(c, kw, value, &count) < 0 ? SC_COMPILE_FAILED : SC_COMPILE_DROP;
}
