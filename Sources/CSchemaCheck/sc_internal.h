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
 *   dialect.c     the five dialects: "$schema" URIs, what a meta-schema's $vocabulary switches on
 *   registry.c    documents, embedded resources ($id), anchors, per-node base URIs
 *   keywords.c    the keyword table (name, family, dialects, compile and validate functions)
 *                 and what every family's data owns
 *   compile.c     dialects, vocabularies, lazy memoized node compile, compile errors
 *   loops.c       loops that make no progress, found once at compile time
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

/* Fills *error (when not NULL) with a code, a location (may be NULL) and a sentence. */
void sc_error_set(sc_error *error, sc_error_code code, const char *location, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
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

/* ---- dialects (dialect.c) ------------------------------------------------------------ */

/* The five dialects, oldest first: "draft <= SC_DRAFT_7" reads "draft-07 or older". */
typedef enum sc_draft { SC_DRAFT_4, SC_DRAFT_6, SC_DRAFT_7, SC_DRAFT_2019, SC_DRAFT_2020 } sc_draft;

/* Vocabularies (2019-09 and 2020-12 meta-schemas switch them on and off; older dialects
 * have them all). */
enum {
    SC_VOC_CORE = 1u << 0,
    SC_VOC_APPLICATOR = 1u << 1,
    SC_VOC_UNEVALUATED = 1u << 2,
    SC_VOC_VALIDATION = 1u << 3,
    SC_VOC_FORMAT_ANNOTATION = 1u << 4,
    SC_VOC_FORMAT_ASSERTION = 1u << 5,
    SC_VOC_CONTENT = 1u << 6,
    SC_VOC_METADATA = 1u << 7,
    SC_VOC_ALL = 0xffu
};

/* 1 and the dialect in *draft when uri is one of the five meta-schema URIs (with or without
 * its empty fragment), else 0. */
int sc_draft_of_uri(const char *uri, sc_draft *draft);
/* The meta-schema URI of a dialect, as "$schema" names it. */
const char *sc_draft_uri(sc_draft draft);
sc_draft sc_draft_from_dialect(sc_dialect dialect);

/* Sets of dialects (a keyword, a subschema position exists in them). */
enum {
    SC_IN_4 = 1u << SC_DRAFT_4,
    SC_IN_6 = 1u << SC_DRAFT_6,
    SC_IN_7 = 1u << SC_DRAFT_7,
    SC_IN_2019 = 1u << SC_DRAFT_2019,
    SC_IN_2020 = 1u << SC_DRAFT_2020,
    SC_IN_ALL = SC_IN_4 | SC_IN_6 | SC_IN_7 | SC_IN_2019 | SC_IN_2020,
    SC_IN_6_ON = SC_IN_ALL & ~SC_IN_4,
    SC_IN_7_ON = SC_IN_7 | SC_IN_2019 | SC_IN_2020,
    SC_IN_2019_ON = SC_IN_2019 | SC_IN_2020,
    SC_IN_UP_TO_7 = SC_IN_4 | SC_IN_6 | SC_IN_7,
    SC_IN_UP_TO_2019 = SC_IN_UP_TO_7 | SC_IN_2019
};

/* draft-07 and older: every keyword beside "$ref" is ignored, "$id" (or "id") included. */
static inline int sc_draft_ref_overrides(sc_draft draft)
{
    return draft <= SC_DRAFT_7;
}

/* The identifier keyword: "id" in draft-04, "$id" after it. */
static inline const char *sc_draft_id_keyword(sc_draft draft)
{
    return draft == SC_DRAFT_4 ? "id" : "$id";
}

typedef struct sc_resolved_dialect {
    sc_draft draft;
    unsigned vocab; /* SC_VOC_* */
} sc_resolved_dialect;

/* Finds a registered meta-schema by URI (fragment allowed), or NULL. */
typedef const json_t *(*sc_meta_lookup)(const void *context, const char *uri);

enum { SC_DIALECT_UNKNOWN = -1, SC_DIALECT_UNSUPPORTED_VOCABULARY = -2 };

/* What a "$schema" URI means: one of the five dialects, or a registered meta-schema whose
 * own "$schema" chain leads to one (its "$vocabulary" then picks the vocabularies). Returns
 * 0, or SC_DIALECT_UNKNOWN / SC_DIALECT_UNSUPPORTED_VOCABULARY with a sentence in why. */
int sc_dialect_resolve(const char *schema_uri, sc_meta_lookup find, const void *context, sc_resolved_dialect *out,
                       char *why, size_t why_size);

/* ---- registry ------------------------------------------------------------------------- */

/* What the index knows about one schema object (or boolean) inside a document. */
typedef struct sc_nodeinfo {
    json_t *node;             /* borrowed; the document is held by the index */
    size_t base;              /* index of the base URI in sc_index.uris */
    char *canonical;          /* absolute URI#pointer of this node */
    const char *schema_uri;   /* effective $schema: borrowed from the JSON, or the URI of the
                               * index's default dialect; never NULL */
} sc_nodeinfo;

typedef struct sc_index {
    sc_map resources;  /* absolute URI (no fragment) -> nodeinfo index */
    sc_map anchors;    /* "URI#name" -> nodeinfo index ($anchor, $dynamicAnchor, "#name" ids) */
    sc_map nodes;      /* json_t address -> nodeinfo index */
    sc_nodeinfo *infos;
    size_t ninfos, capinfos;
    char **uris;       /* base URIs, owned */
    size_t nuris, capuris;
    json_t **docs;     /* owned references */
    size_t ndocs, capdocs;
    sc_draft default_draft; /* how documents without "$schema" are read */
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

/* ---- compiled keywords: one named struct per keyword family ---------------------------- */

typedef struct sc_node sc_node;
typedef struct sc_kw sc_kw;
typedef struct sc_vctx sc_vctx;
typedef struct sc_ann sc_ann;
typedef struct sc_cctx sc_cctx;

/* A list of names (required, one entry of dependentRequired). */
typedef struct sc_name_list {
    sc_str *names; /* owned */
    size_t count;
} sc_name_list;

/* type: the allowed JSON types as a bit mask (kw_type.c). */
typedef struct sc_type_kw {
    unsigned mask;
    int whole_reals_are_integers; /* 1.0 is an integer (not in draft-04) */
} sc_type_kw;

/* enum (an array of allowed values) and const (the one allowed value). */
typedef struct sc_value_kw {
    json_t *value; /* owned reference */
} sc_value_kw;

typedef struct sc_multiple_kw {
    sc_num divisor; /* > 0 */
} sc_multiple_kw;

typedef enum sc_bound_kind {
    SC_BOUND_MAXIMUM,
    SC_BOUND_EXCLUSIVE_MAXIMUM,
    SC_BOUND_MINIMUM,
    SC_BOUND_EXCLUSIVE_MINIMUM
} sc_bound_kind;

/* maximum, exclusiveMaximum, minimum, exclusiveMinimum. */
typedef struct sc_bound_kw {
    sc_num limit;
    sc_bound_kind kind;
} sc_bound_kw;

typedef enum sc_count_side { SC_AT_MOST, SC_AT_LEAST } sc_count_side;

/* maxLength/minLength (code points), maxItems/minItems, maxProperties/minProperties. */
typedef struct sc_count_kw {
    size_t limit;
    sc_count_side side;
} sc_count_kw;

typedef struct sc_pattern_kw {
    sc_str source; /* for messages */
    sc_regex *re;
} sc_pattern_kw;

/* format, when it asserts a format this checker knows. */
typedef struct sc_format_kw {
    sc_str name;        /* for messages */
    sc_format_fn check; /* the format's checker, as the dialect defines it */
} sc_format_kw;

/* contentEncoding + contentMediaType (+ contentSchema) as assertions on strings. */
typedef struct sc_content_kw {
    int base64;           /* the string is base64 (decoded before the media type check) */
    int json;             /* the (decoded) content is JSON */
    const sc_node *schema; /* contentSchema, applied to that JSON, or NULL */
} sc_content_kw;

/* The array applicators: prefixItems, the array form of items (draft-07, 2019-09), items,
 * additionalItems. prefix[i] applies to item i; rest applies to every item from rest_from on. */
typedef struct sc_items_kw {
    sc_node **prefix; /* owned array of borrowed nodes, or NULL */
    size_t nprefix;
    const sc_node *rest; /* or NULL */
    size_t rest_from;
} sc_items_kw;

/* contains, with the bounds of its minContains/maxContains siblings. */
typedef struct sc_contains_kw {
    const sc_node *schema;
    size_t min;
    size_t max; /* SIZE_MAX: no maximum */
} sc_contains_kw;

/* allOf, anyOf, oneOf. */
typedef struct sc_schema_list_kw {
    sc_node **schemas; /* owned array of borrowed nodes */
    size_t count;
} sc_schema_list_kw;

/* One subschema: not, propertyNames, unevaluatedItems, unevaluatedProperties. */
typedef struct sc_subschema_kw {
    const sc_node *schema;
} sc_subschema_kw;

/* if, with its then and else siblings. */
typedef struct sc_conditional_kw {
    const sc_node *if_schema;
    const sc_node *then_schema; /* or NULL */
    const sc_node *else_schema; /* or NULL */
} sc_conditional_kw;

typedef struct sc_pattern_properties_kw sc_pattern_properties_kw;
typedef struct sc_additional_kw sc_additional_kw;

/* properties: a schema per declared name. */
typedef struct sc_properties_kw {
    sc_str *names;     /* owned */
    sc_node **schemas; /* owned array of borrowed nodes, parallel to names */
    size_t count;
    sc_map index;      /* name -> position in names */
    /* additionalProperties of the same schema object: on the boolean path one walk over the
     * instance's members serves both */
    const sc_kw *additional;
} sc_properties_kw;

/* patternProperties: a schema per regular expression. */
struct sc_pattern_properties_kw {
    sc_str *sources;   /* owned: the patterns as written (keyword locations) */
    sc_regex **res;    /* owned */
    sc_node **schemas; /* owned array of borrowed nodes */
    size_t count;
};

/* additionalProperties: applies to members that neither properties nor patternProperties of
 * the same schema object name. Those two are borrowed from the sibling keywords. */
struct sc_additional_kw {
    const sc_node *schema;
    const sc_properties_kw *properties;       /* or NULL */
    const sc_pattern_properties_kw *patterns; /* or NULL */
};

/* required. */
typedef struct sc_required_kw {
    sc_name_list list;
} sc_required_kw;

/* dependentRequired, dependentSchemas and the older dependencies (either form per entry):
 * when names[i] is present, required[i] (if any) must be present too and schemas[i] (if any)
 * applies to the object. */
typedef struct sc_dependencies_kw {
    sc_str *names;          /* owned */
    sc_name_list *required; /* owned, parallel to names; count 0 and NULL names when none */
    sc_node **schemas;      /* owned array of borrowed nodes, NULL entries when none */
    size_t count;
} sc_dependencies_kw;

/* $ref. */
typedef struct sc_ref_kw {
    const sc_node *target;
} sc_ref_kw;

/* $dynamicRef (2020-12): its static target, and when that target declares a matching
 * $dynamicAnchor, the anchor name looked up in the dynamic scope at validation time.
 * $recursiveRef (2019-09): its static target, dynamic when that says "$recursiveAnchor": true. */
typedef struct sc_dynamic_ref_kw {
    const sc_node *target;
    sc_str anchor; /* owned; anchor.s is NULL when a $dynamicRef is not dynamic */
    int recursive; /* a dynamic $recursiveRef */
} sc_dynamic_ref_kw;

/* Which member of sc_kw's data a keyword fills; the keyword table decides it. */
typedef enum sc_kw_family {
    SC_FAMILY_NO_DATA, /* uniqueItems; minContains and maxContains (contains applies them) */
    SC_FAMILY_TYPE,
    SC_FAMILY_VALUE,
    SC_FAMILY_MULTIPLE,
    SC_FAMILY_BOUND,
    SC_FAMILY_COUNT,
    SC_FAMILY_PATTERN,
    SC_FAMILY_FORMAT,
    SC_FAMILY_CONTENT,
    SC_FAMILY_ITEMS,
    SC_FAMILY_CONTAINS,
    SC_FAMILY_SCHEMA_LIST,
    SC_FAMILY_SUBSCHEMA,
    SC_FAMILY_CONDITIONAL,
    SC_FAMILY_PROPERTIES,
    SC_FAMILY_PATTERN_PROPERTIES,
    SC_FAMILY_ADDITIONAL_PROPERTIES,
    SC_FAMILY_REQUIRED,
    SC_FAMILY_DEPENDENCIES,
    SC_FAMILY_REF,
    SC_FAMILY_DYNAMIC_REF
} sc_kw_family;

/* Validates one keyword. Returns 1 valid, 0 invalid, -1 could not finish. */
typedef int (*sc_kw_validate_fn)(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);

typedef struct sc_cnode sc_cnode;

/* What a keyword's compile function decided. */
enum {
    SC_COMPILE_FAILED = -1, /* the error is set */
    SC_COMPILE_DROP = 0,    /* nothing to check at validation time (an annotation, uniqueItems false) */
    SC_COMPILE_KEEP = 1     /* the keyword validates */
};
typedef int (*sc_kw_compile_fn)(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);

/* Keyword traits (bits of sc_keyword.traits). */
enum {
    SC_TRAIT_IN_PLACE = 1u << 0,   /* applies subschemas to the same instance location */
    SC_TRAIT_READS_ANN = 1u << 1,  /* reads the annotations of its schema object (unevaluated*) */
    SC_TRAIT_BOOLEAN_IN_DRAFT4 = 1u << 2 /* its value may be a boolean even in draft-04 */
};

/* One entry of the keyword table (keywords.c). */
typedef struct sc_keyword {
    const char *name;
    sc_kw_family family;
    int variant;        /* family-specific: the sc_bound_kind or sc_count_side it stands for */
    unsigned dialects;  /* SC_IN_*: where it exists */
    unsigned vocab;     /* SC_VOC_* bits that switch it on (2020-12 meta-schemas) */
    unsigned traits;    /* SC_TRAIT_* */
    sc_kw_compile_fn compile;
    sc_kw_validate_fn validate;
} sc_keyword;

/* The keyword table in evaluation order: in-place references first, then assertions, then
 * applicators, and the unevaluated keywords last, once every annotation is in. */
const sc_keyword *sc_keyword_table(size_t *count);

/* A compiled keyword: its table entry, its location and its family's data. */
struct sc_kw {
    const sc_keyword *def;
    char *abs; /* absolute keyword location, owned */
    union {
        sc_type_kw type;
        sc_value_kw value;
        sc_multiple_kw multiple;
        sc_bound_kw bound;
        sc_count_kw count;
        sc_pattern_kw pattern;
        sc_format_kw format;
        sc_content_kw content;
        sc_items_kw items;
        sc_contains_kw contains;
        sc_schema_list_kw list;
        sc_subschema_kw sub;
        sc_conditional_kw conditional;
        sc_properties_kw properties;
        sc_pattern_properties_kw pattern_properties;
        sc_additional_kw additional;
        sc_required_kw required;
        sc_dependencies_kw dependencies;
        sc_ref_kw ref;
        sc_dynamic_ref_kw dynamic_ref;
    } as;
};

/* Releases what the keyword's family data owns (not the nodes it points to). */
void sc_kw_release(sc_kw *kw);
/* The subschemas a keyword applies, by position (NULL where one is absent, e.g. no "else"). */
size_t sc_kw_child_count(const sc_kw *kw);
const sc_node *sc_kw_child(const sc_kw *kw, size_t index);

/* ---- compiled schema ------------------------------------------------------------------ */

typedef struct sc_resource_rt sc_resource_rt;

/* A compiled schema object (or boolean schema). */
struct sc_node {
    int boolean;             /* -1 object schema, 0 false, 1 true */
    sc_draft draft;
    int loop_check;          /* on a loop that makes no progress: validation watches for it */
    sc_kw *kws;
    size_t nkws;
    size_t capkws;
    char *canonical;         /* absolute URI#pointer */
    const sc_resource_rt *resource; /* the schema resource this node belongs to */
    int needs_ann;           /* has unevaluatedProperties/unevaluatedItems */
    char *dynamic_anchor;    /* its "$dynamicAnchor" (2020-12), or NULL */
    int recursive_anchor;    /* it says "$recursiveAnchor": true (2019-09) */
    size_t index;            /* position in sc_schema.nodes */
};

/* Dynamic anchors of one resource, for $dynamicRef and $recursiveRef at validation time. */
struct sc_resource_rt {
    char *uri;
    sc_str *anchor_names;          /* $dynamicAnchor names (2020-12) */
    sc_node **anchor_nodes;
    size_t nanchors;
    size_t capanchors;
    const sc_node *recursive_root; /* its root, when that says "$recursiveAnchor": true (2019-09) */
    int recursive_checked;         /* compile time: the root was looked at */
};

struct sc_schema {
    sc_node *root;
    sc_node **nodes;          /* every node, owned */
    size_t nnodes, capnodes;
    sc_resource_rt **resources;
    size_t nresources, capresources;
    uint32_t max_depth;
    int assert_format;
    char *loop_location;      /* owned: a schema object on a loop that makes no progress, or NULL */
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
    int recursive_refs;      /* a $recursiveRef is dynamic: the pass compiles recursive roots */
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

/* A node that loop_check marks, being applied to an instance: a list on the C stack. */
typedef struct sc_loop_frame {
    const sc_node *node;
    const json_t *instance;
    const struct sc_loop_frame *outer;
} sc_loop_frame;

struct sc_vctx {
    const sc_schema *schema;
    int full;                /* the mode: 1 sc_validate (collect units and locations), 0 sc_is_valid */
    uint32_t depth;
    const sc_scope *scope;   /* innermost dynamic scope frame */
    sc_buf ipath;            /* instance location (full mode) */
    sc_buf kpath;            /* keyword location (full mode) */
    sc_unit_store *out;      /* full mode */
    const char *incomplete;  /* why validation could not finish */
    const char *via;         /* full mode: the keyword that led to the current node */
    const sc_loop_frame *loops; /* marked nodes being applied, innermost first */
    const sc_node *loop_at;  /* the node found applied to the same value inside itself */
    char *loop_instance;     /* full mode: where (instance and keyword locations), owned */
    char *loop_keyword;
    const char *loop_via;    /* full mode: the keyword that entered the loop again */
};

/* One step of a location: a property name, an array index, or nothing. */
typedef enum sc_token_kind { SC_TOKEN_NONE = 0, SC_TOKEN_NAME, SC_TOKEN_INDEX } sc_token_kind;

typedef struct sc_token {
    sc_token_kind kind;
    const char *name; /* SC_TOKEN_NAME: not NUL-terminated */
    size_t len;
    size_t index;     /* SC_TOKEN_INDEX */
} sc_token;

static inline sc_token sc_name_token(const char *name, size_t len)
{
    sc_token token = {SC_TOKEN_NAME, name, len, 0};
    return token;
}

static inline sc_token sc_index_token(size_t index)
{
    sc_token token = {SC_TOKEN_INDEX, NULL, 0, index};
    return token;
}

/* How a keyword applies one of its subschemas: to which value, reached by which step from
 * the current instance location, at which step after the keyword's name in the keyword
 * location, and with which annotations. Zero-initialised fields mean "no step", "the
 * keyword's own name" and "no annotations". */
typedef struct sc_step {
    const json_t *instance;
    sc_token at;         /* instance location step ("/slug", "/3") */
    sc_token via;        /* keyword location step after the keyword ("/0", "/slug") */
    sc_ann *ann;         /* annotations of the instance location the subschema applies to */
    const char *keyword; /* the keyword's name in locations; NULL: kw's own ("then", "else") */
} sc_step;

/* Validates instance against node; ann (may be NULL) receives what was evaluated. */
int sc_validate_node(sc_vctx *v, const sc_node *node, const json_t *instance, sc_ann *ann);
/* The fast walk alone (sc_is_valid without its fallback to the full walk). */
int sc_fast_walk(const sc_schema *schema, const json_t *instance);
/* Validates a subschema of kw as the step says, keeping locations in full mode. */
int sc_validate_step(sc_vctx *v, const sc_kw *kw, const sc_node *schema, const sc_step *step);
/* Records an error for kw (full mode only; no-op in fast mode). */
void sc_report(sc_vctx *v, const sc_kw *kw, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Same, located one step further into the instance (a property or an index). */
void sc_report_at(sc_vctx *v, const sc_kw *kw, sc_token at, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Error units recorded so far, and dropping back to an earlier count (failed branches). */
size_t sc_units_mark(const sc_vctx *v);
void sc_units_rewind(sc_vctx *v, size_t mark);
void sc_unit_store_free(sc_unit_store *s);
int sc_unit_store_add(sc_unit_store *s, const char *instance_location, const char *keyword_location,
                      const char *absolute, const char *keyword, const char *error);

/* ---- keyword families: compile and validate functions (the table in keywords.c) -------- */

/* kw_type.c */
int sc_compile_type(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_type(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_enum(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_enum(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_const(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_const(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
/* kw_numeric.c */
int sc_compile_multiple_of(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_multiple_of(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_bound(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_compile_exclusive_flag(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_bound(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
/* kw_string.c */
int sc_compile_length(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_length(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_pattern(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_pattern(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
/* kw_format.c */
int sc_compile_format(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_format(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
/* kw_content.c */
int sc_compile_content_encoding(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_compile_content_media_type(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_content(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
/* kw_array.c */
int sc_compile_item_count(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_item_count(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_unique_items(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_unique_items(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_prefix_items(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_compile_items(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_compile_additional_items(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_items(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_contains(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_contains(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_contains_bound(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
/* kw_object.c */
int sc_compile_property_count(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_property_count(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_required(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_required(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_dependent_required(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_compile_dependent_schemas(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_compile_dependencies(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_dependencies(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_properties(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_properties(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_pattern_properties(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_pattern_properties(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_additional_properties(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_additional_properties(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_property_names(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_property_names(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
/* kw_applicator.c; sc_compile_subschema serves every keyword whose value is one schema */
int sc_compile_schema_list(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_all_of(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_validate_any_of(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_validate_one_of(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_subschema(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_not(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_if(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_if(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
/* kw_ref.c */
int sc_compile_ref(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_ref(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_dynamic_ref(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_compile_recursive_ref(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_dynamic_ref(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
/* kw_unevaluated.c (compiled by sc_compile_subschema) */
int sc_validate_unevaluated_properties(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_validate_unevaluated_items(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);

#endif /* SC_INTERNAL_H */
