/*
 * kw_ref.c: $ref, $dynamicRef (2020-12) and $recursiveRef (2019-09).
 *
 * Both are resolved at compile time against the base URI of their schema object. A
 * $dynamicRef whose static target carries a matching "$dynamicAnchor" is dynamic: at
 * validation time the outermost resource in the dynamic scope that declares that anchor
 * wins (the compile step has compiled those anchors for every resource reached). A
 * $recursiveRef whose target says "$recursiveAnchor": true is dynamic the 2019-09 way: the
 * outermost of the innermost run of resources in the dynamic scope that say so too.
 */
#include "sc_compile.h"
#include "sc_kw_families.h"
#include "sc_uri.h"
#include "sc_validate.h"

#include <stdlib.h>
#include <string.h>

int sc_validate_ref(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    sc_step step = {.instance = instance, .ann = ann};
    return sc_validate_step(v, kw, kw->as.ref.target, &step);
}

int sc_compile_ref(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    if (!json_is_string(value))
        return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"$ref\" must be a string");
    kw->as.ref.target = sc_compile_reference(c, cn, json_string_value(value), kw->abs);
    return kw->as.ref.target ? SC_COMPILE_KEEP : SC_COMPILE_FAILED;
}

/* The outermost resource in the dynamic scope that declares the anchor wins. */
static const sc_node *dynamic_target(const sc_vctx *v, const sc_dynamic_ref_kw *ref)
{
    const sc_node *found = NULL;
    for (const sc_scope *s = v->scope; s; s = s->outer) {
        const sc_resource_rt *r = s->resource;
        for (size_t i = 0; i < r->nanchors; i++) {
            if (r->anchor_names[i].len == ref->anchor.len &&
                memcmp(r->anchor_names[i].s, ref->anchor.s, ref->anchor.len) == 0) {
                found = r->anchor_nodes[i]; /* keep going: an outer one wins */
                break;
            }
        }
    }
    return found ? found : ref->target;
}

/* 2019-09: from the innermost resource outwards, as long as each says "$recursiveAnchor":
 * true, the outermost one's root. */
static const sc_node *recursive_target(const sc_vctx *v, const sc_dynamic_ref_kw *ref)
{
    const sc_node *found = ref->target;
    for (const sc_scope *s = v->scope; s && s->resource->recursive_root; s = s->outer)
        found = s->resource->recursive_root;
    return found;
}

int sc_validate_dynamic_ref(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    const sc_dynamic_ref_kw *ref = &kw->as.dynamic_ref;
    const sc_node *target = ref->recursive  ? recursive_target(v, ref)
                            : ref->anchor.s ? dynamic_target(v, ref)
                                            : ref->target;
    sc_step step = {.instance = instance, .ann = ann};
    return sc_validate_step(v, kw, target, &step);
}

int sc_compile_dynamic_ref(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    if (!json_is_string(value))
        return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"$dynamicRef\" must be a string");
    sc_dynamic_ref_kw *ref = &kw->as.dynamic_ref;
    const char *text = json_string_value(value);
    ref->target = sc_compile_reference(c, cn, text, kw->abs);
    if (!ref->target)
        return SC_COMPILE_FAILED;
    const char *hash = strchr(text, '#');
    if (hash && hash[1] != '\0' && hash[1] != '/') {
        size_t len;
        char *name = sc_percent_decode(hash + 1, strlen(hash + 1), &len);
        if (!name)
            return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"$dynamicRef\" has a bad fragment");
        if (ref->target->dynamic_anchor && strcmp(ref->target->dynamic_anchor, name) == 0) {
            ref->anchor.s = name;
            ref->anchor.len = len;
            if (sc_compile_note_dynamic(c, name, len) < 0)
                return sc_compile_fail(c, kw, SC_ERROR_OUT_OF_MEMORY, "out of memory");
        } else {
            free(name);
        }
    }
    return SC_COMPILE_KEEP;
}

int sc_compile_recursive_ref(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    if (!json_is_string(value))
        return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"$recursiveRef\" must be a string");
    sc_dynamic_ref_kw *ref = &kw->as.dynamic_ref;
    ref->target = sc_compile_reference(c, cn, json_string_value(value), kw->abs);
    if (!ref->target)
        return SC_COMPILE_FAILED;
    /* dynamic only when the resource it lands on says "$recursiveAnchor": true */
    ref->recursive = ref->target->recursive_anchor;
    if (ref->recursive)
        c->recursive_refs = 1;
    return SC_COMPILE_KEEP;
}
