/*
 * registry.c: schema documents by URI, their embedded resources ($id) and anchors, and
 * for every schema object its base URI and canonical location.
 *
 * Documents are walked once when added. Only keywords that hold subschemas are entered,
 * so an "$id" inside "const", "enum" or an unknown keyword is data, not an identifier.
 */
#include "sc_internal.h"

#include <stdlib.h>
#include <string.h>

#define SC_DRAFT7_URI "http://json-schema.org/draft-07/schema"
#define SC_2020_URI "https://json-schema.org/draft/2020-12/schema"

void sc_index_init(sc_index *idx)
{
    memset(idx, 0, sizeof *idx);
    sc_map_init(&idx->resources);
    sc_map_init(&idx->anchors);
    sc_map_init(&idx->nodes);
}

void sc_index_free(sc_index *idx)
{
    sc_map_free(&idx->resources);
    sc_map_free(&idx->anchors);
    sc_map_free(&idx->nodes);
    for (size_t i = 0; i < idx->ninfos; i++)
        free(idx->infos[i].canonical);
    free(idx->infos);
    for (size_t i = 0; i < idx->nuris; i++)
        free(idx->uris[i]);
    free(idx->uris);
    for (size_t i = 0; i < idx->ndocs; i++)
        json_decref(idx->docs[i]);
    free(idx->docs);
    memset(idx, 0, sizeof *idx);
}

static int grow(void **items, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t next = *cap ? *cap * 2 : 16;
    while (next < need)
        next *= 2;
    void *grown = realloc(*items, next * size);
    if (!grown)
        return -1;
    *items = grown;
    *cap = next;
    return 0;
}

/* In the walk, draft7 is 1 for draft-07, 0 for 2020-12 and -1 when the document does not
 * say (then both kinds of plain-name identifiers are indexed). */

/* Takes ownership of uri. Returns its index or (size_t)-1. */
static size_t add_uri(sc_index *idx, char *uri)
{
    if (!uri)
        return (size_t)-1;
    if (grow((void **)&idx->uris, &idx->capuris, idx->nuris + 1, sizeof *idx->uris) < 0) {
        free(uri);
        return (size_t)-1;
    }
    idx->uris[idx->nuris] = uri;
    return idx->nuris++;
}

typedef struct walk_state {
    sc_index *idx;
    sc_error *error;
    int failed;
} walk_state;

static int is_draft7_uri(const char *uri)
{
    size_t n = strlen(SC_DRAFT7_URI);
    return strncmp(uri, SC_DRAFT7_URI, n) == 0 && (uri[n] == '\0' || (uri[n] == '#' && uri[n + 1] == '\0'));
}

static void walk(walk_state *w, json_t *node, size_t base, const char *resource_uri, sc_buf *pointer,
                 const char *schema_uri, int draft7);

static void walk_keyword(walk_state *w, json_t *value, const char *keyword, int shape, size_t base,
                         const char *resource_uri, sc_buf *pointer, const char *schema_uri, int draft7)
{
    /* shape: 1 schema, 2 array of schemas, 3 map of schemas; 4 schema or array */
    size_t mark = pointer->len;
    sc_buf_pointer_token(pointer, keyword, strlen(keyword));
    if ((shape == 1 || shape == 4) && (json_is_object(value) || json_is_boolean(value))) {
        walk(w, value, base, resource_uri, pointer, schema_uri, draft7);
    } else if ((shape == 2 || shape == 4) && json_is_array(value)) {
        for (size_t i = 0; i < json_array_size(value); i++) {
            size_t m2 = pointer->len;
            sc_buf_printf(pointer, "/%zu", i);
            walk(w, json_array_get(value, i), base, resource_uri, pointer, schema_uri, draft7);
            sc_buf_truncate(pointer, m2);
        }
    } else if (shape == 3 && json_is_object(value)) {
        for (void *it = json_object_iter(value); it; it = json_object_iter_next(value, it)) {
            json_t *sub = json_object_iter_value(it);
            if (!json_is_object(sub) && !json_is_boolean(sub))
                continue;
            size_t m2 = pointer->len;
            sc_buf_pointer_token(pointer, json_object_iter_key(it), json_object_iter_key_len(it));
            walk(w, sub, base, resource_uri, pointer, schema_uri, draft7);
            sc_buf_truncate(pointer, m2);
        }
    }
    sc_buf_truncate(pointer, mark);
}

