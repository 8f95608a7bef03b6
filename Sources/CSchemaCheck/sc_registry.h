/* sc_registry.h: documents, embedded resources, anchors and base URIs (registry.c). */
#ifndef SC_REGISTRY_H
#define SC_REGISTRY_H

#include "sc_dialect.h"
#include "sc_map.h"
#include "schemacheck.h"

/* What the index knows about one schema object (or boolean) inside a document. */
typedef struct sc_nodeinfo {
    json_t *node;           /* borrowed; the document is held by the index */
    size_t base;            /* index of the base URI in sc_index.uris */
    char *canonical;        /* absolute URI#pointer of this node */
    const char *schema_uri; /* effective $schema: borrowed from the JSON, or the URI of the
                             * index's default dialect; never NULL */
} sc_nodeinfo;

typedef struct sc_index {
    sc_map resources; /* absolute URI (no fragment) -> nodeinfo index */
    sc_map anchors;   /* "URI#name" -> nodeinfo index ($anchor, $dynamicAnchor, "#name" ids) */
    sc_map nodes;     /* json_t address -> nodeinfo index */
    sc_nodeinfo *infos;
    size_t ninfos, capinfos;
    char **uris; /* base URIs, owned */
    size_t nuris, capuris;
    json_t **docs; /* owned references */
    size_t ndocs, capdocs;
    sc_draft default_draft;       /* how documents without "$schema" are read */
    const struct sc_index *outer; /* also searched for meta-schemas (a registry), or NULL */
} sc_index;

struct sc_registry {
    sc_index index;
};

/* default_draft: how documents without "$schema" are read; outer (may be NULL): another
 * index searched for custom meta-schemas. */
void sc_index_init(sc_index *idx, sc_draft default_draft, const sc_index *outer);
void sc_index_free(sc_index *idx);
/* Adds a document: uri (may be NULL: then its own root identifier names it) is its retrieval
 * URI; walks it for embedded resources and anchors the way its dialect reads them. */
int sc_index_add(sc_index *idx, const char *uri, json_t *doc, sc_error *error);
/* A meta-schema (or any resource) by URI, searched in idx and then its outer index. */
const json_t *sc_index_meta_lookup(const void *idx, const char *uri);
/* Looks up a resource by absolute URI without fragment. */
const sc_nodeinfo *sc_index_resource(const sc_index *idx, const char *uri, size_t len);
const sc_nodeinfo *sc_index_anchor(const sc_index *idx, const char *uri_with_name);
const sc_nodeinfo *sc_index_node(const sc_index *idx, const json_t *node);

#endif /* SC_REGISTRY_H */
