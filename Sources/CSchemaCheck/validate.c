/*
 * validate.c: the walk over compiled nodes, shared by both modes.
 *
 * The fast mode (sc_is_valid) stops at the first failure and keeps no locations; the
 * full mode (sc_validate) keeps going and records one output unit per failing keyword.
 * Recursion is bounded by the schema's max depth; deeper means "could not finish".
 * Annotations for unevaluatedItems/unevaluatedProperties are only collected below a node
 * that has one of those keywords.
 */
#include "sc_compile.h"
#include "sc_validate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- annotations ---------------------------------------------------------------------- */

void sc_ann_init(sc_ann *a)
{
    memset(a, 0, sizeof *a);
}

void sc_ann_free(sc_ann *a)
{
    free(a->keys);
    free(a->marks);
    memset(a, 0, sizeof *a);
}

void sc_ann_add_key(sc_ann *a, const char *key)
{
    if (a->all_props)
        return;
    if (a->nkeys == a->capkeys) {
        size_t cap = a->capkeys ? a->capkeys * 2 : 8;
        const char **grown = realloc(a->keys, cap * sizeof *grown);
        if (!grown) {
            a->oom = 1;
            return;
        }
        a->keys = grown;
        a->capkeys = cap;
    }
    a->keys[a->nkeys++] = key;
}

void sc_ann_mark_item(sc_ann *a, size_t index, size_t length)
{
    if (a->all_items || index < a->items_prefix)
        return;
    if (!a->marks) {
        a->marks = calloc(length ? length : 1, 1);
        if (!a->marks) {
            a->oom = 1;
            return;
        }
        a->nmarks = length;
    }
    if (index < a->nmarks)
        a->marks[index] = 1;
}

void sc_ann_merge(sc_ann *into, const sc_ann *from)
{
    if (from->all_props)
        into->all_props = 1;
    else
        for (size_t i = 0; i < from->nkeys; i++)
            sc_ann_add_key(into, from->keys[i]);
    if (from->all_items)
        into->all_items = 1;
    if (from->items_prefix > into->items_prefix)
        into->items_prefix = from->items_prefix;
    for (size_t i = 0; i < from->nmarks; i++)
        if (from->marks[i])
            sc_ann_mark_item(into, i, from->nmarks);
    if (from->oom)
        into->oom = 1;
}

int sc_ann_has_key(const sc_ann *a, const char *key)
{
    if (a->all_props)
        return 1;
    for (size_t i = 0; i < a->nkeys; i++)
        if (a->keys[i] == key)
            return 1;
    return 0;
}

int sc_ann_has_item(const sc_ann *a, size_t index)
{
    if (a->all_items || index < a->items_prefix)
        return 1;
    return index < a->nmarks && a->marks[index];
}

/* ---- reporting ---------------------------------------------------------------------- */

static void report_text(sc_vctx *v, const char *keyword, const char *kw_suffix, const char *absolute, const char *text)
{
    size_t mark = v->kpath.len;
    if (kw_suffix)
        sc_buf_puts(&v->kpath, kw_suffix);
    sc_unit_store_add(v->out, sc_buf_cstr(&v->ipath), sc_buf_cstr(&v->kpath), absolute, keyword, text);
    sc_buf_truncate(&v->kpath, mark);
}

static void vreport(sc_vctx *v, const sc_kw *kw, const char *fmt, va_list ap)
{
    char text[512];
    vsnprintf(text, sizeof text, fmt, ap);
    char suffix[64];
    snprintf(suffix, sizeof suffix, "/%s", kw->def->name);
    report_text(v, kw->def->name, suffix, kw->abs, text);
}

void sc_report(sc_vctx *v, const sc_kw *kw, const char *fmt, ...)
{
    if (!v->full)
        return;
    va_list ap;
    va_start(ap, fmt);
    vreport(v, kw, fmt, ap);
    va_end(ap);
}

/* Appends one location step to a JSON Pointer. */
static void push_token(sc_buf *path, sc_token token)
{
    if (token.kind == SC_TOKEN_NAME)
        sc_buf_pointer_token(path, token.name, token.len);
    else if (token.kind == SC_TOKEN_INDEX)
        sc_buf_printf(path, "/%zu", token.index);
}

void sc_report_at(sc_vctx *v, const sc_kw *kw, sc_token at, const char *fmt, ...)
{
    if (!v->full)
        return;
    size_t mark = v->ipath.len;
    push_token(&v->ipath, at);
    va_list ap;
    va_start(ap, fmt);
    vreport(v, kw, fmt, ap);
    va_end(ap);
    sc_buf_truncate(&v->ipath, mark);
}

/* ---- the walk ------------------------------------------------------------------------- */

/* node is being applied to the value it is already being applied to: a loop that makes no
 * progress. Validation of this instance cannot finish; where it happened is kept for the
 * result (full mode). */
