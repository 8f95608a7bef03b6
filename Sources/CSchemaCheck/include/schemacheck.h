/*
 * schemacheck.h: a JSON Schema checker on jansson (drafts 2020-12, 2019-09, 07, 06 and 04).
 *
 * Compile once, validate many. A schema document (and the documents it references, added
 * to a registry under their URIs) is compiled into a tree of keyword nodes; validation
 * walks that tree and never reads the schema JSON again. A compiled schema is immutable,
 * so one may be shared by many threads validating at once.
 *
 * Ownership: functions that return a pointer hand over ownership; free it with the
 * matching *_free function. Functions taking json_t* never steal the reference unless
 * they say so.
 */
#ifndef SCHEMACHECK_H
#define SCHEMACHECK_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- dialects and options ---------------------------------------------------------- */

/*
 * A dialect is chosen by "$schema" (one of the meta-schema URIs below, or a meta-schema
 * registered under its URI); a schema without "$schema" is read in the default dialect,
 * exactly as if "$schema" named it. An unknown "$schema" is an error (SC_ERROR_UNKNOWN_DIALECT).
 */
typedef enum sc_dialect {
    SC_DIALECT_2020_12 = 0, /* https://json-schema.org/draft/2020-12/schema (the default) */
    SC_DIALECT_DRAFT7 = 1,  /* http://json-schema.org/draft-07/schema# */
    SC_DIALECT_2019_09 = 2, /* https://json-schema.org/draft/2019-09/schema */
    SC_DIALECT_DRAFT6 = 3,  /* http://json-schema.org/draft-06/schema# */
    SC_DIALECT_DRAFT4 = 4   /* http://json-schema.org/draft-04/schema# */
} sc_dialect;

typedef struct sc_options {
    sc_dialect default_dialect;    /* used for a document without $schema */
    int assert_format;             /* nonzero: "format" is an assertion, not an annotation */
    int assert_content;            /* nonzero: contentEncoding (base64), contentMediaType
                                    * (application/json) and contentSchema are assertions where the
                                    * dialect has them (draft-07, 2019-09, 2020-12); else annotations */
    uint32_t regex_match_limit;    /* PCRE2 match limit per match; 0 means the default */
    uint32_t max_validation_depth; /* bound on nested schema/instance recursion; 0 = default */
} sc_options;

/* Fills opts with the defaults (2020-12, format and content as annotations, default limits). */
void sc_options_init(sc_options *opts);

/* ---- errors -------------------------------------------------------------------------- */

#define SC_ERROR_TEXT_LENGTH 320

/*
 * What kind of failure an sc_error describes, for programs; the text is for people.
 * SC_ERROR_NONE (0) means nothing failed. New codes may be added at the end.
 */
typedef enum sc_error_code {
    SC_ERROR_NONE = 0,
    SC_ERROR_OUT_OF_MEMORY = 1,        /* an allocation failed; nothing is wrong with the input */
    SC_ERROR_PARSE = 2,                /* not JSON: syntax, invalid UTF-8, a duplicate key, trailing data */
    SC_ERROR_LIMIT = 3,                /* a limit was exceeded: input size, nesting, string length,
                                        * members, items, or a schema nested too deeply to compile */
    SC_ERROR_INVALID_SCHEMA = 4,       /* a keyword has a value its dialect does not allow, or the
                                        * document is not a schema at all */
    SC_ERROR_UNRESOLVED_REFERENCE = 5, /* $ref / $dynamicRef names nothing in the document or registry */
    SC_ERROR_BAD_REGEX = 6,            /* pattern / patternProperties is not a usable ECMA-262 regex */
    SC_ERROR_UNKNOWN_DIALECT = 7,      /* $schema names no known dialect, or a meta-schema requires
                                        * a vocabulary this checker does not know */
    SC_ERROR_USAGE = 8                 /* a bad argument: no registry, no URI for a document without $id */
} sc_error_code;

