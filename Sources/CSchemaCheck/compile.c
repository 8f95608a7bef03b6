/*
 * compile.c: turning schema JSON into compiled nodes.
 *
 * Nodes are compiled lazily and memoized by the address of their JSON, so a $ref cycle
 * becomes a cycle in the node graph instead of endless recursion. Each schema object is read
 * in its dialect: the "$schema" in scope (resolved by dialect.c), else the default dialect of
 * the index that holds its document. The keyword table (keywords.c) says which keywords
 * exist in that dialect and vocabulary.
 */
#include "sc_compile.h"
#include "sc_error.h"
#include "sc_uri.h"

#include <stdlib.h>
#include <string.h>

#define SC_DEFAULT_MAX_DEPTH 512u
#define SC_MAX_COMPILE_DEPTH 1000u

void sc_options_init(sc_options *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    opts->default_dialect = SC_DIALECT_2020_12;
    opts->assert_format = 0;
    opts->assert_content = 0;
    opts->regex_match_limit = 0;
    opts->max_validation_depth = SC_DEFAULT_MAX_DEPTH;
}

/* ---- errors ----------------------------------------------------------------------- */

int sc_compile_failed(const sc_cctx *c)
{
    return c->error && c->error->code != SC_ERROR_NONE;
}

/* Sets the compile error unless one is set already (the first error wins). */
static void cctx_error(sc_cctx *c, sc_error_code code, const char *location, const char *text)
{
    if (!c->error || sc_compile_failed(c))
        return;
    sc_error_set(c->error, code, location, "%s", text);
}

int sc_compile_fail(sc_cctx *c, const sc_kw *kw, sc_error_code code, const char *fmt, ...)
{
    char text[SC_ERROR_TEXT_LENGTH];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    /* located at the schema object that holds the keyword */
    char location[SC_ERROR_TEXT_LENGTH];
    snprintf(location, sizeof location, "%s", kw->abs ? kw->abs : "");
    char *slash = strrchr(location, '/');
    char *hash = strchr(location, '#');
    if (slash && hash && slash > hash)
        *slash = '\0';
    cctx_error(c, code, location, text);
    return SC_COMPILE_FAILED;
}

/* ---- helpers for the keyword families ------------------------------------------------ */

int sc_is_schema(const json_t *value)
{
    return json_is_object(value) || json_is_boolean(value);
}

sc_regex *sc_compile_regex(sc_cctx *c, const sc_kw *kw, const char *pattern, size_t len)
{
    char message[200] = "";
    sc_regex *re = sc_regex_compile(pattern, len, c->opts->regex_match_limit, message, sizeof message);
    if (!re) {
        sc_buf quoted;
        sc_buf_init(&quoted);
        json_t *text = json_stringn(pattern, len);
        if (text)
            sc_buf_quote(&quoted, text);
        json_decref(text);
        sc_compile_fail(c, kw, SC_ERROR_BAD_REGEX, "\"%s\" has an invalid regular expression %s: %s", kw->def->name,
                        sc_buf_cstr(&quoted), message[0] ? message : "cannot compile");
        sc_buf_free(&quoted);
    }
    return re;
}

int sc_compile_count(sc_cctx *c, const sc_kw *kw, json_t *value, size_t *out)
{
    sc_num num;
    if (sc_num_get(value, &num) < 0 || !num.is_int || num.i < 0)
        return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"%s\" must be a non-negative integer", kw->def->name);
    *out = (size_t)num.i;
    return 0;
}

int sc_compile_name_list(sc_cctx *c, const sc_kw *kw, json_t *value, sc_name_list *list)
{
    list->names = NULL;
    list->count = 0;
    if (!json_is_array(value))
        return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"%s\" must be an array of strings", kw->def->name);
    size_t n = json_array_size(value);
    /* calloc'd and counted up front, so the keyword's release frees what was filled */
    list->names = calloc(n ? n : 1, sizeof *list->names);
    if (!list->names)
        return sc_compile_fail(c, kw, SC_ERROR_OUT_OF_MEMORY, "out of memory");
    list->count = n;
    for (size_t i = 0; i < n; i++) {
        json_t *item = json_array_get(value, i);
        if (!json_is_string(item))
            return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"%s\" must be an array of strings", kw->def->name);
        list->names[i].len = json_string_length(item);
        list->names[i].s = sc_strndup(json_string_value(item), list->names[i].len);
        if (!list->names[i].s)
            return sc_compile_fail(c, kw, SC_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    return 0;
}

