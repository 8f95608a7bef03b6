/* sc_kw.h: compiled keywords: one struct per keyword family, the keyword table (keywords.c). */
#ifndef SC_KW_H
#define SC_KW_H

#include "sc_buf.h"
#include "sc_dialect.h"
#include "sc_json.h"
#include "sc_map.h"
#include "sc_regex_format.h"
#include "schemacheck.h"

#include <stddef.h>

typedef struct sc_node sc_node;
typedef struct sc_kw sc_kw;
typedef struct sc_vctx sc_vctx;
typedef struct sc_ann sc_ann;
typedef struct sc_cctx sc_cctx;
typedef struct sc_resource_rt sc_resource_rt;

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
    int base64;            /* the string is base64 (decoded before the media type check) */
    int json;              /* the (decoded) content is JSON */
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
    sc_map index; /* name -> position in names */
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
    SC_TRAIT_IN_PLACE = 1u << 0,         /* applies subschemas to the same instance location */
    SC_TRAIT_READS_ANN = 1u << 1,        /* reads the annotations of its schema object (unevaluated*) */
    SC_TRAIT_BOOLEAN_IN_DRAFT4 = 1u << 2 /* its value may be a boolean even in draft-04 */
};

/* One entry of the keyword table (keywords.c). */
typedef struct sc_keyword {
    const char *name;
    sc_kw_family family;
    int variant;       /* family-specific: the sc_bound_kind or sc_count_side it stands for */
    unsigned dialects; /* SC_IN_*: where it exists */
    unsigned vocab;    /* SC_VOC_* bits that switch it on (2020-12 meta-schemas) */
    unsigned traits;   /* SC_TRAIT_* */
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

#endif /* SC_KW_H */