typedef struct sc_error {
    sc_error_code code;                  /* SC_ERROR_NONE unless something failed */
    char text[SC_ERROR_TEXT_LENGTH];     /* one sentence saying what is wrong */
    char location[SC_ERROR_TEXT_LENGTH]; /* where: schema URI#pointer, or "" */
    int line;                            /* for parse errors: 1-based, else 0 */
    int column;                          /* for parse errors: 1-based, else 0 */
    size_t position;                     /* for parse errors: byte offset */
} sc_error;

/* ---- parsing instances --------------------------------------------------------------- */

typedef struct sc_parse_limits {
    size_t max_bytes;         /* 0 = no limit */
    size_t max_depth;         /* nesting of arrays/objects; 0 = no limit beyond jansson's */
    size_t max_string_length; /* bytes per string; 0 = no limit */
    size_t max_properties;    /* members per object; 0 = no limit */
    size_t max_array_length;  /* items per array; 0 = no limit */
} sc_parse_limits;

/*
 * Parses one JSON text the way bridge messages must be read: duplicate keys are an error
 * (JSON_REJECT_DUPLICATES), NUL inside strings is kept (JSON_ALLOW_NUL), invalid UTF-8 is
 * an error, trailing garbage is an error. limits may be NULL. Returns a new reference,
 * or NULL with *error filled: SC_ERROR_PARSE (with line, column and position),
 * SC_ERROR_LIMIT or SC_ERROR_OUT_OF_MEMORY.
 */
json_t *sc_parse(const char *buffer, size_t length, const sc_parse_limits *limits, sc_error *error);

/*
 * Per-message arenas (bulk validation): values parsed with sc_parse_in_arena are carved
 * from the arena instead of malloc'd, and json_decref of them frees nothing. The caller
 * guarantees that no value parsed into an arena is used after sc_arena_reset or
 * sc_arena_free (reset once per message, after its value was released). Only values parsed
 * by sc_parse_in_arena on this thread use the arena; every other jansson allocation, in any
 * thread, stays on the heap. One arena serves one thread at a time. sc_arena_new returns
 * NULL when no arena is available (the process did not opt in, all taken, or no address
 * space): use sc_parse then.
 *
 * Arenas need jansson's allocator hooks, which are process-wide: every jansson user in the
 * process then allocates through them (on the heap, outside sc_parse_in_arena). So they are
 * opt-in. Only a process that owns its use of jansson calls sc_arena_install_hooks, early and
 * before other threads use jansson (bridgectl does, for validate --ndjson). A library
 * embedded in an app must not: BridgeHost never does, and parses every message on the heap.
 */
typedef struct sc_arena sc_arena;

/* Installs the allocator hooks, once per process (later calls return the first answer).
 * 0: arenas are available; -1: they are not (no address space), and jansson keeps malloc. */
int sc_arena_install_hooks(void);

sc_arena *sc_arena_new(void);
void sc_arena_reset(sc_arena *arena);
void sc_arena_free(sc_arena *arena);
/* Drops value, the one value parsed into arena since its last reset (or a heap value when
 * arena is NULL), and resets the arena. Cheaper than json_decref + sc_arena_reset: when the
 * value lies wholly in the arena, its tree is not walked at all. */
void sc_arena_release(sc_arena *arena, json_t *value);
/* sc_parse, with the value's memory in arena (a full arena falls back to malloc). */
json_t *sc_parse_in_arena(sc_arena *arena, const char *buffer, size_t length, const sc_parse_limits *limits,
                          sc_error *error);

/* ---- registry of schema documents ---------------------------------------------------- */

typedef struct sc_registry sc_registry;

/* A registry whose documents without $schema are read as 2020-12 (sc_registry_new) or as the
 * given dialect; compile with the same default_dialect. */
sc_registry *sc_registry_new(void);
sc_registry *sc_registry_new_for_dialect(sc_dialect dialect);
void sc_registry_free(sc_registry *registry);

