/*
 * kw_object.c: maxProperties, minProperties, required, dependentRequired, properties,
 * patternProperties, additionalProperties, propertyNames, dependentSchemas and the
 * draft-07 "dependencies".
 */
#include "sc_compile.h"
#include "sc_kw_families.h"
#include "sc_validate.h"

#include <stdlib.h>
#include <string.h>

/* Formats a property name as a quoted JSON string into b (full mode only). */
static const char *quote_name(sc_buf *b, const char *name, size_t len)
{
    json_t *text = json_stringn_nocheck(name, len);
    if (text)
        sc_buf_quote(b, text);
    json_decref(text);
    return sc_buf_cstr(b);
}

int sc_validate_property_count(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    if (!json_is_object(instance))
        return 1;
    const sc_count_kw *bound = &kw->as.count;
    int at_most = bound->side == SC_AT_MOST;
    size_t n = json_object_size(instance);
    if (at_most ? n <= bound->limit : n >= bound->limit)
        return 1;
    sc_report(v, kw, "the object has %zu propert%s, %s %zu", n, n == 1 ? "y" : "ies",
              at_most ? "more than" : "fewer than", bound->limit);
    return 0;
}

int sc_compile_property_count(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    (void)cn;
    if (sc_compile_count(c, kw, value, &kw->as.count.limit) < 0)
        return SC_COMPILE_FAILED;
    kw->as.count.side = (sc_count_side)kw->def->variant;
    return SC_COMPILE_KEEP;
}

/* ---- required, dependentRequired, dependentSchemas, dependencies ------------------------- */

/* Every name of list must be a member; because names the member that made them required. */
static int check_required(sc_vctx *v, const sc_kw *kw, const json_t *instance, const sc_name_list *list,
                          const sc_str *because)
{
    int result = 1;
    for (size_t i = 0; i < list->count; i++) {
        const sc_str *name = &list->names[i];
        if (json_object_getn(instance, name->s, name->len))
            continue;
        result = 0;
        if (!v->full)
            return 0;
        sc_buf a, b;
        sc_buf_init(&a);
        sc_buf_init(&b);
        if (because)
            sc_report(v, kw, "property %s is required when %s is present", quote_name(&a, name->s, name->len),
                      quote_name(&b, because->s, because->len));
        else
            sc_report(v, kw, "required property %s is missing", quote_name(&a, name->s, name->len));
        sc_buf_free(&a);
        sc_buf_free(&b);
    }
    return result;
}

int sc_validate_required(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    if (!json_is_object(instance))
        return 1;
    return check_required(v, kw, instance, &kw->as.required.list, NULL);
}

int sc_compile_required(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    (void)cn;
    if (sc_compile_name_list(c, kw, value, &kw->as.required.list) < 0)
        return SC_COMPILE_FAILED;
    return kw->as.required.list.count ? SC_COMPILE_KEEP : SC_COMPILE_DROP;
}

int sc_validate_dependencies(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    if (!json_is_object(instance))
        return 1;
    const sc_dependencies_kw *d = &kw->as.dependencies;
    int result = 1;
    for (size_t i = 0; i < d->count; i++) {
        const sc_str *name = &d->names[i];
        if (!json_object_getn(instance, name->s, name->len))
            continue;
        int r = 1;
        if (d->required && d->required[i].names) {
            r = check_required(v, kw, instance, &d->required[i], name);
        } else if (d->schemas && d->schemas[i]) {
            sc_step step = {.instance = instance, .via = sc_name_token(name->s, name->len), .ann = ann};
            r = sc_validate_step(v, kw, d->schemas[i], &step);
        }
        if (r < 0)
            return -1;
        if (r == 0) {
            result = 0;
            if (!v->full)
                return 0;
        }
    }
    return result;
}

/* What an entry of the object may be. */
enum { NAMES = 1, SCHEMAS = 2 };

