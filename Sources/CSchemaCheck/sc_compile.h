/* sc_compile.h: compiled schemas and the compile context (compile.c, loops.c). */
#ifndef SC_COMPILE_H
#define SC_COMPILE_H

#include "sc_kw.h"
#include "sc_registry.h"
#include "schemacheck.h"

#include <stdint.h>

/* A compiled schema object (or boolean schema). */
struct sc_node {
    int boolean; /* -1 object schema, 0 false, 1 true */
    sc_draft draft;
    int loop_check; /* on a loop that makes no progress: validation watches for it */
    sc_kw *kws;
    size_t nkws;
    size_t capkws;
    char *canonical;                /* absolute URI#pointer */
    const sc_resource_rt *resource; /* the schema resource this node belongs to */
    int needs_ann;                  /* has unevaluatedProperties/unevaluatedItems */
    char *dynamic_anchor;           /* its "$dynamicAnchor" (2020-12), or NULL */
    int recursive_anchor;           /* it says "$recursiveAnchor": true (2019-09) */
    size_t index;                   /* position in sc_schema.nodes */
};

/* Dynamic anchors of one resource, for $dynamicRef and $recursiveRef at validation time. */
struct sc_resource_rt {
    char *uri;
    sc_str *anchor_names; /* $dynamicAnchor names (2020-12) */
    sc_node **anchor_nodes;
    size_t nanchors;
    size_t capanchors;
    const sc_node *recursive_root; /* its root, when that says "$recursiveAnchor": true (2019-09) */
    int recursive_checked;         /* compile time: the root was looked at */
};

struct sc_schema {
    sc_node *root;
    sc_node **nodes; /* every node, owned */
    size_t nnodes, capnodes;
    sc_resource_rt **resources;
    size_t nresources, capresources;
    uint32_t max_depth;
    int assert_format;
    char *loop_location; /* owned: a schema object on a loop that makes no progress, or NULL */
};

/* Compile context, used by the keyword families. */
struct sc_cctx {
    const sc_index *local; /* the document given to sc_compile_document, or NULL */
    const sc_index *reg;   /* the registry's index, or NULL */
    const sc_options *opts;
    sc_schema *schema;
    sc_map memo;     /* json_t address -> node index in schema->nodes */
    sc_map res_memo; /* resource URI -> index in schema->resources */
    sc_error *error;
    unsigned depth;
    /* $dynamicRef anchor names in use, for the second pass that compiles dynamic anchors */
    sc_str *dyn_names;
    size_t ndyn, capdyn;
    int recursive_refs; /* a $recursiveRef is dynamic: the pass compiles recursive roots */
};

/* Compile state for one schema object, handed to keyword compile functions. */
struct sc_cnode {
    json_t *json;            /* the schema object */
    const sc_nodeinfo *info; /* may be NULL for nodes reached by pointer into unknown places */
    const char *base;        /* base URI */
    const char *canonical;   /* absolute location of the object */
    const char *schema_uri;  /* "$schema" in scope (inherited by subschemas the index missed) */
    sc_draft draft;
    unsigned vocab;
    sc_node *node;
};

/* Compiles the subschema found at a location below the current node; suffix is the pointer
 * suffix (e.g. "/properties/foo") used for locations of nodes that are not indexed. */
sc_node *sc_compile_sub(sc_cctx *c, const sc_cnode *cn, json_t *sub, const char *suffix);
/* Compiles the subschema that is the keyword's whole value ("/not", "/items", ...). */
sc_node *sc_compile_keyword_schema(sc_cctx *c, const sc_cnode *cn, const sc_kw *kw, json_t *value);
/* Resolves ref (relative to cn's base) and compiles its target. */
sc_node *sc_compile_reference(sc_cctx *c, const sc_cnode *cn, const char *ref, const char *keyword_abs);
/* Sets a compile error located at the schema object that holds the keyword. Returns
 * SC_COMPILE_FAILED. */
int sc_compile_fail(sc_cctx *c, const sc_kw *kw, sc_error_code code, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* 1 once a compile error is set. */
int sc_compile_failed(const sc_cctx *c);
/* Compiles a regex, reporting a compile error on failure. */
sc_regex *sc_compile_regex(sc_cctx *c, const sc_kw *kw, const char *pattern, size_t len);
/* Reads a non-negative integer keyword value (1.0 allowed). 0 ok, -1 error reported. */
int sc_compile_count(sc_cctx *c, const sc_kw *kw, json_t *value, size_t *out);
/* Reads an array of strings into list (owned). 0 ok, -1 error reported. */
int sc_compile_name_list(sc_cctx *c, const sc_kw *kw, json_t *value, sc_name_list *list);
/* Compiles a non-empty array of schemas into *out (owned array). 0 ok, -1 error reported. */
int sc_compile_schema_array(sc_cctx *c, const sc_cnode *cn, const sc_kw *kw, json_t *value, sc_node ***out,
                            size_t *count);
/* Remembers a $dynamicRef anchor name for the dynamic anchor pass. */
int sc_compile_note_dynamic(sc_cctx *c, const char *name, size_t len);
/* The compiled runtime resource for a base URI (created on demand). */
sc_resource_rt *sc_compile_resource(sc_cctx *c, const char *uri);
/* 1 when value is a schema (object or boolean). */
int sc_is_schema(const json_t *value);

/* Finds the loops that make no progress (loops.c): marks a node on each so validation
 * watches for them, and remembers one location for sc_schema_loop_location. 0, or -1 when
 * out of memory. */
int sc_find_loops(sc_schema *schema);

#endif /* SC_COMPILE_H */