int sc_compile_schema_array(sc_cctx *c, const sc_cnode *cn, const sc_kw *kw, json_t *value, sc_node ***out,
                            size_t *count)
{
    if (!json_is_array(value) || json_array_size(value) == 0)
        return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"%s\" must be a non-empty array of schemas",
                               kw->def->name);
    size_t n = json_array_size(value);
    *out = calloc(n, sizeof **out);
    if (!*out)
        return sc_compile_fail(c, kw, SC_ERROR_OUT_OF_MEMORY, "out of memory");
    *count = n;
    for (size_t i = 0; i < n; i++) {
        json_t *item = json_array_get(value, i);
        if (!sc_is_schema(item))
            return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"%s\" must be an array of schemas", kw->def->name);
        char suffix[64];
        snprintf(suffix, sizeof suffix, "/%s/%zu", kw->def->name, i);
        (*out)[i] = sc_compile_sub(c, cn, item, suffix);
        if (!(*out)[i])
            return SC_COMPILE_FAILED;
    }
    return 0;
}

int sc_compile_note_dynamic(sc_cctx *c, const char *name, size_t len)
{
    for (size_t i = 0; i < c->ndyn; i++)
        if (c->dyn_names[i].len == len && memcmp(c->dyn_names[i].s, name, len) == 0)
            return 0;
    if (c->ndyn == c->capdyn) {
        size_t cap = c->capdyn ? c->capdyn * 2 : 4;
        sc_str *grown = realloc(c->dyn_names, cap * sizeof *grown);
        if (!grown)
            return -1;
        c->dyn_names = grown;
        c->capdyn = cap;
    }
    c->dyn_names[c->ndyn].s = sc_strndup(name, len);
    if (!c->dyn_names[c->ndyn].s)
        return -1;
    c->dyn_names[c->ndyn].len = len;
    c->ndyn++;
    return 0;
}

sc_resource_rt *sc_compile_resource(sc_cctx *c, const char *uri)
{
    size_t i;
    if (sc_map_get(&c->res_memo, uri, strlen(uri), &i))
        return c->schema->resources[i];
    sc_schema *s = c->schema;
    if (s->nresources == s->capresources) {
        size_t cap = s->capresources ? s->capresources * 2 : 8;
        sc_resource_rt **grown = realloc(s->resources, cap * sizeof *grown);
        if (!grown)
            return NULL;
        s->resources = grown;
        s->capresources = cap;
    }
    sc_resource_rt *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->uri = sc_strdup(uri);
    if (!r->uri || sc_map_put(&c->res_memo, uri, strlen(uri), s->nresources, 1) < 0) {
        free(r->uri);
        free(r);
        return NULL;
    }
    s->resources[s->nresources++] = r;
    return r;
}

/* ---- dialects ------------------------------------------------------------------------- */

static const sc_nodeinfo *find_resource(const sc_cctx *c, const char *uri, size_t len)
{
    const sc_nodeinfo *info = sc_index_resource(c->local, uri, len);
    return info ? info : sc_index_resource(c->reg, uri, len);
}

static const sc_nodeinfo *find_node(const sc_cctx *c, const json_t *node)
{
    const sc_nodeinfo *info = sc_index_node(c->local, node);
    return info ? info : sc_index_node(c->reg, node);
}

static const char *base_of(const sc_cctx *c, const sc_nodeinfo *info)
{
    if (c->local && info >= c->local->infos && info < c->local->infos + c->local->ninfos)
        return c->local->uris[info->base];
    return c->reg->uris[info->base];
}

static const json_t *meta_lookup(const void *context, const char *uri)
{
    const sc_nodeinfo *info = find_resource(context, uri, sc_uri_base_length(uri));
    return info ? info->node : NULL;
}

