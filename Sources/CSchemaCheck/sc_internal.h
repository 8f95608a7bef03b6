/*
 * sc_internal.h: private declarations shared by the files of CSchemaCheck.
 *
 * Layout of the checker (one concern per file):
 *   util.c        byte buffers, a string-keyed hash map, number and equality helpers
 *   parse.c       sc_parse: the fast reader, else jansson decoding and one walk for limits
 *   reader.c      the fast reader: plain valid JSON straight to json_t, declines the rest
 *   arena.c       per-message arenas behind jansson's allocator hooks (bulk validation)
 *   uri.c         RFC 3986 reference resolution
 *   pointer.c     RFC 6901 JSON Pointers in URI fragments
 *   registry.c    documents, embedded resources ($id), anchors, per-node base URIs
 *   compile.c     dialects, vocabularies, the keyword table, lazy memoized node compile
 *   validate.c    the walk over compiled nodes, annotations, both modes
 *   output.c      basic output units and results
 *   kw_*.c        one family of keywords each: compile + validate functions
 *                 (type, numeric, string, format, content, array, object, applicator,
 *                 ref, unevaluated)
 *
 * Nothing here has global mutable state (but arena.c's slab table, behind a mutex); every
 * compiled object is immutable after sc_compile returns, so validation may run on many
 * threads at once.
 */
#ifndef SC_INTERNAL_H
#define SC_INTERNAL_H

#include "schemacheck.h"
#include "sc_regex_format.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* ---- strings and buffers ---------------------------------------------------------- */

typedef struct sc_str {
    char *s;    /* owned, NUL-terminated (may also contain NUL) */
    size_t len; /* bytes, without the terminator */
} sc_str;

typedef struct sc_buf {
    char *data; /* always NUL-terminated once anything was appended */
    size_t len;
    size_t cap;
    int failed; /* set when an allocation failed; further appends are no-ops */
} sc_buf;