static int compile_dependencies(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value, int allowed)
{
    if (!json_is_object(value))
        return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"%s\" must be an object", kw->def->name);
    sc_dependencies_kw *d = &kw->as.dependencies;
    size_t n = json_object_size(value);
    /* calloc'd and counted up front, so the keyword's release frees what was filled */
    d->names = calloc(n ? n : 1, sizeof *d->names);
    d->required = (allowed & NAMES) ? calloc(n ? n : 1, sizeof *d->required) : NULL;
    d->schemas = (allowed & SCHEMAS) ? calloc(n ? n : 1, sizeof *d->schemas) : NULL;
    d->count = n;
    if (!d->names || ((allowed & NAMES) && !d->required) || ((allowed & SCHEMAS) && !d->schemas))
        return sc_compile_fail(c, kw, SC_ERROR_OUT_OF_MEMORY, "out of memory");
    size_t i = 0;
    for (void *it = json_object_iter(value); it; it = json_object_iter_next(value, it), i++) {
        const char *key = json_object_iter_key(it);
        size_t klen = json_object_iter_key_len(it);
        json_t *entry = json_object_iter_value(it);
        d->names[i].s = sc_strndup(key, klen);
        d->names[i].len = klen;
        if (!d->names[i].s)
            return sc_compile_fail(c, kw, SC_ERROR_OUT_OF_MEMORY, "out of memory");
        if ((allowed & NAMES) && json_is_array(entry)) {
            if (sc_compile_name_list(c, kw, entry, &d->required[i]) < 0)
                return SC_COMPILE_FAILED;
        } else if ((allowed & SCHEMAS) && sc_is_schema(entry)) {
            sc_buf suffix;
            sc_buf_init(&suffix);
            sc_buf_pointer_token(&suffix, kw->def->name, strlen(kw->def->name));
            sc_buf_pointer_token(&suffix, key, klen);
            d->schemas[i] = suffix.failed ? NULL : sc_compile_sub(c, cn, entry, sc_buf_cstr(&suffix));
            sc_buf_free(&suffix);
            if (!d->schemas[i])
                return sc_compile_failed(c) ? SC_COMPILE_FAILED
                                            : sc_compile_fail(c, kw, SC_ERROR_OUT_OF_MEMORY, "out of memory");
        } else {
            return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"%s\" must map names to %s", kw->def->name,
                                   allowed == NAMES     ? "arrays of names"
                                   : allowed == SCHEMAS ? "schemas"
                                                        : "arrays of names or schemas");
        }
    }
    return SC_COMPILE_KEEP;
}

int sc_compile_dependent_required(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    return compile_dependencies(c, cn, kw, value, NAMES);
}

int sc_compile_dependent_schemas(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    return compile_dependencies(c, cn, kw, value, SCHEMAS);
}

int sc_compile_dependencies(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    return compile_dependencies(c, cn, kw, value, NAMES | SCHEMAS);
}

/* ---- properties ----------------------------------------------------------------------- */

int sc_validate_properties(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    if (!json_is_object(instance))
        return 1;
    const sc_properties_kw *p = &kw->as.properties;
    if (!ann && !v->full && p->additional)
        return 1; /* additionalProperties checks these members too (validate_members_once) */
    int result = 1;
    if (!ann) {
        /* hot path: one hash lookup in the instance per declared property */
        for (size_t i = 0; i < p->count; i++) {
            const sc_str *name = &p->names[i];
            const json_t *value = json_object_getn(instance, name->s, name->len);
            if (!value)
                continue;
            sc_step step = {
                .instance = value, .at = sc_name_token(name->s, name->len), .via = sc_name_token(name->s, name->len)};
            int r = sc_validate_step(v, kw, p->schemas[i], &step);
            if (r < 0)
                return -1;
            if (r == 0) {
                result = 0;
                if (!v->full)
                    return 0;
            }
        }
        return result;
    }
    json_t *object = (json_t *)instance;
    for (void *it = json_object_iter(object); it; it = json_object_iter_next(object, it)) {
        const char *key = json_object_iter_key(it);
        size_t klen = json_object_iter_key_len(it);
        size_t index;
        if (!sc_map_get(&p->index, key, klen, &index))
            continue;
        sc_ann_add_key(ann, key);
        sc_step step = {
            .instance = json_object_iter_value(it), .at = sc_name_token(key, klen), .via = sc_name_token(key, klen)};
        int r = sc_validate_step(v, kw, p->schemas[index], &step);
        if (r < 0)
            return -1;
        if (r == 0) {
            result = 0;
            if (!v->full)
                return 0;
        }
    }
    return result;
}