/* Works out draft and vocabularies for a "$schema" URI. 0 ok, -1 error set. */
static int dialect_of(sc_cctx *c, const char *schema_uri, const char *location, sc_resolved_dialect *out)
{
    char why[SC_ERROR_TEXT_LENGTH];
    if (sc_dialect_resolve(schema_uri, meta_lookup, c, out, why, sizeof why) == 0)
        return 0;
    cctx_error(c, SC_ERROR_UNKNOWN_DIALECT, location, why);
    return -1;
}

/* ---- nodes ---------------------------------------------------------------------------- */

static sc_node *new_node(sc_cctx *c, const json_t *json, const char *canonical)
{
    sc_schema *s = c->schema;
    if (s->nnodes == s->capnodes) {
        size_t cap = s->capnodes ? s->capnodes * 2 : 32;
        sc_node **grown = realloc(s->nodes, cap * sizeof *grown);
        if (!grown)
            return NULL;
        s->nodes = grown;
        s->capnodes = cap;
    }
    sc_node *node = calloc(1, sizeof *node);
    if (!node)
        return NULL;
    node->canonical = sc_strdup(canonical);
    if (!node->canonical || (json_is_object(json) && sc_map_put_ptr(&c->memo, json, s->nnodes) < 0)) {
        free(node->canonical);
        free(node);
        return NULL;
    }
    node->index = s->nnodes;
    s->nodes[s->nnodes++] = node;
    return node;
}

/* properties, patternProperties and additionalProperties of one schema object: the last
 * borrows the names and patterns of the other two, and the boolean fast path of properties
 * hands its members to additionalProperties' single walk. */
static void pair_object_keywords(sc_node *node)
{
    sc_kw *properties = NULL, *patterns = NULL, *additional = NULL;
    for (size_t k = 0; k < node->nkws; k++) {
        sc_kw *kw = &node->kws[k];
        if (kw->def->family == SC_FAMILY_PROPERTIES)
            properties = kw;
        else if (kw->def->family == SC_FAMILY_PATTERN_PROPERTIES)
            patterns = kw;
        else if (kw->def->family == SC_FAMILY_ADDITIONAL_PROPERTIES)
            additional = kw;
    }
    if (!additional)
        return;
    additional->as.additional.properties = properties ? &properties->as.properties : NULL;
    additional->as.additional.patterns = patterns ? &patterns->as.pattern_properties : NULL;
    if (properties)
        properties->as.properties.additional = additional;
}

/* Whether the table entry applies to a schema object of this dialect and vocabulary. */
static int keyword_applies(const sc_keyword *entry, sc_draft draft, unsigned vocab)
{
    if (!(entry->dialects & (1u << draft)))
        return 0;
    return draft < SC_DRAFT_2019 || (vocab & entry->vocab) != 0;
}

/* Where a schema object is and how to read it. */
typedef struct place {
    const sc_nodeinfo *info; /* NULL for objects the index did not reach */
    const char *base;
    const char *canonical;
    const char *schema_uri; /* "$schema" in scope, when info is NULL */
    int boolean_allowed;    /* a boolean is allowed even in draft-04 (additionalProperties...) */
} place;