static const struct {
    const char *name;
    int shape;
} sub_keywords[] = {
    {"additionalItems", 1}, {"additionalProperties", 1}, {"contains", 1},     {"else", 1},
    {"if", 1},              {"items", 4},                {"not", 1},          {"propertyNames", 1},
    {"then", 1},            {"unevaluatedItems", 1},     {"unevaluatedProperties", 1},
    {"contentSchema", 1},   {"allOf", 2},                {"anyOf", 2},        {"oneOf", 2},
    {"prefixItems", 2},     {"$defs", 3},                {"definitions", 3},  {"properties", 3},
    {"patternProperties", 3}, {"dependentSchemas", 3},   {"dependencies", 3},
};

static size_t add_info(walk_state *w, json_t *node, size_t base, const char *resource_uri, const sc_buf *pointer,
                       const char *schema_uri)
{
    sc_index *idx = w->idx;
    if (grow((void **)&idx->infos, &idx->capinfos, idx->ninfos + 1, sizeof *idx->infos) < 0)
        return (size_t)-1;
    sc_buf canon;
    sc_buf_init(&canon);
    sc_buf_puts(&canon, resource_uri);
    sc_buf_append(&canon, "#", 1);
    sc_buf_append(&canon, sc_buf_cstr(pointer), pointer->len);
    char *text = sc_buf_take(&canon);
    sc_buf_free(&canon);
    if (!text)
        return (size_t)-1;
    sc_nodeinfo *info = &idx->infos[idx->ninfos];
    info->node = node;
    info->base = base;
    info->canonical = text;
    info->schema_uri = schema_uri;
    if (sc_map_put_ptr(&idx->nodes, node, idx->ninfos) < 0) {
        free(text);
        return (size_t)-1;
    }
    return idx->ninfos++;
}

static void put_anchor(walk_state *w, const char *base_uri, const char *name, size_t info)
{
    sc_buf key;
    sc_buf_init(&key);
    sc_buf_puts(&key, base_uri);
    sc_buf_append(&key, "#", 1);
    sc_buf_puts(&key, name);
    if (key.failed || sc_map_put(&w->idx->anchors, sc_buf_cstr(&key), key.len, info, 0) < 0)
        w->failed = 1;
    sc_buf_free(&key);
}

static void walk(walk_state *w, json_t *node, size_t base, const char *resource_uri, sc_buf *pointer,
                 const char *schema_uri, int draft7)
{
    if (w->failed)
        return;
    sc_index *idx = w->idx;
    if (!json_is_object(node)) {
        if (add_info(w, node, base, resource_uri, pointer, schema_uri) == (size_t)-1)
            w->failed = 1;
        return;
    }
    json_t *schema = json_object_get(node, "$schema");
    if (json_is_string(schema)) {
        schema_uri = json_string_value(schema);
        draft7 = is_draft7_uri(schema_uri);
    }
    json_t *id = json_object_get(node, "$id");
    const char *anchor7 = NULL; /* draft-07 "#name" identifiers */
    sc_buf local_pointer;
    sc_buf_init(&local_pointer);
    sc_buf *ptr = pointer;
    if (json_is_string(id) && !(draft7 == 1 && json_object_get(node, "$ref"))) {
        const char *text = json_string_value(id);
        if (text[0] == '#') {
            if (draft7 != 0)
                anchor7 = text + 1;
        } else {
            char *resolved = sc_uri_resolve(idx->uris[base], text);
            if (!resolved) {
                w->failed = 1;
                return;
            }
            size_t blen = sc_uri_base_length(resolved);
            if (resolved[blen] == '#' && draft7 != 0)
                anchor7 = text + sc_uri_base_length(text) + 1;
            resolved[blen] = '\0';
            base = add_uri(idx, resolved);
            if (base == (size_t)-1) {
                w->failed = 1;
                return;
            }
            resource_uri = idx->uris[base];
            ptr = &local_pointer;
        }
    }
    size_t info = add_info(w, node, base, resource_uri, ptr, schema_uri);
    if (info == (size_t)-1) {
        w->failed = 1;
        sc_buf_free(&local_pointer);
        return;
    }
    if (ptr == &local_pointer) {
        if (sc_map_put(&idx->resources, resource_uri, strlen(resource_uri), info, 0) < 0)
            w->failed = 1;
    }
    if (anchor7 && *anchor7)
        put_anchor(w, resource_uri, anchor7, info);
    if (draft7 != 1) {
        json_t *anchor = json_object_get(node, "$anchor");
        if (json_is_string(anchor))
            put_anchor(w, resource_uri, json_string_value(anchor), info);
        json_t *dynamic = json_object_get(node, "$dynamicAnchor");
        if (json_is_string(dynamic))
            put_anchor(w, resource_uri, json_string_value(dynamic), info);
    }
    if (draft7 == 1 && json_object_get(node, "$ref")) {
        /* draft-07: $ref siblings are ignored, but definitions may still be referenced by pointer */
        json_t *defs = json_object_get(node, "definitions");
        if (defs)
            walk_keyword(w, defs, "definitions", 3, base, resource_uri, ptr, schema_uri, draft7);
    } else {
        for (size_t i = 0; i < sizeof sub_keywords / sizeof sub_keywords[0]; i++) {
            json_t *value = json_object_get(node, sub_keywords[i].name);
            if (value)
                walk_keyword(w, value, sub_keywords[i].name, sub_keywords[i].shape, base, resource_uri, ptr,
                             schema_uri, draft7);
        }
    }
    if (local_pointer.failed)
        w->failed = 1;
    sc_buf_free(&local_pointer);
}

