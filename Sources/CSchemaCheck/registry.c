/*
 * registry.c: schema documents by URI, their embedded resources ($id) and anchors, and
 * for every schema object its base URI and canonical location.
 *
 * Documents are walked once when added. Only keywords that hold subschemas are entered,
 * so an "$id" inside "const", "enum" or an unknown keyword is data, not an identifier.
 */
#include "sc_buf.h"
#include "sc_error.h"
#include "sc_registry.h"
#include "sc_uri.h"

#include <stdlib.h>
#include <string.h>

void sc_index_init(sc_index *idx, sc_draft default_draft, const sc_index *outer)
{
    memset(idx, 0, sizeof *idx);
    sc_map_init(&idx->resources);
    sc_map_init(&idx->anchors);
    sc_map_init(&idx->nodes);
    idx->default_draft = default_draft;
    idx->outer = outer;
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
    int failed;
} walk_state;

/* Where a schema object's dialect stands in the walk. */
typedef struct walk_dialect {
    const char *schema_uri; /* effective "$schema" */
    sc_draft draft;
} walk_dialect;

static void walk(walk_state *w, json_t *node, size_t base, const char *resource_uri, sc_buf *pointer,
                 walk_dialect dialect);

/* The keywords whose values hold subschemas, and the dialects in which they do; a value
 * anywhere else ("const", "enum", unknown keywords) is data, so an "$id" in it is not an
 * identifier. */
enum { ONE_SCHEMA = 1, SCHEMA_ARRAY = 2, SCHEMA_MAP = 3, SCHEMA_OR_ARRAY = 4 };

static const struct {
    const char *name;
    int shape;
    unsigned dialects;
} sub_keywords[] = {
    {"additionalItems", ONE_SCHEMA, SC_IN_UP_TO_2019},
    {"additionalProperties", ONE_SCHEMA, SC_IN_ALL},
    {"contains", ONE_SCHEMA, SC_IN_6_ON},
    {"else", ONE_SCHEMA, SC_IN_7_ON},
    {"if", ONE_SCHEMA, SC_IN_7_ON},
    {"items", SCHEMA_OR_ARRAY, SC_IN_UP_TO_2019},
    {"items", ONE_SCHEMA, SC_IN_2020},
    {"not", ONE_SCHEMA, SC_IN_ALL},
    {"propertyNames", ONE_SCHEMA, SC_IN_6_ON},
    {"then", ONE_SCHEMA, SC_IN_7_ON},
    {"unevaluatedItems", ONE_SCHEMA, SC_IN_2019_ON},
    {"unevaluatedProperties", ONE_SCHEMA, SC_IN_2019_ON},
    {"contentSchema", ONE_SCHEMA, SC_IN_2019_ON},
    {"allOf", SCHEMA_ARRAY, SC_IN_ALL},
    {"anyOf", SCHEMA_ARRAY, SC_IN_ALL},
    {"oneOf", SCHEMA_ARRAY, SC_IN_ALL},
    {"prefixItems", SCHEMA_ARRAY, SC_IN_2020},
    {"$defs", SCHEMA_MAP, SC_IN_2019_ON},
    {"definitions", SCHEMA_MAP, SC_IN_ALL},
    {"properties", SCHEMA_MAP, SC_IN_ALL},
    {"patternProperties", SCHEMA_MAP, SC_IN_ALL},
    {"dependentSchemas", SCHEMA_MAP, SC_IN_2019_ON},
    {"dependencies", SCHEMA_MAP, SC_IN_ALL},
};