/*
 * Registers a schema document under uri, or under its own $id ("id" in draft-04) when uri
 * is NULL. In draft-07 and older an identifier beside "$ref" is ignored inside the document,
 * but the document still answers to it.
 * Embedded $id and $anchor resources inside it become resolvable too. The registry takes
 * its own reference to document. Returns 0, or -1 with *error filled (SC_ERROR_INVALID_SCHEMA
 * for a document that is not a schema, SC_ERROR_USAGE, SC_ERROR_OUT_OF_MEMORY).
 */
int sc_registry_add(sc_registry *registry, const char *uri, json_t *document, sc_error *error);

/* ---- compiling ----------------------------------------------------------------------- */

typedef struct sc_schema sc_schema;

/*
 * Compiles the schema found at uri (which may carry a #fragment) in the registry.
 * References resolve only within the registry: nothing is fetched. Returns NULL with
 * *error filled for a broken schema: SC_ERROR_INVALID_SCHEMA (a bad keyword value),
 * SC_ERROR_UNRESOLVED_REFERENCE, SC_ERROR_BAD_REGEX, SC_ERROR_UNKNOWN_DIALECT, SC_ERROR_LIMIT
 * (nested too deeply), SC_ERROR_OUT_OF_MEMORY; the location names the schema object.
 * Registered documents without $schema are read in the registry's dialect
 * (sc_registry_new_for_dialect), not in opts->default_dialect: create the registry with it.
 */
sc_schema *sc_compile(const sc_registry *registry, const char *uri, const sc_options *opts, sc_error *error);

/* Compiles a standalone document (read in opts->default_dialect when it has no $schema);
 * registry (may be NULL) resolves its outside references. */
sc_schema *sc_compile_document(json_t *document, const sc_registry *registry, const sc_options *opts, sc_error *error);

void sc_schema_free(sc_schema *schema);

/*
 * A loop that makes no progress: "$ref" (or another in-place applicator) leading back to the
 * same schema object without stepping into a property or an item. Such a schema compiles;
 * an instance that enters the loop fails validation with status -1 and an error naming it.
 * Returns the absolute location of one schema object on such a loop, or NULL (for linting:
 * the string lives as long as the schema).
 */
const char *sc_schema_loop_location(const sc_schema *schema);

/* ---- validating ---------------------------------------------------------------------- */

/*
 * The fast path: stops at the first failure and tracks no locations.
 * Returns 1 valid, 0 invalid, -1 when validation itself could not finish (regex match
 * limit, depth limit, a loop that makes no progress, out of memory). Thread-safe on a
 * shared schema. It always gives the verdict sc_validate gives: when the fast walk cannot
 * finish, the full walk decides (which may reach a verdict by another order of subschemas).
 */
int sc_is_valid(const sc_schema *schema, const json_t *instance);

/* One error in JSON Schema "basic" output form. Strings live as long as their result. */
typedef struct sc_output_unit {
    const char *instance_location;         /* JSON Pointer into the instance, "" for root */
    const char *keyword_location;          /* JSON Pointer through the schema, via $ref */
    const char *absolute_keyword_location; /* absolute URI#pointer of the keyword */
    const char *keyword;                   /* e.g. "pattern", "required" */
    const char *error;                     /* one sentence, quoting the offending value */
} sc_output_unit;

typedef struct sc_result sc_result;

/* The full path: every error. Returns NULL only when out of memory. */
sc_result *sc_validate(const sc_schema *schema, const json_t *instance);

/* 1 valid, 0 invalid, -1 could not finish (the units say why). When the full walk runs into a
 * limit or a loop that the fast walk does not reach, the fast walk's verdict stands: valid has
 * no units, invalid has a unit saying that listing every error could not finish, and why. */
int sc_result_status(const sc_result *result);
size_t sc_result_count(const sc_result *result);
const sc_output_unit *sc_result_unit(const sc_result *result, size_t index);
void sc_result_free(sc_result *result);

#ifdef __cplusplus
}
#endif

#endif /* SCHEMACHECK_H */