static sc_node *compile_json(sc_cctx *c, json_t *json, const place *at)
{
    size_t existing;
    /* objects are memoized by address; true and false are shared by every document
     * (jansson has one of each), so each place gets its own node */
    if (json_is_object(json) && sc_map_get_ptr(&c->memo, json, &existing))
        return c->schema->nodes[existing];
    if (sc_compile_failed(c))
        return NULL;
    const char *canonical = at->canonical;
    if (!sc_is_schema(json)) {
        char text[SC_ERROR_TEXT_LENGTH];
        snprintf(text, sizeof text, "a schema must be an object or a boolean, found %s", sc_json_type_name(json));
        cctx_error(c, SC_ERROR_INVALID_SCHEMA, canonical, text);
        return NULL;
    }
    if (c->depth >= SC_MAX_COMPILE_DEPTH) {
        cctx_error(c, SC_ERROR_LIMIT, canonical, "the schema is nested too deeply");
        return NULL;
    }
    const char *schema_uri = at->info ? at->info->schema_uri : at->schema_uri;
    json_t *own_schema = json_is_object(json) ? json_object_get(json, "$schema") : NULL;
    if (json_is_string(own_schema))
        schema_uri = json_string_value(own_schema);
    sc_resolved_dialect dialect;
    if (dialect_of(c, schema_uri, canonical, &dialect) < 0)
        return NULL;
    if (json_is_boolean(json) && dialect.draft == SC_DRAFT_4 && !at->boolean_allowed) {
        cctx_error(c, SC_ERROR_INVALID_SCHEMA, canonical,
                   "a draft-04 schema must be an object (boolean schemas came with draft-06)");
        return NULL;
    }
    sc_node *node = new_node(c, json, canonical);
    if (!node) {
        cctx_error(c, SC_ERROR_OUT_OF_MEMORY, canonical, "out of memory");
        return NULL;
    }
    node->resource = sc_compile_resource(c, at->base);
    if (!node->resource) {
        cctx_error(c, SC_ERROR_OUT_OF_MEMORY, canonical, "out of memory");
        return NULL;
    }
    node->draft = dialect.draft;
    if (json_is_boolean(json)) {
        node->boolean = json_is_true(json);
        return node;
    }
    node->boolean = -1;
    node->recursive_anchor = dialect.draft == SC_DRAFT_2019 && json_is_true(json_object_get(json, "$recursiveAnchor"));
    json_t *dynamic = dialect.draft == SC_DRAFT_2020 ? json_object_get(json, "$dynamicAnchor") : NULL;
    if (json_is_string(dynamic)) {
        node->dynamic_anchor = sc_strdup(json_string_value(dynamic));
        if (!node->dynamic_anchor) {
            cctx_error(c, SC_ERROR_OUT_OF_MEMORY, canonical, "out of memory");
            return NULL;
        }
    }

    sc_cnode cn = {json, at->info, at->base, canonical, schema_uri, dialect.draft, dialect.vocab, node};
    node->kws = calloc(json_object_size(json) + 1, sizeof *node->kws);
    if (!node->kws) {
        cctx_error(c, SC_ERROR_OUT_OF_MEMORY, canonical, "out of memory");
        return NULL;
    }
    node->capkws = json_object_size(json) + 1;
    int only_ref = sc_draft_ref_overrides(dialect.draft) && json_object_get(json, "$ref") != NULL;
    size_t nentries;
    const sc_keyword *table = sc_keyword_table(&nentries);
    c->depth++;
    for (size_t t = 0; t < nentries; t++) {
        const sc_keyword *entry = &table[t];
        if (!keyword_applies(entry, dialect.draft, dialect.vocab))
            continue;
        if (only_ref && entry->family != SC_FAMILY_REF)
            continue;
        json_t *value = json_object_get(json, entry->name);
        if (!value)
            continue;
        sc_kw *kw = &node->kws[node->nkws];
        memset(kw, 0, sizeof *kw);
        kw->def = entry;
        sc_buf abs;
        sc_buf_init(&abs);
        sc_buf_puts(&abs, canonical);
        sc_buf_pointer_token(&abs, entry->name, strlen(entry->name));
        kw->abs = sc_buf_take(&abs);
        sc_buf_free(&abs);
        int rc = kw->abs ? entry->compile(c, &cn, kw, value)
                         : sc_compile_fail(c, kw, SC_ERROR_OUT_OF_MEMORY, "out of memory");
        if (rc == SC_COMPILE_FAILED || sc_compile_failed(c)) {
            node->nkws++; /* so that its memory is freed with the node */
            c->depth--;
            return NULL;
        }
        if (rc == SC_COMPILE_KEEP && entry->validate) {
            node->nkws++;
            if (entry->traits & SC_TRAIT_READS_ANN)
                node->needs_ann = 1;
        } else {
            sc_kw_release(kw);
            memset(kw, 0, sizeof *kw);
        }
    }
    c->depth--;
    pair_object_keywords(node);
    return node;
}