static void walk_keyword(walk_state *w, json_t *value, const char *keyword, int shape, size_t base,
                         const char *resource_uri, sc_buf *pointer, walk_dialect dialect)
{
    size_t mark = pointer->len;
    sc_buf_pointer_token(pointer, keyword, strlen(keyword));
    if ((shape == ONE_SCHEMA || shape == SCHEMA_OR_ARRAY) && (json_is_object(value) || json_is_boolean(value))) {
        walk(w, value, base, resource_uri, pointer, dialect);
    } else if ((shape == SCHEMA_ARRAY || shape == SCHEMA_OR_ARRAY) && json_is_array(value)) {
        for (size_t i = 0; i < json_array_size(value); i++) {
            size_t m2 = pointer->len;
            sc_buf_printf(pointer, "/%zu", i);
            walk(w, json_array_get(value, i), base, resource_uri, pointer, dialect);
            sc_buf_truncate(pointer, m2);
        }
    } else if (shape == SCHEMA_MAP && json_is_object(value)) {
        for (void *it = json_object_iter(value); it; it = json_object_iter_next(value, it)) {
            json_t *sub = json_object_iter_value(it);
            if (!json_is_object(sub) && !json_is_boolean(sub))
                continue;
            size_t m2 = pointer->len;
            sc_buf_pointer_token(pointer, json_object_iter_key(it), json_object_iter_key_len(it));
            walk(w, sub, base, resource_uri, pointer, dialect);
            sc_buf_truncate(pointer, m2);
        }
    }
    sc_buf_truncate(pointer, mark);
}

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
    /* true and false are shared by every document (jansson has one of each), so their
     * address names no place: only objects are found by address */
    if (json_is_object(node) && sc_map_put_ptr(&idx->nodes, node, idx->ninfos) < 0) {
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

/* The dialect of a schema object that declares "$schema" (the walk keeps the one it had
 * when the URI names no dialect it can find: compiling reports that). */
static walk_dialect dialect_at(const sc_index *idx, json_t *node, walk_dialect outer)
{
    json_t *schema = json_is_object(node) ? json_object_get(node, "$schema") : NULL;
    if (!json_is_string(schema))
        return outer;
    walk_dialect own = {json_string_value(schema), outer.draft};
    sc_resolved_dialect resolved;
    char why[8];
    if (sc_dialect_resolve(own.schema_uri, sc_index_meta_lookup, idx, &resolved, why, sizeof why) == 0)
        own.draft = resolved.draft;
    return own;
}

static void walk(walk_state *w, json_t *node, size_t base, const char *resource_uri, sc_buf *pointer,
                 walk_dialect dialect)
{
    if (w->failed)
        return;
    sc_index *idx = w->idx;
    if (!json_is_object(node)) {
        if (add_info(w, node, base, resource_uri, pointer, dialect.schema_uri) == (size_t)-1)
            w->failed = 1;
        return;
    }
    dialect = dialect_at(idx, node, dialect);
    sc_draft draft = dialect.draft;
    int ref_overrides = sc_draft_ref_overrides(draft) && json_object_get(node, "$ref") != NULL;
    json_t *id = ref_overrides ? NULL : json_object_get(node, sc_draft_id_keyword(draft));
    const char *plain_name = NULL; /* draft-07 and older: "$id": "#name" names a location */
    sc_buf local_pointer;
    sc_buf_init(&local_pointer);
    sc_buf *ptr = pointer;
    if (json_is_string(id)) {
        const char *text = json_string_value(id);
        if (text[0] == '#') {
            if (draft <= SC_DRAFT_7)
                plain_name = text + 1;
        } else {
            char *resolved = sc_uri_resolve(idx->uris[base], text);
            if (!resolved) {
                w->failed = 1;
                return;
            }
            size_t blen = sc_uri_base_length(resolved);
            if (resolved[blen] == '#' && draft <= SC_DRAFT_7)
                plain_name = text + sc_uri_base_length(text) + 1;
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
    size_t info = add_info(w, node, base, resource_uri, ptr, dialect.schema_uri);
    if (info == (size_t)-1) {
        w->failed = 1;
        sc_buf_free(&local_pointer);
        return;
    }
    if (ptr == &local_pointer) {
        if (sc_map_put(&idx->resources, resource_uri, strlen(resource_uri), info, 0) < 0)
            w->failed = 1;
    }
    if (plain_name && *plain_name)
        put_anchor(w, resource_uri, plain_name, info);
    if (draft >= SC_DRAFT_2019) {
        json_t *anchor = json_object_get(node, "$anchor");
        if (json_is_string(anchor))
            put_anchor(w, resource_uri, json_string_value(anchor), info);
    }
    if (draft == SC_DRAFT_2020) {
        json_t *dynamic = json_object_get(node, "$dynamicAnchor");
        if (json_is_string(dynamic))
            put_anchor(w, resource_uri, json_string_value(dynamic), info);
    }
    unsigned in = 1u << draft;
    for (size_t i = 0; i < sizeof sub_keywords / sizeof sub_keywords[0]; i++) {
        if (!(sub_keywords[i].dialects & in))
            continue;
        /* beside "$ref" only definitions count: they may still be referenced by pointer */
        if (ref_overrides && strcmp(sub_keywords[i].name, "definitions") != 0)
            continue;
        json_t *value = json_object_get(node, sub_keywords[i].name);
        if (value)
            walk_keyword(w, value, sub_keywords[i].name, sub_keywords[i].shape, base, resource_uri, ptr, dialect);
    }
    if (local_pointer.failed)
        w->failed = 1;
    sc_buf_free(&local_pointer);
}

/* The root's identifier as its dialect spells it ("$id", or "id" in draft-04), read even when
 * "$ref" beside it makes the walk ignore it. */
static const char *root_identifier(const sc_index *idx, json_t *doc, walk_dialect *dialect)
{
    walk_dialect fallback = {sc_draft_uri(idx->default_draft), idx->default_draft};
    *dialect = dialect_at(idx, doc, fallback);
    json_t *id = json_is_object(doc) ? json_object_get(doc, sc_draft_id_keyword(dialect->draft)) : NULL;
    return json_is_string(id) && json_string_value(id)[0] != '#' ? json_string_value(id) : NULL;
}

int sc_index_add(sc_index *idx, const char *uri, json_t *doc, sc_error *error)
{
    if (!doc || (!json_is_object(doc) && !json_is_boolean(doc))) {
        sc_error_set(error, SC_ERROR_INVALID_SCHEMA, uri, "a schema must be an object or a boolean");
        return -1;
    }
    walk_dialect dialect;
    const char *own_id = root_identifier(idx, doc, &dialect);
    if (grow((void **)&idx->docs, &idx->capdocs, idx->ndocs + 1, sizeof *idx->docs) < 0) {
        sc_error_set(error, SC_ERROR_OUT_OF_MEMORY, uri, "out of memory");
        return -1;
    }
    idx->docs[idx->ndocs++] = json_incref(doc);

    /* The retrieval URI: the one given, else the root's own identifier, else none (""). */
    const char *retrieval = uri ? uri : own_id ? own_id : "";
    char *given = sc_uri_resolve("", retrieval);
    if (given)
        given[sc_uri_base_length(given)] = '\0';
    size_t base = add_uri(idx, given);
    if (base == (size_t)-1) {
        sc_error_set(error, SC_ERROR_OUT_OF_MEMORY, uri, "out of memory");
        return -1;
    }
    walk_state w = {idx, 0};
    sc_buf pointer;
    sc_buf_init(&pointer);
    size_t before = idx->ninfos;
    walk(&w, doc, base, idx->uris[base], &pointer, dialect);
    sc_buf_free(&pointer);
    if (w.failed || idx->ninfos == before) {
        sc_error_set(error, SC_ERROR_OUT_OF_MEMORY, uri, "out of memory");
        return -1;
    }
    /* The root answers to its retrieval URI, which wins over earlier entries (the walk
     * registered its own identifier when its dialect honours it). */
    size_t root = before;
    const char *name = idx->uris[base];
    if (!uri)
        name = idx->uris[idx->infos[root].base];
    if (sc_map_put(&idx->resources, name, strlen(name), root, 1) < 0) {
        sc_error_set(error, SC_ERROR_OUT_OF_MEMORY, uri, "out of memory");
        return -1;
    }
    /* draft-07 and older ignore an identifier beside "$ref"; other documents still name the
     * document by it, so the root answers to it too (unless something else already does). */
    int ignored = own_id && sc_draft_ref_overrides(dialect.draft) && json_object_get(doc, "$ref");
    if (ignored && uri) {
        char *alias = sc_uri_resolve(idx->uris[base], own_id);
        if (!alias) {
            sc_error_set(error, SC_ERROR_OUT_OF_MEMORY, uri, "out of memory");
            return -1;
        }
        alias[sc_uri_base_length(alias)] = '\0';
        int rc = sc_map_put(&idx->resources, alias, strlen(alias), root, 0);
        free(alias);
        if (rc < 0) {
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

const json_t *sc_index_meta_lookup(const void *context, const char *uri)
{
    for (const sc_index *idx = context; idx; idx = idx->outer) {
        const sc_nodeinfo *info = sc_index_resource(idx, uri, sc_uri_base_length(uri));
        if (info)
            return info->node;
    }
    return NULL;
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
    return sc_registry_new_for_dialect(SC_DIALECT_2020_12);
}

sc_registry *sc_registry_new_for_dialect(sc_dialect dialect)
{
    sc_registry *registry = malloc(sizeof *registry);
    if (registry)
        sc_index_init(&registry->index, sc_draft_from_dialect(dialect), NULL);
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
    walk_dialect dialect;
    if (!uri && !root_identifier(&registry->index, document, &dialect)) {
        sc_error_set(error, SC_ERROR_USAGE, NULL, "the document has no %s and no URI was given",
                     sc_draft_id_keyword(dialect.draft));
        return -1;
    }
    return sc_index_add(&registry->index, uri, document, error);
}