int sc_index_add(sc_index *idx, const char *uri, json_t *doc, int draft7_walk, sc_error *error)
{
    if (!doc || (!json_is_object(doc) && !json_is_boolean(doc))) {
        sc_error_set(error, SC_ERROR_INVALID_SCHEMA, uri, "a schema must be an object or a boolean");
        return -1;
    }
    if (grow((void **)&idx->docs, &idx->capdocs, idx->ndocs + 1, sizeof *idx->docs) < 0) {
        sc_error_set(error, SC_ERROR_OUT_OF_MEMORY, uri, "out of memory");
        return -1;
    }
    idx->docs[idx->ndocs++] = json_incref(doc);

    char *given = uri ? sc_uri_resolve("", uri) : sc_strdup("");
    if (given)
        given[sc_uri_base_length(given)] = '\0';
    size_t base = add_uri(idx, given);
    if (base == (size_t)-1) {
        sc_error_set(error, SC_ERROR_OUT_OF_MEMORY, uri, "out of memory");
        return -1;
    }
    walk_state w = {idx, error, 0};
    sc_buf pointer;
    sc_buf_init(&pointer);
    size_t before = idx->ninfos;
    json_t *schema = json_is_object(doc) ? json_object_get(doc, "$schema") : NULL;
    if (json_is_string(schema))
        draft7_walk = is_draft7_uri(json_string_value(schema));
    walk(&w, doc, base, idx->uris[base], &pointer, NULL, draft7_walk);
    sc_buf_free(&pointer);
    if (w.failed || idx->ninfos == before) {
        sc_error_set(error, SC_ERROR_OUT_OF_MEMORY, uri, "out of memory");
        return -1;
    }
    /* The document root answers to the given URI (which wins over earlier entries) and to
     * its own $id when it has one (the walk registered that one). */
    size_t root = before;
    if (uri) {
        if (sc_map_put(&idx->resources, idx->uris[base], strlen(idx->uris[base]), root, 1) < 0) {
            sc_error_set(error, SC_ERROR_OUT_OF_MEMORY, uri, "out of memory");
            return -1;
        }
    } else {
        const char *own = idx->uris[idx->infos[root].base];
        if (sc_map_put(&idx->resources, own, strlen(own), root, 1) < 0) {
            sc_error_set(error, SC_ERROR_OUT_OF_MEMORY, uri, "out of memory");
            return -1;
        }
    }
    return 0;
}

const sc_nodeinfo *sc_index_resource(const sc_index *idx, const char *uri, size_t len)
{
    size_t i;
    if (!idx || !sc_map_get(&idx->resources, uri, len, &i))
        return NULL;
    return &idx->infos[i];
}

const sc_nodeinfo *sc_index_anchor(const sc_index *idx, const char *uri_with_name)
{
    size_t i;
    if (!idx || !sc_map_get(&idx->anchors, uri_with_name, strlen(uri_with_name), &i))
        return NULL;
    return &idx->infos[i];
}

const sc_nodeinfo *sc_index_node(const sc_index *idx, const json_t *node)
{
    size_t i;
    if (!idx || !sc_map_get_ptr(&idx->nodes, node, &i))
        return NULL;
    return &idx->infos[i];
}

/* ---- public registry API ---------------------------------------------------------- */

sc_registry *sc_registry_new(void)
{
    sc_registry *registry = malloc(sizeof *registry);
    if (registry)
        sc_index_init(&registry->index);
    return registry;
}

void sc_registry_free(sc_registry *registry)
{
    if (!registry)
        return;
    sc_index_free(&registry->index);
    free(registry);
}

int sc_registry_add(sc_registry *registry, const char *uri, json_t *document, sc_error *error)
{
    if (error)
        memset(error, 0, sizeof *error);
    if (!registry) {
        sc_error_set(error, SC_ERROR_USAGE, uri, "no registry");
        return -1;
    }
    if (!uri && !(json_is_object(document) && json_is_string(json_object_get(document, "$id")))) {
        sc_error_set(error, SC_ERROR_USAGE, NULL, "the document has no $id and no URI was given");
        return -1;
    }
    return sc_index_add(&registry->index, uri, document, -1, error);
}