int sc_compile_properties(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    if (!json_is_object(value))
        return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"properties\" must be an object of schemas");
    sc_properties_kw *p = &kw->as.properties;
    size_t n = json_object_size(value);
    p->names = calloc(n ? n : 1, sizeof *p->names);
    p->schemas = calloc(n ? n : 1, sizeof *p->schemas);
    p->count = n;
    if (!p->names || !p->schemas)
        return sc_compile_fail(c, kw, SC_ERROR_OUT_OF_MEMORY, "out of memory");
    size_t i = 0;
    for (void *it = json_object_iter(value); it; it = json_object_iter_next(value, it), i++) {
        const char *key = json_object_iter_key(it);
        size_t klen = json_object_iter_key_len(it);
        json_t *sub = json_object_iter_value(it);
        p->names[i].s = sc_strndup(key, klen);
        p->names[i].len = klen;
        if (!p->names[i].s || sc_map_put(&p->index, key, klen, i, 1) < 0)
            return sc_compile_fail(c, kw, SC_ERROR_OUT_OF_MEMORY, "out of memory");
        if (!sc_is_schema(sub))
            return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"properties\" must be an object of schemas");
        sc_buf suffix;
        sc_buf_init(&suffix);
        sc_buf_puts(&suffix, "/properties");
        sc_buf_pointer_token(&suffix, key, klen);
        p->schemas[i] = suffix.failed ? NULL : sc_compile_sub(c, cn, sub, sc_buf_cstr(&suffix));
        sc_buf_free(&suffix);
        if (!p->schemas[i])
            return sc_compile_failed(c) ? SC_COMPILE_FAILED
                                        : sc_compile_fail(c, kw, SC_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    return SC_COMPILE_KEEP;
}

/* ---- patternProperties ------------------------------------------------------------------ */

/* 1 when a pattern of p (may be NULL) matches key, 0 when none does, -1 at the match limit. */
static int any_pattern_matches(sc_vctx *v, const sc_pattern_properties_kw *p, const char *key, size_t klen)
{
    if (!p)
        return 0;
    for (size_t i = 0; i < p->count; i++) {
        int r = sc_regex_search(p->res[i], key, klen);
        if (r < 0) {
            v->incomplete = "a regular expression hit its match limit";
            return -1;
        }
        if (r == 1)
            return 1;
    }
    return 0;
}

int sc_validate_pattern_properties(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    if (!json_is_object(instance))
        return 1;
    const sc_pattern_properties_kw *p = &kw->as.pattern_properties;
    int result = 1;
    json_t *object = (json_t *)instance;
    for (void *it = json_object_iter(object); it; it = json_object_iter_next(object, it)) {
        const char *key = json_object_iter_key(it);
        size_t klen = json_object_iter_key_len(it);
        for (size_t i = 0; i < p->count; i++) {
            int m = sc_regex_search(p->res[i], key, klen);
            if (m < 0) {
                v->incomplete = "a regular expression hit its match limit";
                return -1;
            }
            if (m == 0)
                continue;
            if (ann)
                sc_ann_add_key(ann, key);
            sc_step step = {.instance = json_object_iter_value(it),
                            .at = sc_name_token(key, klen),
                            .via = sc_name_token(p->sources[i].s, p->sources[i].len)};
            int r = sc_validate_step(v, kw, p->schemas[i], &step);
            if (r < 0)
                return -1;
            if (r == 0) {
                result = 0;
                if (!v->full)
                    return 0;
            }
        }
    }
    return result;
}

int sc_compile_pattern_properties(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    if (!json_is_object(value))
        return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"patternProperties\" must be an object of schemas");
    sc_pattern_properties_kw *p = &kw->as.pattern_properties;
    size_t n = json_object_size(value);
    p->sources = calloc(n ? n : 1, sizeof *p->sources);
    p->res = calloc(n ? n : 1, sizeof *p->res);
    p->schemas = calloc(n ? n : 1, sizeof *p->schemas);
    p->count = n;
    if (!p->sources || !p->res || !p->schemas)
        return sc_compile_fail(c, kw, SC_ERROR_OUT_OF_MEMORY, "out of memory");
    size_t i = 0;
    for (void *it = json_object_iter(value); it; it = json_object_iter_next(value, it), i++) {
        const char *key = json_object_iter_key(it);
        size_t klen = json_object_iter_key_len(it);
        json_t *sub = json_object_iter_value(it);
        p->sources[i].s = sc_strndup(key, klen);
        p->sources[i].len = klen;
        if (!p->sources[i].s)
            return sc_compile_fail(c, kw, SC_ERROR_OUT_OF_MEMORY, "out of memory");
        if (!sc_is_schema(sub))
            return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA,
                                   "\"patternProperties\" must be an object of schemas");
        sc_buf suffix;
        sc_buf_init(&suffix);
        sc_buf_puts(&suffix, "/patternProperties");
        sc_buf_pointer_token(&suffix, key, klen);
        p->schemas[i] = suffix.failed ? NULL : sc_compile_sub(c, cn, sub, sc_buf_cstr(&suffix));
        sc_buf_free(&suffix);
        if (!p->schemas[i])
            return sc_compile_failed(c) ? SC_COMPILE_FAILED
                                        : sc_compile_fail(c, kw, SC_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    /* the regexes after the subschemas, as before: a bad subschema is reported first */
    for (i = 0; i < n; i++) {
        p->res[i] = sc_compile_regex(c, kw, p->sources[i].s, p->sources[i].len);
        if (!p->res[i])
            return SC_COMPILE_FAILED;
    }
    return SC_COMPILE_KEEP;
}

