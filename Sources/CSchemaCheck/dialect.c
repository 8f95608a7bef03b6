/*
 * dialect.c: the five dialects (draft-04, draft-06, draft-07, 2019-09, 2020-12), the
 * "$schema" URIs that name them, and what a meta-schema's "$vocabulary" switches on.
 *
 * The index walk (registry.c) and the compiler (compile.c) both ask here, so a schema is
 * read the same way when it is scanned for identifiers and when it is compiled, and a
 * default dialect (sc_options.default_dialect, the registry's dialect) means exactly what
 * "$schema" of that dialect means.
 */
#include "sc_dialect.h"
#include "sc_uri.h"

#include <string.h>

static const struct {
    sc_draft draft;
    const char *uri; /* as the meta-schema declares itself */
} dialect_uris[] = {
    {SC_DRAFT_2020, "https://json-schema.org/draft/2020-12/schema"},
    {SC_DRAFT_2019, "https://json-schema.org/draft/2019-09/schema"},
    {SC_DRAFT_7, "http://json-schema.org/draft-07/schema#"},
    {SC_DRAFT_6, "http://json-schema.org/draft-06/schema#"},
    {SC_DRAFT_4, "http://json-schema.org/draft-04/schema#"},
};

#define DIALECT_COUNT (sizeof dialect_uris / sizeof dialect_uris[0])

/* 1 when uri is known written with or without its empty fragment. */
static int same_meta_uri(const char *uri, const char *known)
{
    size_t n = sc_uri_base_length(known);
    return strncmp(uri, known, n) == 0 && (uri[n] == '\0' || (uri[n] == '#' && uri[n + 1] == '\0'));
}

int sc_draft_of_uri(const char *uri, sc_draft *draft)
{
    for (size_t i = 0; i < DIALECT_COUNT; i++) {
        if (same_meta_uri(uri, dialect_uris[i].uri)) {
            *draft = dialect_uris[i].draft;
            return 1;
        }
    }
    return 0;
}

const char *sc_draft_uri(sc_draft draft)
{
    for (size_t i = 0; i < DIALECT_COUNT; i++)
        if (dialect_uris[i].draft == draft)
            return dialect_uris[i].uri;
    return dialect_uris[0].uri;
}

sc_draft sc_draft_from_dialect(sc_dialect dialect)
{
    switch (dialect) {
    case SC_DIALECT_DRAFT7:
        return SC_DRAFT_7;
    case SC_DIALECT_2019_09:
        return SC_DRAFT_2019;
    case SC_DIALECT_DRAFT6:
        return SC_DRAFT_6;
    case SC_DIALECT_DRAFT4:
        return SC_DRAFT_4;
    case SC_DIALECT_2020_12:
        break;
    }
    return SC_DRAFT_2020;
}

/* ---- vocabularies ------------------------------------------------------------------------ */

static const struct {
    sc_draft draft;
    const char *name;
    unsigned bits;
} vocabularies[] = {
    {SC_DRAFT_2020, "core", SC_VOC_CORE},
    {SC_DRAFT_2020, "applicator", SC_VOC_APPLICATOR},
    {SC_DRAFT_2020, "unevaluated", SC_VOC_UNEVALUATED},
    {SC_DRAFT_2020, "validation", SC_VOC_VALIDATION},
    {SC_DRAFT_2020, "format-annotation", SC_VOC_FORMAT_ANNOTATION},
    {SC_DRAFT_2020, "format-assertion", SC_VOC_FORMAT_ASSERTION},
    {SC_DRAFT_2020, "content", SC_VOC_CONTENT},
    {SC_DRAFT_2020, "meta-data", SC_VOC_METADATA},
    /* 2019-09: the unevaluated keywords belong to the applicator vocabulary, and "format"
     * is an annotation unless the caller asks for assertions */
    {SC_DRAFT_2019, "core", SC_VOC_CORE},
    {SC_DRAFT_2019, "applicator", SC_VOC_APPLICATOR | SC_VOC_UNEVALUATED},
    {SC_DRAFT_2019, "validation", SC_VOC_VALIDATION},
    {SC_DRAFT_2019, "format", SC_VOC_FORMAT_ANNOTATION},
    {SC_DRAFT_2019, "content", SC_VOC_CONTENT},
    {SC_DRAFT_2019, "meta-data", SC_VOC_METADATA},
};

static const char *vocabulary_prefix(sc_draft draft)
{
    return draft == SC_DRAFT_2019 ? "https://json-schema.org/draft/2019-09/vocab/"
                                  : "https://json-schema.org/draft/2020-12/vocab/";
}

/* The vocabularies a "$vocabulary" object switches on; -1 when it requires one this checker
 * does not know (its name in *unknown). */
static int read_vocabulary(const json_t *vocabulary, sc_draft draft, unsigned *bits, const char **unknown)
{
    const char *prefix = vocabulary_prefix(draft);
    size_t plen = strlen(prefix);
    unsigned on = SC_VOC_CORE;
    json_t *object = (json_t *)vocabulary;
    for (void *it = json_object_iter(object); it; it = json_object_iter_next(object, it)) {
        const char *name = json_object_iter_key(it);
        unsigned bit = 0;
        if (strncmp(name, prefix, plen) == 0)
            for (size_t i = 0; i < sizeof vocabularies / sizeof vocabularies[0]; i++)
                if (vocabularies[i].draft == draft && strcmp(name + plen, vocabularies[i].name) == 0)
                    bit = vocabularies[i].bits;
        if (!bit && json_is_true(json_object_iter_value(it))) {
            *unknown = name;
            return -1;
        }
        on |= bit;
    }
    *bits = on;
    return 0;
}

/* ---- resolving "$schema" ----------------------------------------------------------------- */

#define SC_MAX_META_HOPS 8

int sc_dialect_resolve(const char *schema_uri, sc_meta_lookup find, const void *context, sc_resolved_dialect *out,
                       char *why, size_t why_size)
{
    const char *uri = schema_uri;
    const json_t *vocabulary = NULL; /* of the meta-schema nearest to the schema */
    for (int hops = 0; hops <= SC_MAX_META_HOPS; hops++) {
        sc_draft draft;
        if (sc_draft_of_uri(uri, &draft)) {
            out->draft = draft;
            out->vocab = SC_VOC_ALL & ~SC_VOC_FORMAT_ASSERTION;
            if (vocabulary && draft >= SC_DRAFT_2019 && json_is_object(vocabulary)) {
                const char *unknown = NULL;
                if (read_vocabulary(vocabulary, draft, &out->vocab, &unknown) < 0) {
                    snprintf(why, why_size, "the meta-schema \"%s\" requires the unsupported vocabulary \"%s\"",
                             schema_uri, unknown);
                    return SC_DIALECT_UNSUPPORTED_VOCABULARY;
                }
            }
            return 0;
        }
        const json_t *meta = find ? find(context, uri) : NULL;
        if (!json_is_object(meta))
            break;
        json_t *own = json_object_get(meta, "$schema");
        if (!json_is_string(own) || strcmp(json_string_value(own), uri) == 0)
            break; /* a meta-schema of its own making: no dialect to read it by */
        if (!vocabulary)
            vocabulary = json_object_get(meta, "$vocabulary");
        uri = json_string_value(own);
    }
    snprintf(why, why_size,
             "unknown $schema \"%s\" (known: 2020-12, 2019-09, draft-07, draft-06, draft-04, or a meta-schema "
             "registered under that URI)",
             schema_uri);
    return SC_DIALECT_UNKNOWN;
}
