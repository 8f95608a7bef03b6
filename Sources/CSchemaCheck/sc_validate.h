/* sc_validate.h: annotations, the validation context and the walk (validate.c, output.c). */
#ifndef SC_VALIDATE_H
#define SC_VALIDATE_H

#include "sc_buf.h"
#include "sc_kw.h"
#include "schemacheck.h"

#include <stdint.h>

/* What in-place applicators evaluated at one instance location (for unevaluated*). */
struct sc_ann {
    int all_props;
    const char **keys; /* evaluated property names (pointers into the instance) */
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
    int full; /* the mode: 1 sc_validate (collect units and locations), 0 sc_is_valid */
    uint32_t depth;
    const sc_scope *scope;      /* innermost dynamic scope frame */
    sc_buf ipath;               /* instance location (full mode) */
    sc_buf kpath;               /* keyword location (full mode) */
    sc_unit_store *out;         /* full mode */
    const char *incomplete;     /* why validation could not finish */
    const char *via;            /* full mode: the keyword that led to the current node */
    const sc_loop_frame *loops; /* marked nodes being applied, innermost first */
    const sc_node *loop_at;     /* the node found applied to the same value inside itself */
    char *loop_instance;        /* full mode: where (instance and keyword locations), owned */
    char *loop_keyword;
    const char *loop_via; /* full mode: the keyword that entered the loop again */
};

/* One step of a location: a property name, an array index, or nothing. */
typedef enum sc_token_kind { SC_TOKEN_NONE = 0, SC_TOKEN_NAME, SC_TOKEN_INDEX } sc_token_kind;

typedef struct sc_token {
    sc_token_kind kind;
    const char *name; /* SC_TOKEN_NAME: not NUL-terminated */
    size_t len;
    size_t index; /* SC_TOKEN_INDEX */
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

#endif /* SC_VALIDATE_H */