/* ---- additionalProperties ------------------------------------------------------------ */

/* The boolean fast path of properties + additionalProperties together: each member of the
 * instance is looked up once among the declared names, then checked against its property's
 * schema, or skipped (patternProperties checks it), or held to additionalProperties. */
static int validate_members_once(sc_vctx *v, const sc_additional_kw *a, json_t *object)
{
    const sc_properties_kw *properties = a->properties;
    for (void *it = json_object_iter(object); it; it = json_object_iter_next(object, it)) {
        const char *key = json_object_iter_key(it);
        size_t klen = json_object_iter_key_len(it);
        const json_t *value = json_object_iter_value(it);
        size_t index;
        int r;
        if (sc_map_get(&properties->index, key, klen, &index)) {
            r = sc_validate_node(v, properties->schemas[index], value, NULL);
        } else {
            int matched = any_pattern_matches(v, a->patterns, key, klen);
            if (matched < 0)
                return -1;
            if (matched)
                continue;
            r = a->schema->boolean == 0 ? 0 : sc_validate_node(v, a->schema, value, NULL);
        }
        if (r != 1)
            return r;
    }
    return 1;
}

int sc_validate_additional_properties(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    if (!json_is_object(instance))
        return 1;
    const sc_additional_kw *a = &kw->as.additional;
    json_t *object = (json_t *)instance;
    if (!ann && !v->full && a->properties)
        return validate_members_once(v, a, object);
    int result = 1;
    for (void *it = json_object_iter(object); it; it = json_object_iter_next(object, it)) {
        const char *key = json_object_iter_key(it);
        size_t klen = json_object_iter_key_len(it);
        if (a->properties && sc_map_get(&a->properties->index, key, klen, NULL))
            continue;
        int matched = any_pattern_matches(v, a->patterns, key, klen);
        if (matched < 0)
            return -1;
        if (matched)
            continue;
        int r;
        if (a->schema->boolean == 0) {
            if (v->full) {
                sc_buf text;
                sc_buf_init(&text);
                sc_report_at(v, kw, sc_name_token(key, klen), "property %s is not allowed",
                             quote_name(&text, key, klen));
                sc_buf_free(&text);
            }
            r = 0;
        } else {
            sc_step step = {.instance = json_object_iter_value(it), .at = sc_name_token(key, klen)};
            r = sc_validate_step(v, kw, a->schema, &step);
        }
        if (r < 0)
            return -1;
        if (r == 0) {
            result = 0;
            if (!v->full)
                return 0;
        }
    }
    if (ann)
        ann->all_props = 1;
    return result;
}

/* properties and patternProperties of the same object are filled in once every keyword of
 * the object is compiled (compile.c, pair_object_keywords). */
int sc_compile_additional_properties(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    kw->as.additional.schema = sc_compile_keyword_schema(c, cn, kw, value);
    return kw->as.additional.schema ? SC_COMPILE_KEEP : SC_COMPILE_FAILED;
}

/* ---- propertyNames -------------------------------------------------------------------- */

int sc_validate_property_names(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    if (!json_is_object(instance))
        return 1;
    const sc_node *schema = kw->as.sub.schema;
    int result = 1;
    json_t *object = (json_t *)instance;
    for (void *it = json_object_iter(object); it; it = json_object_iter_next(object, it)) {
        const char *key = json_object_iter_key(it);
        size_t klen = json_object_iter_key_len(it);
        int r;
        if (schema->boolean == 0) {
            if (v->full) {
                sc_buf text;
                sc_buf_init(&text);
                sc_report_at(v, kw, sc_name_token(key, klen), "property name %s is not allowed",
                             quote_name(&text, key, klen));
                sc_buf_free(&text);
            }
            r = 0;
        } else {
            json_t *name = json_stringn_nocheck(key, klen);
            if (!name) {
                v->incomplete = "out of memory";
                return -1;
            }
            sc_step step = {.instance = name, .at = sc_name_token(key, klen)};
            r = sc_validate_step(v, kw, schema, &step);
            json_decref(name);
        }
        if (r < 0)
            return -1;
        if (r == 0) {
            result = 0;
            if (!v->full)
                return 0;
        }
    }
    return result;
}

int sc_compile_property_names(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    kw->as.sub.schema = sc_compile_keyword_schema(c, cn, kw, value);
    if (!kw->as.sub.schema)
        return SC_COMPILE_FAILED;
    return kw->as.sub.schema->boolean == 1 ? SC_COMPILE_DROP : SC_COMPILE_KEEP;
}