static int loop_found(sc_vctx *v, const sc_node *node)
{
    v->incomplete = "the schema applies itself to the same value in a loop";
    if (!v->loop_at) {
        v->loop_at = node;
        if (v->full) {
            v->loop_instance = sc_strdup(sc_buf_cstr(&v->ipath));
            v->loop_keyword = sc_strdup(sc_buf_cstr(&v->kpath));
            v->loop_via = v->via;
        }
    }
    return -1;
}

/* The keywords of an object schema, in order, inside its dynamic scope frame. Inlined into
 * both callers: it is the innermost loop of every validation. */
#if defined(__GNUC__) || defined(__clang__)
#define SC_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define SC_ALWAYS_INLINE inline
#endif
static SC_ALWAYS_INLINE int validate_keywords(sc_vctx *v, const sc_node *node, const json_t *instance, sc_ann *ann)
{
    v->depth++;
    sc_scope frame;
    const sc_scope *saved = v->scope;
    if (!v->scope || v->scope->resource != node->resource) {
        frame.resource = node->resource;
        frame.outer = v->scope;
        v->scope = &frame;
    }
    sc_ann local;
    sc_ann *use = ann;
    if (node->needs_ann) {
        sc_ann_init(&local);
        use = &local;
    }
    int result = 1;
    for (size_t i = 0; i < node->nkws; i++) {
        const sc_kw *kw = &node->kws[i];
        int r = kw->def->validate(v, kw, instance, use);
        if (r < 0) {
            result = -1;
            break;
        }
        if (r == 0) {
            result = 0;
            if (!v->full)
                break;
        }
    }
    if (node->needs_ann) {
        if (local.oom) {
            v->incomplete = "out of memory";
            result = -1;
        }
        if (result == 1 && ann)
            sc_ann_merge(ann, &local);
        sc_ann_free(&local);
    }
    v->scope = saved;
    v->depth--;
    return result;
}

/* A node on a loop (loops.c): applied to a value it is already being applied to, it would
 * never finish. Only these nodes pay for the watch. */
static int validate_watched(sc_vctx *v, const sc_node *node, const json_t *instance, sc_ann *ann)
{
    for (const sc_loop_frame *f = v->loops; f; f = f->outer)
        if (f->node == node && f->instance == instance)
            return loop_found(v, node);
    sc_loop_frame loop = {node, instance, v->loops};
    v->loops = &loop;
    int result = validate_keywords(v, node, instance, ann);
    v->loops = loop.outer;
    return result;
}

int sc_validate_node(sc_vctx *v, const sc_node *node, const json_t *instance, sc_ann *ann)
{
    if (node->boolean == 1)
        return 1;
    if (node->boolean == 0) {
        if (v->full)
            report_text(v, v->via ? v->via : "false", NULL, node->canonical,
                        "no value is allowed here (the schema is false)");
        return 0;
    }
    if (v->depth >= v->schema->max_depth) {
        v->incomplete = "the schema nests deeper than the validation depth limit";
        return -1;
    }
    if (node->loop_check)
        return validate_watched(v, node, instance, ann);
    return validate_keywords(v, node, instance, ann);
}

int sc_validate_step(sc_vctx *v, const sc_kw *kw, const sc_node *schema, const sc_step *step)
{
    if (!v->full)
        return sc_validate_node(v, schema, step->instance, step->ann);
    const char *keyword = step->keyword ? step->keyword : kw->def->name;
    size_t kmark = v->kpath.len, imark = v->ipath.len;
    sc_buf_pointer_token(&v->kpath, keyword, strlen(keyword));
    push_token(&v->kpath, step->via);
    push_token(&v->ipath, step->at);
    const char *via = v->via;
    v->via = keyword;
    int r = sc_validate_node(v, schema, step->instance, step->ann);
    v->via = via;
    sc_buf_truncate(&v->kpath, kmark);
    sc_buf_truncate(&v->ipath, imark);
    return r;
}

int sc_fast_walk(const sc_schema *schema, const json_t *instance)
{
    if (!schema || !instance)
        return -1;
    sc_vctx v;
    memset(&v, 0, sizeof v);
    v.schema = schema;
    return sc_validate_node(&v, schema->root, instance, NULL);
}

/* The two walks visit subschemas in different orders and amounts (the full one goes on after
 * a failure to list every error), so one may run into a limit or a loop the other never
 * reaches; under "not" or "oneOf" that would turn into opposite verdicts. A walk that cannot
 * finish therefore takes the other walk's verdict when that one finishes, so both entry points
 * always agree. The second walk runs only in that rare case. */
int sc_is_valid(const sc_schema *schema, const json_t *instance)
{
    int status = sc_fast_walk(schema, instance);
    if (status >= 0 || !schema || !instance)
        return status;
    sc_result *full = sc_validate(schema, instance);
    status = sc_result_status(full);
    sc_result_free(full);
    return status;
}