static sc_node *compile_sub(sc_cctx *c, const sc_cnode *cn, json_t *sub, const char *suffix, int boolean_allowed)
{
    const sc_nodeinfo *info = find_node(c, sub);
    if (info) {
        place at = {info, base_of(c, info), info->canonical, NULL, boolean_allowed};
        return compile_json(c, sub, &at);
    }
    sc_buf canon;
    sc_buf_init(&canon);
    sc_buf_puts(&canon, cn->canonical);
    sc_buf_puts(&canon, suffix);
    sc_node *node = NULL;
    if (!canon.failed) {
        place at = {NULL, cn->base, sc_buf_cstr(&canon), cn->schema_uri, boolean_allowed};
        node = compile_json(c, sub, &at);
    } else {
        cctx_error(c, SC_ERROR_OUT_OF_MEMORY, cn->canonical, "out of memory");
    }
    sc_buf_free(&canon);
    return node;
}

sc_node *sc_compile_sub(sc_cctx *c, const sc_cnode *cn, json_t *sub, const char *suffix)
{
    return compile_sub(c, cn, sub, suffix, 0);
}

sc_node *sc_compile_keyword_schema(sc_cctx *c, const sc_cnode *cn, const sc_kw *kw, json_t *value)
{
    int boolean_allowed = (kw->def->traits & SC_TRAIT_BOOLEAN_IN_DRAFT4) != 0;
    if (!sc_is_schema(value) || (json_is_boolean(value) && cn->draft == SC_DRAFT_4 && !boolean_allowed)) {
        sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"%s\" must be a schema%s", kw->def->name,
                        cn->draft == SC_DRAFT_4 ? " (an object in draft-04)" : "");
        return NULL;
    }
    char suffix[64];
    snprintf(suffix, sizeof suffix, "/%s", kw->def->name);
    return compile_sub(c, cn, value, suffix, boolean_allowed);
}

/* Resolves an absolute URI (with optional fragment) to its JSON and where it is. */
static json_t *resolve_uri(const sc_cctx *c, const char *uri, place *at)
{
    size_t blen = sc_uri_base_length(uri);
    const sc_nodeinfo *resource = find_resource(c, uri, blen);
    if (!resource)
        return NULL;
    const char *fragment = uri[blen] == '#' ? uri + blen + 1 : "";
    json_t *target = NULL;
    if (fragment[0] == '\0') {
        target = resource->node;
    } else if (fragment[0] == '/') {
        size_t len;
        char *pointer = sc_percent_decode(fragment, strlen(fragment), &len);
        if (!pointer)
            return NULL;
        target = sc_pointer_follow(resource->node, pointer, len);
        free(pointer);
    } else {
        size_t len;
        char *decoded = sc_percent_decode(uri, strlen(uri), &len);
        if (!decoded)
            return NULL;
        const sc_nodeinfo *anchor = sc_index_anchor(c->local, decoded);
        if (!anchor)
            anchor = sc_index_anchor(c->reg, decoded);
        free(decoded);
        if (!anchor)
            return NULL;
        target = anchor->node;
    }
    if (!target)
        return NULL;
    const sc_nodeinfo *info = find_node(c, target);
    at->info = info;
    at->base = info ? base_of(c, info) : base_of(c, resource);
    at->canonical = info ? info->canonical : uri;
    at->schema_uri = resource->schema_uri;
    at->boolean_allowed = 0;
    return target;
}

static sc_node *compile_uri(sc_cctx *c, const char *uri, const char *location)
{
    place at;
    json_t *target = resolve_uri(c, uri, &at);
    if (!target) {
        char text[SC_ERROR_TEXT_LENGTH];
        snprintf(text, sizeof text, "cannot resolve the reference \"%s\"", uri);
        cctx_error(c, SC_ERROR_UNRESOLVED_REFERENCE, location, text);
        return NULL;
    }
    return compile_json(c, target, &at);
}

sc_node *sc_compile_reference(sc_cctx *c, const sc_cnode *cn, const char *ref, const char *keyword_abs)
{
    char *uri = sc_uri_resolve(cn->base, ref);
    if (!uri) {
        cctx_error(c, SC_ERROR_OUT_OF_MEMORY, keyword_abs, "out of memory");
        return NULL;
    }
    sc_node *node = compile_uri(c, uri, keyword_abs);
    free(uri);
    return node;
}

