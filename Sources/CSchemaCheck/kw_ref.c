/*
 * kw_ref.c: $ref and $dynamicRef.
 *
 * Both are resolved at compile time against the base URI of their schema object. A
 * $dynamicRef whose static target carries a matching "$dynamicAnchor" is dynamic: at
 * validation time the outermost resource in the dynamic scope that declares that anchor
 * wins (the compile step has compiled those anchors for every resource reached).
 */
#include "sc_internal.h"

#include <stdlib.h>
#include <string.h>

static int validate_ref(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    return sc_validate_child(v, kw, NULL, 0, (size_t)-1, kw->a, instance, NULL, 0, (size_t)-1, ann);
}

int sc_kw_ref(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    if (!json_is_string(value))
        return sc_compile_fail(c, kw, "\"$ref\" must be a string");
    kw->a = sc_compile_ref(c, cn, json_string_value(value), kw->abs);
    if (!kw->a)
        return -1;
    kw->validate = validate_ref;
    kw->in_place = 1;
    return 0;
}

static const sc_node *dynamic_target(const sc_vctx *v, const sc_kw *kw)
{
    const sc_node *found = NULL;
    for (const sc_scope *s = v->scope; s; s = s->outer) {
        const sc_resource_rt *r = s->resource;
        for (size_t i = 0; i < r->nanchors; i++) {
            if (r->anchor_names[i].len == kw->str.len && memcmp(r->anchor_names[i].s, kw->str.s, kw->str.len) == 0) {
                found = r->anchor_nodes[i]; /* keep going: the outermost one wins */
                break;
            }
        }
    }
    return found ? found : kw->a;
}

static int validate_dynamic_ref(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    const sc_node *target = kw->flag ? dynamic_target(v, kw) : kw->a;
    return sc_validate_child(v, kw, NULL, 0, (size_t)-1, target, instance, NULL, 0, (size_t)-1, ann);
}

int sc_kw_dynamic_ref(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    if (!json_is_string(value))
        return sc_compile_fail(c, kw, "\"$dynamicRef\" must be a string");
    const char *ref = json_string_value(value);
    kw->a = sc_compile_ref(c, cn, ref, kw->abs);
    if (!kw->a)
        return -1;
    const char *hash = strchr(ref, '#');
    if (hash && hash[1] != '\0' && hash[1] != '/') {
        size_t len;
        char *name = sc_percent_decode(hash + 1, strlen(hash + 1), &len);
        if (!name)
            return sc_compile_fail(c, kw, "\"$dynamicRef\" has a bad fragment");
        if (kw->a->dynamic_anchor && strcmp(kw->a->dynamic_anchor, name) == 0) {
            kw->flag = 1;
            kw->str.s = name;
            kw->str.len = len;
            if (sc_compile_note_dynamic(c, name, len) < 0)
                return sc_compile_fail(c, kw, "out of memory");
        } else {
            free(name);
        }
    }
    kw->validate = validate_dynamic_ref;
    kw->in_place = 1;
    return 0;
}
