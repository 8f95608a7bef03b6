/*
 * loops.c: loops that make no progress.
 *
 * "$ref": "#" at the root, or two definitions that refer to each other through allOf, apply
 * a schema to the same value inside itself, forever. Such a schema still compiles (only the
 * instances that reach the loop are affected): here the compiled graph of in-place
 * applications ($ref, $dynamicRef and $recursiveRef with every target they may jump to,
 * allOf, anyOf, oneOf, not, if/then/else, dependentSchemas) is searched once, depth first.
 * Every cycle of a graph holds at least one edge back to a node still on the search's stack,
 * so marking the targets of those edges puts a marked node on every loop; validation
 * (validate.c) keeps the marked nodes it is inside of and stops when one is applied to the
 * value it is already being applied to.
 */
#include "sc_compile.h"

#include <stdlib.h>
#include <string.h>

/* The targets a dynamic reference may jump to besides its static one. */
static size_t dynamic_count(const sc_schema *s, const sc_kw *kw)
{
    const sc_dynamic_ref_kw *ref = &kw->as.dynamic_ref;
    size_t count = 0;
    for (size_t r = 0; r < s->nresources; r++) {
        const sc_resource_rt *res = s->resources[r];
        if (ref->recursive) {
            count += res->recursive_root != NULL;
            continue;
        }
        for (size_t k = 0; ref->anchor.s && k < res->nanchors; k++)
            count += res->anchor_names[k].len == ref->anchor.len &&
                     memcmp(res->anchor_names[k].s, ref->anchor.s, ref->anchor.len) == 0;
    }
    return count;
}

static const sc_node *dynamic_target(const sc_schema *s, const sc_kw *kw, size_t index)
{
    const sc_dynamic_ref_kw *ref = &kw->as.dynamic_ref;
    for (size_t r = 0; r < s->nresources; r++) {
        const sc_resource_rt *res = s->resources[r];
        if (ref->recursive) {
            if (res->recursive_root && index-- == 0)
                return res->recursive_root;
            continue;
        }
        for (size_t k = 0; ref->anchor.s && k < res->nanchors; k++)
            if (res->anchor_names[k].len == ref->anchor.len &&
                memcmp(res->anchor_names[k].s, ref->anchor.s, ref->anchor.len) == 0 && index-- == 0)
                return res->anchor_nodes[k];
    }
    return NULL;
}

/* The n-th in-place edge of node: 1 with *next (which may be NULL: an absent "else"), or 0
 * past the last one. */
static int in_place_edge(const sc_schema *s, const sc_node *node, size_t n, const sc_node **next)
{
    for (size_t k = 0; k < node->nkws; k++) {
        const sc_kw *kw = &node->kws[k];
        if (!(kw->def->traits & SC_TRAIT_IN_PLACE))
            continue;
        size_t count = sc_kw_child_count(kw);
        if (n < count) {
            *next = sc_kw_child(kw, n);
            return 1;
        }
        n -= count;
        if (kw->def->family == SC_FAMILY_DYNAMIC_REF) {
            count = dynamic_count(s, kw);
            if (n < count) {
                *next = dynamic_target(s, kw, n);
                return 1;
            }
            n -= count;
        }
    }
    return 0;
}

int sc_find_loops(sc_schema *s)
{
    size_t n = s->nnodes;
    unsigned char *color = calloc(n ? n : 1, 1); /* 0 new, 1 on the stack, 2 done */
    size_t *stack_node = malloc((n ? n : 1) * sizeof *stack_node);
    size_t *stack_edge = malloc((n ? n : 1) * sizeof *stack_edge);
    if (!color || !stack_node || !stack_edge) {
        free(color);
        free(stack_node);
        free(stack_edge);
        return -1;
    }
    const sc_node *first = NULL;
    for (size_t start = 0; start < n; start++) {
        if (color[start])
            continue;
        size_t depth = 1;
        stack_node[0] = start;
        stack_edge[0] = 0;
        color[start] = 1;
        while (depth > 0) {
            const sc_node *node = s->nodes[stack_node[depth - 1]];
            const sc_node *next = NULL;
            if (!in_place_edge(s, node, stack_edge[depth - 1]++, &next)) {
                color[stack_node[depth - 1]] = 2;
                depth--;
                continue;
            }
            if (!next || next->boolean != -1)
                continue;
            if (color[next->index] == 1) {
                s->nodes[next->index]->loop_check = 1;
                if (!first)
                    first = next;
            } else if (color[next->index] == 0) {
                color[next->index] = 1;
                stack_node[depth] = next->index;
                stack_edge[depth] = 0;
                depth++;
            }
        }
    }
    free(color);
    free(stack_node);
    free(stack_edge);
    if (first) {
        s->loop_location = sc_strdup(first->canonical);
        if (!s->loop_location)
            return -1;
    }
    return 0;
}