void sc_buf_init(sc_buf *b);
void sc_buf_free(sc_buf *b);
void sc_buf_append(sc_buf *b, const char *data, size_t len);
void sc_buf_puts(sc_buf *b, const char *text);
void sc_buf_printf(sc_buf *b, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void sc_buf_truncate(sc_buf *b, size_t len);
/* Appends "/" and the token escaped per RFC 6901 (~0, ~1). */
void sc_buf_pointer_token(sc_buf *b, const char *token, size_t len);
/* Appends the value as JSON text, strings truncated to keep messages short. */
void sc_buf_quote(sc_buf *b, const json_t *value);
/* Returns a malloc'd copy of the buffer (or of "" when empty), NULL when out of memory. */
char *sc_buf_take(sc_buf *b);
const char *sc_buf_cstr(const sc_buf *b);

char *sc_strndup(const char *text, size_t len);
char *sc_strdup(const char *text);

/* ---- string-keyed hash map to size_t ------------------------------------------------ */

typedef struct sc_map_slot {
    char *key; /* owned; NULL = empty slot */
    size_t klen;
    size_t value;
    uint64_t hash;
} sc_map_slot;

typedef struct sc_map {
    sc_map_slot *slots;
    size_t cap;
    size_t count;
} sc_map;

void sc_map_init(sc_map *m);
void sc_map_free(sc_map *m);
/* Inserts; when the key exists, replaces the value only if overwrite. 0 ok, -1 no memory. */
int sc_map_put(sc_map *m, const char *key, size_t klen, size_t value, int overwrite);
/* 1 found (value in *out), 0 not found. */
int sc_map_get(const sc_map *m, const char *key, size_t klen, size_t *out);
/* Keys made from pointers (the address as text) for identity maps. */
int sc_map_put_ptr(sc_map *m, const void *ptr, size_t value);
int sc_map_get_ptr(const sc_map *m, const void *ptr, size_t *out);

/* ---- parsing instances --------------------------------------------------------------- */

/* sc_parse with the fast reader on (fast = 1) or off (jansson alone, for the tests that
 * hold the two to the same result). */
json_t *sc_parse_with(const char *buffer, size_t length, const sc_parse_limits *limits, sc_error *error,
                      int fast);
/* The value json_loadb (duplicates rejected, NUL allowed, any value) would return when the
 * input is plain valid JSON within limits and max_depth (and 128 levels); NULL for anything else, which
 * includes every input jansson refuses. Never reports an error of its own. */
json_t *sc_parse_fast(const char *buffer, size_t length, const sc_parse_limits *limits, size_t max_depth);

/* ---- errors -------------------------------------------------------------------------- */

void sc_error_set(sc_error *error, const char *location, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ---- numbers and JSON values ------------------------------------------------------ */

typedef struct sc_num {
    int is_int;   /* the value is a whole number that fits json_int_t (then i is exact) */
    json_int_t i;
    double d;     /* always set */
} sc_num;

/* Reads a JSON number; 0 ok, -1 not a number. 1.0 reads as an integer. */
int sc_num_get(const json_t *value, sc_num *out);
/* -1, 0, 1 */
int sc_num_cmp(const sc_num *a, const sc_num *b);
/* 1 when the instance number is a multiple of the divisor (divisor > 0). */
int sc_num_multiple_of(const sc_num *value, const sc_num *divisor);
/* 1 when value is an integer or a whole real. */
int sc_json_is_integral(const json_t *value);
/* JSON Schema equality: 1 == 1.0, objects unordered. */
int sc_json_equal(const json_t *a, const json_t *b);
/* "null", "boolean", "integer" (incl. whole reals), "number", "string", "array", "object" */
const char *sc_json_type_name(const json_t *value);
/* Unicode code points in UTF-8 text. */
size_t sc_utf8_length(const char *text, size_t len);

/* ---- URIs and pointers ---------------------------------------------------------------- */

/* Resolves ref against base (RFC 3986 section 5.2), removes dot segments, drops an empty
 * fragment. Returns a malloc'd string, NULL when out of memory. base may be "". */
char *sc_uri_resolve(const char *base, const char *ref);
/* Length of the part before '#'. */
size_t sc_uri_base_length(const char *uri);
/* %-decodes; returns malloc'd text (length in *out_len), NULL on bad escapes/no memory. */
char *sc_percent_decode(const char *text, size_t len, size_t *out_len);
/* Follows an (already %-decoded) JSON Pointer from root; NULL when it leads nowhere. */
json_t *sc_pointer_follow(json_t *root, const char *pointer, size_t len);

/* ---- registry ------------------------------------------------------------------------- */

/* A dialect is its draft plus the vocabularies switched on. */
enum {
    SC_VOC_CORE = 1u << 0,
    SC_VOC_APPLICATOR = 1u << 1,
    SC_VOC_UNEVALUATED = 1u << 2,
    SC_VOC_VALIDATION = 1u << 3,
    SC_VOC_FORMAT_ANNOTATION = 1u << 4,
    SC_VOC_FORMAT_ASSERTION = 1u << 5,
    SC_VOC_CONTENT = 1u << 6,
    SC_VOC_METADATA = 1u << 7,
    SC_VOC_ALL = 0xffu,
    /* not a vocabulary: draft 2019-09 read as 2020-12 but with its array "items" (tuple)
     * and "additionalItems", and without "prefixItems" */
    SC_VOC_2019_ITEMS = 1u << 8
};

/* What the index knows about one schema object (or boolean) inside a document. */
typedef struct sc_nodeinfo {
    json_t *node;             /* borrowed; the document is held by the index */
    size_t base;              /* index of the base URI in sc_index.uris */
    char *canonical;          /* absolute URI#pointer of this node */
    const char *schema_uri;   /* effective $schema (borrowed from the JSON), or NULL */
} sc_nodeinfo;

typedef struct sc_index {
    sc_map resources;  /* absolute URI (no fragment) -> nodeinfo index */
    sc_map anchors;    /* "URI#name" -> nodeinfo index ($anchor, $dynamicAnchor, draft-07 "#name" ids) */
    sc_map nodes;      /* json_t address -> nodeinfo index */
    sc_nodeinfo *infos;
    size_t ninfos, capinfos;
    char **uris;       /* base URIs, owned */
    size_t nuris, capuris;
    json_t **docs;     /* owned references */
    size_t ndocs, capdocs;
} sc_index;

struct sc_registry {
    sc_index index;
};

void sc_index_init(sc_index *idx);
void sc_index_free(sc_index *idx);
/* Adds a document: uri (may be NULL: the $id, else "") names it; walks it for embedded
 * resources and anchors. draft7_walk: 1 read "$id" the draft-07 way ($ref siblings
 * ignored), 0 the 2020-12 way, -1 unknown (index identifiers of both kinds). */
int sc_index_add(sc_index *idx, const char *uri, json_t *doc, int draft7_walk, sc_error *error);
/* Looks up a resource by absolute URI without fragment. */
const sc_nodeinfo *sc_index_resource(const sc_index *idx, const char *uri, size_t len);
const sc_nodeinfo *sc_index_anchor(const sc_index *idx, const char *uri_with_name);
const sc_nodeinfo *sc_index_node(const sc_index *idx, const json_t *node);

/* ---- compiled schema ------------------------------------------------------------------ */

typedef struct sc_node sc_node;
typedef struct sc_kw sc_kw;
typedef struct sc_vctx sc_vctx;
typedef struct sc_ann sc_ann;
typedef struct sc_cctx sc_cctx;

/* Validates one keyword. Returns 1 valid, 0 invalid, -1 could not finish. */
typedef int (*sc_kw_validate_fn)(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);

/* A compiled keyword. The family files decide which fields they use. */
struct sc_kw {
    sc_kw_validate_fn validate;
    const char *name;        /* keyword name (static text) */
    char *abs;               /* absolute keyword location */
    json_t *value;           /* owned reference: const / enum data */
    sc_num num;              /* numeric keywords */
    size_t n, n2;            /* counts; type mask; min/max contains */
    int flag, flag2;         /* family-specific switches */
    sc_str str;              /* format name, pattern source, dynamic anchor name */
    sc_regex *re;            /* pattern */
    sc_node **subs;          /* array applicators, properties values, dependentSchemas */
    size_t nsubs;
    sc_str *names;           /* property names (properties, required, dependent*) */
    size_t nnames;
    sc_str **lists;          /* dependentRequired: one list of names per entry in names */
    size_t *list_lens;
    sc_map map;              /* name -> index into subs/names */
    sc_regex **res;          /* patternProperties / additionalProperties patterns */
    sc_str *re_src;          /* sources of res (for locations) */
    size_t nres;
    sc_node *a, *b, *c;      /* single subschemas (if/then/else, $ref target, ...) */
    int in_place;            /* its subschemas apply to the same instance location */
    const sc_kw *partner;    /* properties <-> additionalProperties of the same schema */
};

typedef struct sc_resource_rt sc_resource_rt;

/* A compiled schema object (or boolean schema). */
struct sc_node {
    int boolean;             /* -1 object schema, 0 false, 1 true */
    int draft7;
    sc_kw *kws;
    size_t nkws;
    size_t capkws;
    char *canonical;         /* absolute URI#pointer */
    const sc_resource_rt *resource; /* the schema resource this node belongs to */
    int needs_ann;           /* has unevaluatedProperties/unevaluatedItems */
    char *dynamic_anchor;    /* its "$dynamicAnchor" (2020-12), or NULL */
    size_t index;            /* position in sc_schema.nodes */
};

/* Dynamic anchors of one resource, for $dynamicRef at validation time. */
struct sc_resource_rt {
    char *uri;
    sc_str *anchor_names;
    sc_node **anchor_nodes;
    size_t nanchors;
    size_t capanchors;
};

struct sc_schema {
    sc_node *root;
    sc_node **nodes;          /* every node, owned */
    size_t nnodes, capnodes;
    sc_resource_rt **resources;
    size_t nresources, capresources;
    uint32_t max_depth;
    int assert_format;
};

/* Compile context, used by the keyword families. */
struct sc_cctx {
    const sc_index *local;   /* the document given to sc_compile_document, or NULL */
    const sc_index *reg;     /* the registry's index, or NULL */
    const sc_options *opts;
    sc_schema *schema;
    sc_map memo;             /* json_t address -> node index in schema->nodes */
    sc_map res_memo;         /* resource URI -> index in schema->resources */
    sc_error *error;
    unsigned depth;
    /* $dynamicRef anchor names in use, for the second pass that compiles dynamic anchors */
    sc_str *dyn_names;
    size_t ndyn, capdyn;
};

/* Compile state for one schema object, handed to keyword compile functions. */
typedef struct sc_cnode {
    json_t *json;            /* the schema object */
    const sc_nodeinfo *info; /* may be NULL for nodes reached by pointer into unknown places */
    const char *base;        /* base URI */
    const char *canonical;   /* absolute location of the object */
    int draft7;
    unsigned vocab;
    sc_node *node;
} sc_cnode;

typedef int (*sc_kw_compile_fn)(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);

/* Compiles the subschema found at a location below the current node; path is the pointer
 * suffix (e.g. "/properties/foo") used for locations of nodes that are not indexed. */
sc_node *sc_compile_sub(sc_cctx *c, const sc_cnode *cn, json_t *sub, const char *suffix);
/* Resolves ref (relative to cn's base) and compiles its target. */
sc_node *sc_compile_ref(sc_cctx *c, const sc_cnode *cn, const char *ref, const char *keyword_abs);
/* Sets a compile error located at the keyword. Returns -1. */
int sc_compile_fail(sc_cctx *c, const sc_kw *kw, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Compiles a regex, reporting a compile error on failure. */
sc_regex *sc_compile_regex(sc_cctx *c, const sc_kw *kw, const char *pattern, size_t len);
/* Reads a non-negative integer keyword value (1.0 allowed). 0 ok, -1 error reported. */
int sc_compile_count(sc_cctx *c, const sc_kw *kw, json_t *value, size_t *out);
/* Remembers a $dynamicRef anchor name for the dynamic anchor pass. */
int sc_compile_note_dynamic(sc_cctx *c, const char *name, size_t len);
/* The compiled runtime resource for a base URI (created on demand). */
sc_resource_rt *sc_compile_resource(sc_cctx *c, const char *uri);

/* ---- annotations and validation ------------------------------------------------------- */

/* What in-place applicators evaluated at one instance location (for unevaluated*). */
struct sc_ann {
    int all_props;
    const char **keys;    /* evaluated property names (pointers into the instance) */
    size_t nkeys, capkeys;
    int all_items;
    size_t items_prefix;  /* indices below this were evaluated */
    unsigned char *marks; /* per-index marks from contains */
    size_t nmarks;
    int oom;
};

void sc_ann_init(sc_ann *a);
void sc_ann_free(sc_ann *a);
void sc_ann_add_key(sc_ann *a, const char *key);
void sc_ann_mark_item(sc_ann *a, size_t index, size_t length);
void sc_ann_merge(sc_ann *into, const sc_ann *from);
int sc_ann_has_key(const sc_ann *a, const char *key);
int sc_ann_has_item(const sc_ann *a, size_t index);

/* One frame of the dynamic scope ($dynamicRef): a linked list on the C stack. */
typedef struct sc_scope {
    const sc_resource_rt *resource;
    const struct sc_scope *outer;
} sc_scope;

typedef struct sc_unit_store {
    sc_output_unit *units;
    size_t count, cap;
    int oom;
} sc_unit_store;

struct sc_vctx {
    const sc_schema *schema;
    int full;                /* sc_validate: collect units and locations */
    uint32_t depth;
    const sc_scope *scope;   /* innermost dynamic scope frame */
    sc_buf ipath;            /* instance location (full mode) */
    sc_buf kpath;            /* keyword location (full mode) */
    sc_unit_store *out;      /* full mode */
    const char *incomplete;  /* why validation could not finish */
    const char *via;         /* full mode: the keyword that led to the current node */
};

/* Validates instance against node; ann (may be NULL) receives what was evaluated. */
int sc_validate_node(sc_vctx *v, const sc_node *node, const json_t *instance, sc_ann *ann);
/* Validates a subschema reached through a keyword: pushes keyword/instance locations.
 * kw_suffix: keyword-location suffix after the keyword (e.g. "/0", "/foo"), or NULL.
 * inst_token/inst_index: instance location step (token NULL and index SIZE_MAX = none). */
int sc_validate_child(sc_vctx *v, const sc_kw *kw, const char *kw_token, size_t kw_token_len,
                      size_t kw_index, const sc_node *node, const json_t *instance,
                      const char *inst_token, size_t inst_token_len, size_t inst_index,
                      sc_ann *ann);
/* Records an error for kw (full mode only; no-op in fast mode). */
void sc_report(sc_vctx *v, const sc_kw *kw, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Same, but the instance location gets one more step first (a property or an index). */
void sc_report_at(sc_vctx *v, const sc_kw *kw, const char *token, size_t token_len, size_t index,
                  const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
/* Error units recorded so far, and dropping back to an earlier count (failed branches). */
size_t sc_units_mark(const sc_vctx *v);
void sc_units_rewind(sc_vctx *v, size_t mark);
void sc_unit_store_free(sc_unit_store *s);
int sc_unit_store_add(sc_unit_store *s, const char *instance_location, const char *keyword_location,
                      const char *absolute, const char *keyword, const char *error);

/* ---- keyword families: compile functions (validate functions stay static) ------------- */

/* kw_type.c */
int sc_kw_type(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_kw_enum(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_kw_const(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
/* kw_numeric.c */
int sc_kw_multiple_of(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_kw_bound(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
/* kw_string.c */
int sc_kw_length(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_kw_pattern(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
/* kw_format.c */
int sc_kw_format(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
/* kw_content.c */
int sc_kw_content(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
/* kw_array.c */
int sc_kw_item_count(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_kw_unique_items(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_kw_items(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_kw_prefix_items(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_kw_additional_items(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_kw_contains(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_kw_contains_bound(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
/* kw_object.c */
int sc_kw_prop_count(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_kw_required(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_kw_dependent_required(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_kw_properties(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_kw_pattern_properties(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_kw_additional_properties(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_kw_property_names(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_kw_dependent_schemas(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_kw_dependencies(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
/* kw_applicator.c */
int sc_kw_all_of(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_kw_any_of(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_kw_one_of(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_kw_not(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_kw_if(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
/* kw_ref.c */
int sc_kw_ref(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_kw_dynamic_ref(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
/* kw_unevaluated.c */
int sc_kw_unevaluated_properties(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_kw_unevaluated_items(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);

/* Helpers shared by keyword families. */
/* Reads an array of unique strings into names (owned). 0 ok, -1 error reported. */
int sc_compile_string_list(sc_cctx *c, const sc_kw *kw, json_t *value, sc_str **out, size_t *count);
/* Compiles an array of schemas into kw->subs. */
int sc_compile_schema_array(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
/* Compiles an object of schemas into kw->names/subs/map. */
int sc_compile_schema_map(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
/* 1 when value is a schema (object or boolean). */
int sc_is_schema(const json_t *value);

#endif /* SC_INTERNAL_H */
