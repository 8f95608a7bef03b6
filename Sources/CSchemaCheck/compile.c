/*
 * compile.c: turning schema JSON into compiled nodes.
 *
 * Nodes are compiled lazily and memoized by the address of their JSON, so a $ref cycle
 * becomes a cycle in the node graph instead of endless recursion. Each schema resource
 * decides its dialect through "$schema" (draft 2020-12, draft-07, or a registered
 * meta-schema whose "$vocabulary" switches keyword families on and off).
 */
#include "sc_internal.h"

#include <stdlib.h>
#include <string.h>

#define SC_DRAFT7_URI "http://json-schema.org/draft-07/schema"
#define SC_2020_URI "https://json-schema.org/draft/2020-12/schema"
#define SC_2019_URI "https://json-schema.org/draft/2019-09/schema"
#define SC_VOCAB_PREFIX "https://json-schema.org/draft/2020-12/vocab/"
#define SC_DEFAULT_MAX_DEPTH 512u
#define SC_MAX_COMPILE_DEPTH 1000u

void sc_options_init(sc_options *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    opts->default_dialect = SC_DIALECT_2020_12;
    opts->assert_format = 0;
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
        return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"%s\" must be a non-negative integer",
                               kw->def->name);
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
            return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"%s\" must be an array of strings",
                                   kw->def->name);
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
            return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"%s\" must be an array of schemas",
                                   kw->def->name);
        char suffix[64];
        snprintf(suffix, sizeof suffix, "/%s/%zu", kw->def->name, i);
        (*out)[i] = sc_compile_sub(c, cn, item, suffix);
        if (!(*out)[i])
            return SC_COMPILE_FAILED;
    }
    return 0;
}

sc_node *sc_compile_keyword_schema(sc_cctx *c, const sc_cnode *cn, const sc_kw *kw, json_t *value)
{
    if (!sc_is_schema(value)) {
        sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"%s\" must be a schema", kw->def->name);
        return NULL;
    }
    char suffix[64];
    snprintf(suffix, sizeof suffix, "/%s", kw->def->name);
    return sc_compile_sub(c, cn, value, suffix);
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

static int uri_is(const char *uri, const char *known)
{
    size_t n = strlen(known);
    return strncmp(uri, known, n) == 0 && (uri[n] == '\0' || (uri[n] == '#' && uri[n + 1] == '\0'));
}

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