/* 2019-09: the root of a resource that says "$recursiveAnchor": true, for $recursiveRef.
 * 1 when it was compiled now, 0 when there is nothing to do, -1 on error. */
static int compile_recursive_root(sc_cctx *c, size_t r)
{
    sc_resource_rt *res = c->schema->resources[r];
    if (res->recursive_checked)
        return 0;
    res->recursive_checked = 1;
    const sc_nodeinfo *root = find_resource(c, res->uri, strlen(res->uri));
    if (!root || !json_is_object(root->node) || !json_is_true(json_object_get(root->node, "$recursiveAnchor")))
        return 0;
    place at = {root, base_of(c, root), root->canonical, NULL, 0};
    sc_node *node = compile_json(c, root->node, &at);
    if (!node)
        return -1;
    if (!node->recursive_anchor)
        return 0;
    c->schema->resources[r]->recursive_root = node; /* the array may have grown */
    return 1;
}

/* Compiles, for every resource reached, the $dynamicAnchor targets that a $dynamicRef
 * could jump to at validation time, and the roots a $recursiveRef could jump to. Repeats
 * until nothing new is reached. */
static int compile_dynamic_anchors(sc_cctx *c)
{
    int changed = 1;
    while (changed) {
        changed = 0;
        for (size_t r = 0; c->recursive_refs && r < c->schema->nresources; r++) {
            int rc = compile_recursive_root(c, r);
            if (rc < 0)
                return -1;
            if (rc > 0)
                changed = 1;
        }
        for (size_t r = 0; r < c->schema->nresources; r++) {
            for (size_t d = 0; d < c->ndyn; d++) {
                sc_resource_rt *res = c->schema->resources[r];
                const sc_str *name = &c->dyn_names[d];
                int known = 0;
                for (size_t k = 0; k < res->nanchors; k++)
                    if (res->anchor_names[k].len == name->len &&
                        memcmp(res->anchor_names[k].s, name->s, name->len) == 0)
                        known = 1;
                if (known)
                    continue;
                sc_buf key;
                sc_buf_init(&key);
                sc_buf_puts(&key, res->uri);
                sc_buf_append(&key, "#", 1);
                sc_buf_append(&key, name->s, name->len);
                const sc_nodeinfo *anchor = key.failed ? NULL : sc_index_anchor(c->local, sc_buf_cstr(&key));
                if (!anchor && !key.failed)
                    anchor = sc_index_anchor(c->reg, sc_buf_cstr(&key));
                sc_buf_free(&key);
                if (!anchor || !json_is_object(anchor->node))
                    continue;
                json_t *dyn = json_object_get(anchor->node, "$dynamicAnchor");
                if (!json_is_string(dyn) || json_string_length(dyn) != name->len ||
                    memcmp(json_string_value(dyn), name->s, name->len) != 0)
                    continue;
                place at = {anchor, base_of(c, anchor), anchor->canonical, NULL, 0};
                sc_node *node = compile_json(c, anchor->node, &at);
                if (!node)
                    return -1;
                res = c->schema->resources[r]; /* the array may have grown */
                if (res->nanchors == res->capanchors) {
                    size_t cap = res->capanchors ? res->capanchors * 2 : 4;
                    sc_str *names = realloc(res->anchor_names, cap * sizeof *names);
                    if (!names)
                        return -1;
                    res->anchor_names = names;
                    sc_node **nodes = realloc(res->anchor_nodes, cap * sizeof *nodes);
                    if (!nodes)
                        return -1;
                    res->anchor_nodes = nodes;
                    res->capanchors = cap;
                }
                res->anchor_names[res->nanchors].s = sc_strndup(name->s, name->len);
                if (!res->anchor_names[res->nanchors].s)
                    return -1;
                res->anchor_names[res->nanchors].len = name->len;
                res->anchor_nodes[res->nanchors] = node;
                res->nanchors++;
                changed = 1;
            }
        }
    }
    return 0;
}

/* ---- public API ----------------------------------------------------------------------- */

const char *sc_schema_loop_location(const sc_schema *schema)
{
    return schema ? schema->loop_location : NULL;
}

