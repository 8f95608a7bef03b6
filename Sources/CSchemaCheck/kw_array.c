/*
 * kw_array.c: maxItems, minItems, uniqueItems, prefixItems, items (both drafts),
 * additionalItems (draft-07), contains with minContains/maxContains.
 */
#include "sc_internal.h"

#include <stdint.h>
#include <string.h>

static int validate_item_count(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    if (!json_is_array(instance))
        return 1;
    size_t n = json_array_size(instance);
    int ok = kw->flag ? n <= kw->n : n >= kw->n;
    if (ok)
        return 1;
    sc_report(v, kw, "the array has %zu item%s, %s %zu", n, n == 1 ? "" : "s", kw->flag ? "more than" : "fewer than",
              kw->n);
    return 0;
}

int sc_kw_item_count(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    (void)cn;
    if (sc_compile_count(c, kw, value, &kw->n) < 0)
        return -1;
    kw->flag = strcmp(kw->name, "maxItems") == 0;
    kw->validate = validate_item_count;
    return 0;
}

static int validate_unique(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
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

int sc_kw_unique_items(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    (void)cn;
    if (!json_is_boolean(value))
        return sc_compile_fail(c, kw, "\"uniqueItems\" must be a boolean");
    if (json_is_true(value))
        kw->validate = validate_unique;
    return 0;
}

/* Applies sub to items [from, to); reports "item is not allowed" for a false schema. */
static int apply_items(sc_vctx *v, const sc_kw *kw, const sc_node *sub, const json_t *instance, size_t from,
                       size_t kw_index)
{
    size_t n = json_array_size(instance);
    int result = 1;
    for (size_t i = from; i < n; i++) {
        int r;
        if (sub->boolean == 0) {
            sc_report_at(v, kw, NULL, 0, i, "item %zu is not allowed (only %zu item%s allowed)", i, from,
                         from == 1 ? " is" : "s are");
            r = 0;
        } else {
            r = sc_validate_child(v, kw, NULL, 0, kw_index, sub, json_array_get(instance, i), NULL, 0, i, NULL);
        }
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

static int validate_prefix(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    if (!json_is_array(instance))
        return 1;
    size_t n = json_array_size(instance);
    int result = 1;
    for (size_t i = 0; i < n && i < kw->nsubs; i++) {
        int r = sc_validate_child(v, kw, NULL, 0, i, kw->subs[i], json_array_get(instance, i), NULL, 0, i, NULL);
        if (r < 0)
            return -1;
        if (r == 0) {
            result = 0;
            if (!v->full)
                return 0;
        }
    }
    if (ann && kw->nsubs > ann->items_prefix)
        ann->items_prefix = kw->nsubs;
    return result;
}

int sc_kw_prefix_items(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    if (sc_compile_schema_array(c, cn, kw, value) < 0)
        return -1;
    kw->validate = validate_prefix;
    return 0;
}

/* items as one schema: applies from kw->n on (the prefixItems count in 2020-12) */
static int validate_items(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    if (!json_is_array(instance))
        return 1;
    int r = apply_items(v, kw, kw->a, instance, kw->n, (size_t)-1);
    if (ann)
        ann->all_items = 1;
    return r;
}

int sc_kw_items(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    if ((cn->draft7 || (cn->vocab & SC_VOC_2019_ITEMS)) && json_is_array(value)) {
        /* the draft-07 (and 2019-09) tuple form behaves like prefixItems */
        if (json_array_size(value) == 0)
            return 0; /* nothing to apply; additionalItems then covers every item */
        if (sc_compile_schema_array(c, cn, kw, value) < 0)
            return -1;
        kw->validate = validate_prefix;
        return 0;
    }
    if (!sc_is_schema(value))
        return sc_compile_fail(c, kw, "\"items\" must be a schema");
    kw->a = sc_compile_sub(c, cn, value, "/items");
    if (!kw->a)
        return -1;
    kw->n = 0;
    if (!cn->draft7) {
        json_t *prefix = json_object_get(cn->json, "prefixItems");
        if (json_is_array(prefix) && (cn->vocab & SC_VOC_APPLICATOR))
            kw->n = json_array_size(prefix);
    }
    kw->validate = validate_items;
    return 0;
}

int sc_kw_additional_items(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    json_t *items = json_object_get(cn->json, "items");
    if (!json_is_array(items))
        return 0; /* ignored unless items is an array */
    if (!sc_is_schema(value))
        return sc_compile_fail(c, kw, "\"additionalItems\" must be a schema");
    kw->a = sc_compile_sub(c, cn, value, "/additionalItems");
    if (!kw->a)
        return -1;
    kw->n = json_array_size(items);
    kw->validate = validate_items;
    return 0;
}

/* contains: kw->a the schema, kw->n minContains, kw->n2 maxContains (SIZE_MAX: none) */
static int validate_contains(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    if (!json_is_array(instance))
        return 1;
    size_t n = json_array_size(instance);
    size_t matches = 0;
    int need_all = ann != NULL || kw->n2 != SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        size_t mark = sc_units_mark(v);
        int r = sc_validate_child(v, kw, NULL, 0, (size_t)-1, kw->a, json_array_get(instance, i), NULL, 0, i, NULL);
        sc_units_rewind(v, mark);
        if (r < 0)
            return -1;
        if (r == 1) {
            matches++;
            if (ann)
                sc_ann_mark_item(ann, i, n);
            if (!need_all && matches >= kw->n)
                return 1;
        }
    }
    if (matches < kw->n) {
        if (kw->n == 1)
            sc_report(v, kw, "the array has no item that matches the \"contains\" schema");
        else
            sc_report(v, kw, "the array has %zu item%s matching the \"contains\" schema, fewer than minContains %zu",
                      matches, matches == 1 ? "" : "s", kw->n);
        return 0;
    }
    if (matches > kw->n2) {
        sc_report(v, kw, "the array has %zu items matching the \"contains\" schema, more than maxContains %zu",
                  matches, kw->n2);
        return 0;
    }
    return 1;
}

int sc_kw_contains(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    if (!sc_is_schema(value))
        return sc_compile_fail(c, kw, "\"contains\" must be a schema");
    kw->a = sc_compile_sub(c, cn, value, "/contains");
    if (!kw->a)
        return -1;
    kw->n = 1;
    kw->n2 = SIZE_MAX;
    if (!cn->draft7 && (cn->vocab & SC_VOC_VALIDATION)) {
        json_t *min = json_object_get(cn->json, "minContains");
        json_t *max = json_object_get(cn->json, "maxContains");
        sc_num num;
        if (min && sc_num_get(min, &num) == 0 && num.is_int && num.i >= 0)
            kw->n = (size_t)num.i;
        if (max && sc_num_get(max, &num) == 0 && num.is_int && num.i >= 0)
            kw->n2 = (size_t)num.i;
    }
    kw->validate = validate_contains;
    return 0;
}

int sc_kw_contains_bound(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    (void)cn;
    size_t count;
    return sc_compile_count(c, kw, value, &count); /* applied by "contains" */
}