/* Works out draft and vocabularies for a "$schema" URI. 0 ok, -1 error set. */
static int dialect_of(sc_cctx *c, const char *schema_uri, int *draft7, unsigned *vocab, int hops)
{
    if (!schema_uri) {
        *draft7 = c->opts->default_dialect == SC_DIALECT_DRAFT7;
        *vocab = SC_VOC_ALL & ~SC_VOC_FORMAT_ASSERTION;
        return 0;
    }
    if (uri_is(schema_uri, SC_DRAFT7_URI)) {
        *draft7 = 1;
        *vocab = SC_VOC_ALL & ~SC_VOC_FORMAT_ASSERTION;
        return 0;
    }
    /* 2019-09 is not supported as such; 2020-12 with 2019-09 arrays is its closest reading. */
    if (uri_is(schema_uri, SC_2020_URI) || uri_is(schema_uri, SC_2019_URI)) {
        *draft7 = 0;
        *vocab = SC_VOC_ALL & ~SC_VOC_FORMAT_ASSERTION;
        if (uri_is(schema_uri, SC_2019_URI))
            *vocab |= SC_VOC_2019_ITEMS;
        return 0;
    }
    const sc_nodeinfo *meta = find_resource(c, schema_uri, sc_uri_base_length(schema_uri));
    if (!meta || !json_is_object(meta->node) || hops > 8) {
        /* An unknown meta-schema: read the schema with the default dialect. */
        *draft7 = c->opts->default_dialect == SC_DIALECT_DRAFT7;
        *vocab = SC_VOC_ALL & ~SC_VOC_FORMAT_ASSERTION;
        return 0;
    }
    json_t *own = json_object_get(meta->node, "$schema");
    const char *own_uri = json_is_string(own) ? json_string_value(own) : NULL;
    if (own_uri && strcmp(own_uri, schema_uri) == 0)
        own_uri = SC_2020_URI;
    if (dialect_of(c, own_uri, draft7, vocab, hops + 1) < 0)
        return -1;
    json_t *vocabulary = json_object_get(meta->node, "$vocabulary");
    if (*draft7 || !json_is_object(vocabulary))
        return 0;
    static const struct {
        const char *name;
        unsigned bit;
    } known[] = {
        {"core", SC_VOC_CORE},
        {"applicator", SC_VOC_APPLICATOR},
        {"unevaluated", SC_VOC_UNEVALUATED},
        {"validation", SC_VOC_VALIDATION},
        {"format-annotation", SC_VOC_FORMAT_ANNOTATION},
        {"format-assertion", SC_VOC_FORMAT_ASSERTION},
        {"content", SC_VOC_CONTENT},
        {"meta-data", SC_VOC_METADATA},
    };
    unsigned bits = 0;
    for (void *it = json_object_iter(vocabulary); it; it = json_object_iter_next(vocabulary, it)) {
        const char *name = json_object_iter_key(it);
        int required = json_is_true(json_object_iter_value(it));
        size_t plen = strlen(SC_VOCAB_PREFIX);
        unsigned bit = 0;
        if (strncmp(name, SC_VOCAB_PREFIX, plen) == 0)
            for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
                if (strcmp(name + plen, known[i].name) == 0)
                    bit = known[i].bit;
        if (!bit && required) {
            char text[SC_ERROR_TEXT_LENGTH];
            snprintf(text, sizeof text, "the meta-schema requires the unsupported vocabulary \"%s\"", name);
            cctx_error(c, SC_ERROR_UNKNOWN_DIALECT, schema_uri, text);
            return -1;
        }
        bits |= bit;
    }
    *vocab = bits | SC_VOC_CORE;
    return 0;
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
    if (!node->canonical || sc_map_put_ptr(&c->memo, json, s->nnodes) < 0) {
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
static int keyword_applies(const sc_keyword *entry, int draft7, unsigned vocab)
{
    int legacy_items = (vocab & SC_VOC_2019_ITEMS) != 0;
    /* 2019-09 read as 2020-12: its array items and additionalItems, no prefixItems */
    if (legacy_items && entry->compile == sc_compile_prefix_items)
        return 0;
    if (legacy_items && entry->compile == sc_compile_additional_items)
        return (vocab & entry->vocab) != 0;
    if (!(entry->dialects & (draft7 ? SC_IN_7 : SC_IN_2020)))
        return 0;
    return draft7 || (vocab & entry->vocab) != 0;
}

static sc_node *compile_json(sc_cctx *c, json_t *json, const sc_nodeinfo *info, const char *base,
                             const char *canonical)
{
    size_t existing;
    if (sc_map_get_ptr(&c->memo, json, &existing))
        return c->schema->nodes[existing];
    if (sc_compile_failed(c))
        return NULL;
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
    sc_node *node = new_node(c, json, canonical);
    if (!node) {
        cctx_error(c, SC_ERROR_OUT_OF_MEMORY, canonical, "out of memory");
        return NULL;
    }
    node->resource = sc_compile_resource(c, base);
    if (!node->resource) {
        cctx_error(c, SC_ERROR_OUT_OF_MEMORY, canonical, "out of memory");
        return NULL;
    }
    if (json_is_boolean(json)) {
        node->boolean = json_is_true(json);
        return node;
    }
    node->boolean = -1;
    const char *schema_uri = info ? info->schema_uri : NULL;
    json_t *own_schema = json_object_get(json, "$schema");
    if (json_is_string(own_schema))
        schema_uri = json_string_value(own_schema);
    int draft7;
    unsigned vocab;
    if (dialect_of(c, schema_uri, &draft7, &vocab, 0) < 0)
        return NULL;
    node->draft7 = draft7;
    json_t *dynamic = draft7 ? NULL : json_object_get(json, "$dynamicAnchor");
    if (json_is_string(dynamic)) {
        node->dynamic_anchor = sc_strdup(json_string_value(dynamic));
        if (!node->dynamic_anchor) {
            cctx_error(c, SC_ERROR_OUT_OF_MEMORY, canonical, "out of memory");
            return NULL;
        }
    }

    sc_cnode cn = {json, info, base, canonical, draft7, vocab, node};
    node->kws = calloc(json_object_size(json) + 1, sizeof *node->kws);
    if (!node->kws) {
        cctx_error(c, SC_ERROR_OUT_OF_MEMORY, canonical, "out of memory");
        return NULL;
    }
    node->capkws = json_object_size(json) + 1;
    /* draft-07: keywords beside $ref are ignored */
    int only_ref = draft7 && json_object_get(json, "$ref") != NULL;
    size_t nentries;
    const sc_keyword *table = sc_keyword_table(&nentries);
    c->depth++;
    for (size_t t = 0; t < nentries; t++) {
        const sc_keyword *entry = &table[t];
        if (!keyword_applies(entry, draft7, vocab))
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

sc_node *sc_compile_sub(sc_cctx *c, const sc_cnode *cn, json_t *sub, const char *suffix)
{
    const sc_nodeinfo *info = find_node(c, sub);
    if (info)
        return compile_json(c, sub, info, base_of(c, info), info->canonical);
    sc_buf canon;
    sc_buf_init(&canon);
    sc_buf_puts(&canon, cn->canonical);
    sc_buf_puts(&canon, suffix);
    sc_node *node = NULL;
    if (!canon.failed)
        node = compile_json(c, sub, NULL, cn->base, sc_buf_cstr(&canon));
    else
        cctx_error(c, SC_ERROR_OUT_OF_MEMORY, cn->canonical, "out of memory");
    sc_buf_free(&canon);
    return node;
}

/* Resolves an absolute URI (with optional fragment) to its JSON; fills info/base. */
static json_t *resolve_uri(const sc_cctx *c, const char *uri, const sc_nodeinfo **info_out, const char **base_out)
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
    *info_out = info;
    *base_out = info ? base_of(c, info) : base_of(c, resource);
    return target;
}

static sc_node *compile_uri(sc_cctx *c, const char *uri, const char *location)
{
    const sc_nodeinfo *info = NULL;
    const char *base = NULL;
    json_t *target = resolve_uri(c, uri, &info, &base);
    if (!target) {
        char text[SC_ERROR_TEXT_LENGTH];
        snprintf(text, sizeof text, "cannot resolve the reference \"%s\"", uri);
        cctx_error(c, SC_ERROR_UNRESOLVED_REFERENCE, location, text);
        return NULL;
    }
    return compile_json(c, target, info, base, info ? info->canonical : uri);
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

/* Compiles, for every resource reached, the $dynamicAnchor targets that a $dynamicRef
 * could jump to at validation time. Repeats until nothing new is reached. */
static int compile_dynamic_anchors(sc_cctx *c)
{
    int changed = 1;
    while (changed) {
        changed = 0;
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
                sc_node *node = compile_json(c, anchor->node, anchor, base_of(c, anchor), anchor->canonical);
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

/* Finds a cycle of in-place applications ($ref, allOf, anyOf, oneOf, not, if/then/else,
 * dependentSchemas and $dynamicRef's static target): such a loop applies the schema to the
 * same instance location forever, so it is a broken schema. Iterative DFS, no recursion. */
static int check_in_place_cycles(sc_cctx *c)
{
    sc_schema *s = c->schema;
    size_t n = s->nnodes;
    unsigned char *color = calloc(n ? n : 1, 1); /* 0 new, 1 on the stack, 2 done */
    size_t *stack_node = malloc((n ? n : 1) * sizeof *stack_node);
    size_t *stack_edge = malloc((n ? n : 1) * sizeof *stack_edge);
    if (!color || !stack_node || !stack_edge) {
        free(color);
        free(stack_node);
        free(stack_edge);
        cctx_error(c, SC_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
        return -1;
    }
    int result = 0;
    for (size_t start = 0; start < n && result == 0; start++) {
        if (color[start])
            continue;
        size_t depth = 0;
        stack_node[0] = start;
        stack_edge[0] = 0;
        color[start] = 1;
        depth = 1;
        while (depth > 0 && result == 0) {
            const sc_node *node = s->nodes[stack_node[depth - 1]];
            /* edges are numbered across the children of the in-place keywords, in order */
            size_t edge = stack_edge[depth - 1]++;
            const sc_node *next = NULL;
            int exhausted = 1;
            for (size_t k = 0; k < node->nkws; k++) {
                const sc_kw *kw = &node->kws[k];
                if (!(kw->def->traits & SC_TRAIT_IN_PLACE))
                    continue;
                size_t count = sc_kw_child_count(kw);
                if (edge < count) {
                    next = sc_kw_child(kw, edge);
                    exhausted = 0;
                    break;
                }
                edge -= count;
            }
            if (exhausted) {
                color[stack_node[depth - 1]] = 2;
                depth--;
                continue;
            }
            if (!next || next->boolean != -1)
                continue;
            if (color[next->index] == 1) {
                char text[SC_ERROR_TEXT_LENGTH];
                snprintf(text, sizeof text,
                         "the schema applies itself to the same value in a loop ($ref cycle with no "
                         "property or item in between)");
                cctx_error(c, SC_ERROR_INVALID_SCHEMA, next->canonical, text);
                result = -1;
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
    return result;
}

/* ---- public API ----------------------------------------------------------------------- */

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
        const sc_nodeinfo *info = sc_index_node(local, doc);
        schema->root = info ? compile_json(&c, doc, info, base_of(&c, info), info->canonical) : NULL;
    } else {
        char *resolved = sc_uri_resolve("", uri);
        schema->root = resolved ? compile_uri(&c, resolved, uri) : NULL;
        free(resolved);
    }
    if (schema->root && compile_dynamic_anchors(&c) < 0)
        schema->root = NULL;
    if (schema->root && !sc_compile_failed(&c) && check_in_place_cycles(&c) < 0)
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

sc_schema *sc_compile_document(json_t *document, const sc_registry *registry, const sc_options *opts,
                               sc_error *error)
{
    if (error)
        memset(error, 0, sizeof *error);
    if (!sc_is_schema(document)) {
        sc_error_set(error, SC_ERROR_INVALID_SCHEMA, NULL, "a schema must be an object or a boolean");
        return NULL;
    }
    sc_index local;
    sc_index_init(&local);
    int draft7 = opts && opts->default_dialect == SC_DIALECT_DRAFT7;
    if (sc_index_add(&local, NULL, document, draft7, error) < 0) {
        sc_index_free(&local);
        return NULL;
    }
    sc_schema *schema = compile_common(&local, registry ? &registry->index : NULL, NULL, document, opts, error);
    sc_index_free(&local);
    return schema;
}
