/* sc_dialect.h: the five dialects and their vocabularies (dialect.c). */
#ifndef SC_DIALECT_H
#define SC_DIALECT_H

#include "schemacheck.h"

#include <stddef.h>

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

#endif /* SC_DIALECT_H */