void sc_schema_free(sc_schema *schema)
{
    if (!schema)
        return;
    for (size_t i = 0; i < schema->nnodes; i++) {
        sc_node *node = schema->nodes[i];
        for (size_t k = 0; k < node->nkws; k++)
            sc_kw_release(&node->kws[k]);
        free(node->kws);
        free(node->canonical);
        free(node->dynamic_anchor);
        free(node);
    }
    free(schema->nodes);
    free(schema->loop_location);
    for (size_t i = 0; i < schema->nresources; i++) {
        sc_resource_rt *r = schema->resources[i];
        for (size_t k = 0; k < r->nanchors; k++)
            free(r->anchor_names[k].s);
        free(r->anchor_names);
        free(r->anchor_nodes);
        free(r->uri);
        free(r);
    }
    free(schema->resources);
    free(schema);
}

static void cctx_free(sc_cctx *c)
{
    sc_map_free(&c->memo);
    sc_map_free(&c->res_memo);
    for (size_t i = 0; i < c->ndyn; i++)
        free(c->dyn_names[i].s);
    free(c->dyn_names);
}

static sc_schema *compile_common(const sc_index *local, const sc_index *reg, const char *uri, json_t *doc,
                                 const sc_options *opts, sc_error *error)
{
    sc_options defaults;
    if (!opts) {
        sc_options_init(&defaults);
        opts = &defaults;
    }
    sc_error scratch;
    if (!error)
        error = &scratch;
    memset(error, 0, sizeof *error);
    sc_schema *schema = calloc(1, sizeof *schema);
    if (!schema) {
        sc_error_set(error, SC_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
        return NULL;
    }
    schema->max_depth = opts->max_validation_depth ? opts->max_validation_depth : SC_DEFAULT_MAX_DEPTH;
    schema->assert_format = opts->assert_format;
    sc_cctx c;
    memset(&c, 0, sizeof c);
    c.local = local;
    c.reg = reg;
    c.opts = opts;
    c.schema = schema;
    c.error = error;
    sc_map_init(&c.memo);
    sc_map_init(&c.res_memo);
    if (doc) {
        const sc_nodeinfo *info = &local->infos[0]; /* the root of the one local document */
        place at = {info, base_of(&c, info), info->canonical, NULL, 0};
        schema->root = compile_json(&c, doc, &at);
    } else {
        char *resolved = sc_uri_resolve("", uri);
        schema->root = resolved ? compile_uri(&c, resolved, uri) : NULL;
        free(resolved);
    }
    if (schema->root && compile_dynamic_anchors(&c) < 0)
        schema->root = NULL;
    if (schema->root && !sc_compile_failed(&c) && sc_find_loops(schema) < 0)
        schema->root = NULL;
    if (!schema->root || sc_compile_failed(&c)) {
        if (!sc_compile_failed(&c))
            sc_error_set(error, SC_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
        cctx_free(&c);
        sc_schema_free(schema);
        return NULL;
    }
    cctx_free(&c);
    return schema;
}

sc_schema *sc_compile(const sc_registry *registry, const char *uri, const sc_options *opts, sc_error *error)
{
    if (!registry || !uri) {
        sc_error_set(error, SC_ERROR_USAGE, NULL, "a registry and a URI are needed");
        return NULL;
    }
    return compile_common(NULL, &registry->index, uri, NULL, opts, error);
}

sc_schema *sc_compile_document(json_t *document, const sc_registry *registry, const sc_options *opts, sc_error *error)
{
    if (error)
        memset(error, 0, sizeof *error);
    if (!sc_is_schema(document)) {
        sc_error_set(error, SC_ERROR_INVALID_SCHEMA, NULL, "a schema must be an object or a boolean");
        return NULL;
    }
    sc_index local;
    sc_index_init(&local, sc_draft_from_dialect(opts ? opts->default_dialect : SC_DIALECT_2020_12),
                  registry ? &registry->index : NULL);
    if (sc_index_add(&local, NULL, document, error) < 0) {
        sc_index_free(&local);
        return NULL;
    }
    sc_schema *schema = compile_common(&local, registry ? &registry->index : NULL, NULL, document, opts, error);
    sc_index_free(&local);
    return schema;
}
