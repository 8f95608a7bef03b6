/*
 * kw_unevaluated.c: unevaluatedProperties and unevaluatedItems.
 *
 * They run last in their schema object and read the annotations that the in-place
 * applicators of that object (and what those reached through $ref, allOf, anyOf, ...)
 * left for the same instance location.
 */
#include "sc_compile.h"
#include "sc_kw_families.h"
#include "sc_validate.h"

int sc_validate_unevaluated_properties(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    if (!json_is_object(instance) || !ann)
        return 1;
    const sc_node *schema = kw->as.sub.schema;
    int result = 1;
    json_t *object = (json_t *)instance;
    for (void *it = json_object_iter(object); it; it = json_object_iter_next(object, it)) {
        const char *key = json_object_iter_key(it);
        size_t klen = json_object_iter_key_len(it);
        if (sc_ann_has_key(ann, key))
            continue;
        int r;
        if (schema->boolean == 0) {
            if (v->full) {
                json_t *name = json_stringn_nocheck(key, klen);
                sc_buf a;
                sc_buf_init(&a);
                if (name)
                    sc_buf_quote(&a, name);
                json_decref(name);
                sc_report_at(v, kw, sc_name_token(key, klen), "property %s is not allowed (unevaluated)",
                             sc_buf_cstr(&a));
                sc_buf_free(&a);
            }
            r = 0;
        } else {
            sc_step step = {.instance = json_object_iter_value(it), .at = sc_name_token(key, klen)};
            r = sc_validate_step(v, kw, schema, &step);
        }
        if (r < 0)
            return -1;
        if (r == 0) {
            result = 0;
            if (!v->full)
                return 0;
        }
    }
    ann->all_props = 1;
    return result;
}

int sc_validate_unevaluated_items(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    if (!json_is_array(instance) || !ann)
        return 1;
    const sc_node *schema = kw->as.sub.schema;
    int result = 1;
    size_t n = json_array_size(instance);
    for (size_t i = 0; i < n; i++) {
        if (sc_ann_has_item(ann, i))
            continue;
        int r;
        if (schema->boolean == 0) {
            sc_report_at(v, kw, sc_index_token(i), "item %zu is not allowed (unevaluated)", i);
            r = 0;
        } else {
            sc_step step = {.instance = json_array_get(instance, i), .at = sc_index_token(i)};
            r = sc_validate_step(v, kw, schema, &step);
        }
        if (r < 0)
            return -1;
        if (r == 0) {
            result = 0;
            if (!v->full)
                return 0;
        }
    }
    ann->all_items = 1;
    return result;
}
