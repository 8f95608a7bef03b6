/*
 * kw_object.c: maxProperties, minProperties, required, dependentRequired, properties,
 * patternProperties, additionalProperties, propertyNames, dependentSchemas and the
 * draft-07 "dependencies".
 */
#include "sc_internal.h"

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

static int validate_prop_count(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    if (!json_is_object(instance))
        return 1;
    size_t n = json_object_size(instance);
    if (kw->flag ? n <= kw->n : n >= kw->n)
        return 1;
    sc_report(v, kw, "the object has %zu propert%s, %s %zu", n, n == 1 ? "y" : "ies",
              kw->flag ? "more than" : "fewer than", kw->n);
    return 0;
}

int sc_kw_prop_count(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    (void)cn;
    if (sc_compile_count(c, kw, value, &kw->n) < 0)
        return -1;
    kw->flag = strcmp(kw->name, "maxProperties") == 0;
    kw->validate = validate_prop_count;
    return 0;
}

static int check_required(sc_vctx *v, const sc_kw *kw, const json_t *instance, const sc_str *names, size_t count,
                          const char *because, size_t because_len)
{
    int result = 1;
    for (size_t i = 0; i < count; i++) {
        if (json_object_getn(instance, names[i].s, names[i].len))
            continue;
        result = 0;
        if (!v->full)
            return 0;
        sc_buf a, b;
        sc_buf_init(&a);
        sc_buf_init(&b);
        if (because)
            sc_report(v, kw, "property %s is required when %s is present", quote_name(&a, names[i].s, names[i].len),
                      quote_name(&b, because, because_len));
        else
            sc_report(v, kw, "required property %s is missing", quote_name(&a, names[i].s, names[i].len));
        sc_buf_free(&a);
        sc_buf_free(&b);
    }
    return result;
}

static int validate_required(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    if (!json_is_object(instance))
        return 1;
    return check_required(v, kw, instance, kw->names, kw->nnames, NULL, 0);
}

int sc_kw_required(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    (void)cn;
    if (sc_compile_string_list(c, kw, value, &kw->names, &kw->nnames) < 0)
        return -1;
    if (kw->nnames)
        kw->validate = validate_required;
    return 0;
}

/* names[i] present => lists[i] required; subs[i] (if any) applies to the instance */
static int validate_dependent(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    if (!json_is_object(instance))
        return 1;
    int result = 1;
    for (size_t i = 0; i < kw->nnames; i++) {
        if (!json_object_getn(instance, kw->names[i].s, kw->names[i].len))
            continue;
        int r = 1;
        if (kw->lists && kw->lists[i])
            r = check_required(v, kw, instance, kw->lists[i], kw->list_lens[i], kw->names[i].s, kw->names[i].len);
        else if (kw->subs && kw->subs[i])
            r = sc_validate_child(v, kw, kw->names[i].s, kw->names[i].len, (size_t)-1, kw->subs[i], instance, NULL, 0,
                                  (size_t)-1, ann);
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

static int compile_dependent_lists(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value, int allow_schemas)
{
    if (!json_is_object(value))
        return sc_compile_fail(c, kw, "\"%s\" must be an object", kw->name);
    size_t n = json_object_size(value);
    kw->names = calloc(n ? n : 1, sizeof *kw->names);
    kw->lists = calloc(n ? n : 1, sizeof *kw->lists);
    kw->list_lens = calloc(n ? n : 1, sizeof *kw->list_lens);
    kw->subs = calloc(n ? n : 1, sizeof *kw->subs);
    if (!kw->names || !kw->lists || !kw->list_lens || !kw->subs)
        return sc_compile_fail(c, kw, "out of memory");
    size_t i = 0;
    for (void *it = json_object_iter(value); it; it = json_object_iter_next(value, it), i++) {
        const char *key = json_object_iter_key(it);
        size_t klen = json_object_iter_key_len(it);
        json_t *entry = json_object_iter_value(it);
        kw->names[i].s = sc_strndup(key, klen);
        kw->names[i].len = klen;
        kw->nnames = i + 1;
        kw->nsubs = i + 1;
        if (!kw->names[i].s)
            return sc_compile_fail(c, kw, "out of memory");
        if (json_is_array(entry)) {
            if (sc_compile_string_list(c, kw, entry, &kw->lists[i], &kw->list_lens[i]) < 0)
                return -1;
        } else if (allow_schemas && sc_is_schema(entry)) {
            sc_buf suffix;
            sc_buf_init(&suffix);
            sc_buf_pointer_token(&suffix, kw->name, strlen(kw->name));
            sc_buf_pointer_token(&suffix, key, klen);
            kw->subs[i] = suffix.failed ? NULL : sc_compile_sub(c, cn, entry, sc_buf_cstr(&suffix));
            sc_buf_free(&suffix);
            if (!kw->subs[i])
                return -1;
        } else {
            return sc_compile_fail(c, kw, "\"%s\" must map names to %s", kw->name,
                                   allow_schemas ? "arrays of names or schemas" : "arrays of names");
        }
    }
    kw->validate = validate_dependent;
    kw->in_place = 1; /* schema entries apply to the object itself */
    return 0;
}

int sc_kw_dependent_required(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    return compile_dependent_lists(c, cn, kw, value, 0);
}

int sc_kw_dependencies(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    return compile_dependent_lists(c, cn, kw, value, 1);
}

int sc_kw_dependent_schemas(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    if (sc_compile_schema_map(c, cn, kw, value) < 0)
        return -1;
    kw->validate = validate_dependent;
    kw->in_place = 1;
    return 0;
}

/* ---- properties ----------------------------------------------------------------------- */

static int validate_properties(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    if (!json_is_object(instance))
        return 1;
    if (!ann && !v->full && kw->partner)
        return 1; /* additionalProperties checks these members too (validate_members_once) */
    int result = 1;
    if (!ann) {
        /* hot path: one hash lookup in the instance per declared property */
        for (size_t i = 0; i < kw->nnames; i++) {
            const json_t *value = json_object_getn(instance, kw->names[i].s, kw->names[i].len);
            if (!value)
                continue;
            int r = sc_validate_child(v, kw, kw->names[i].s, kw->names[i].len, (size_t)-1, kw->subs[i], value,
                                      kw->names[i].s, kw->names[i].len, (size_t)-1, NULL);
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
        if (!sc_map_get(&kw->map, key, klen, &index))
            continue;
        sc_ann_add_key(ann, key);
        int r = sc_validate_child(v, kw, key, klen, (size_t)-1, kw->subs[index], json_object_iter_value(it), key, klen,
                                  (size_t)-1, NULL);
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

int sc_kw_properties(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    if (sc_compile_schema_map(c, cn, kw, value) < 0)
        return -1;
    kw->validate = validate_properties;
    return 0;
}

static int match_any(sc_vctx *v, const sc_kw *kw, const char *key, size_t klen, int *matched)
{
    *matched = 0;
    for (size_t i = 0; i < kw->nres; i++) {
        int r = sc_regex_search(kw->res[i], key, klen);
        if (r < 0) {
            v->incomplete = "a regular expression hit its match limit";
            return -1;
        }
        if (r == 1) {
            *matched = 1;
            return 0;
        }
    }
    return 0;
}

static int validate_pattern_properties(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    if (!json_is_object(instance))
        return 1;
    int result = 1;
    json_t *object = (json_t *)instance;
    for (void *it = json_object_iter(object); it; it = json_object_iter_next(object, it)) {
        const char *key = json_object_iter_key(it);
        size_t klen = json_object_iter_key_len(it);
        for (size_t i = 0; i < kw->nres; i++) {
            int m = sc_regex_search(kw->res[i], key, klen);
            if (m < 0) {
                v->incomplete = "a regular expression hit its match limit";
                return -1;
            }
            if (m == 0)
                continue;
            if (ann)
                sc_ann_add_key(ann, key);
            int r = sc_validate_child(v, kw, kw->re_src[i].s, kw->re_src[i].len, (size_t)-1, kw->subs[i],
                                      json_object_iter_value(it), key, klen, (size_t)-1, NULL);
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

/* Compiles the keys of a patternProperties object into kw->res / kw->re_src. */
static int compile_patterns(sc_cctx *c, sc_kw *kw, json_t *patterns)
{
    size_t n = json_object_size(patterns);
    kw->res = calloc(n ? n : 1, sizeof *kw->res);
    kw->re_src = calloc(n ? n : 1, sizeof *kw->re_src);
    if (!kw->res || !kw->re_src)
        return sc_compile_fail(c, kw, "out of memory");
    size_t i = 0;
    for (void *it = json_object_iter(patterns); it; it = json_object_iter_next(patterns, it), i++) {
        const char *key = json_object_iter_key(it);
        size_t klen = json_object_iter_key_len(it);
        kw->re_src[i].s = sc_strndup(key, klen);
        kw->re_src[i].len = klen;
        kw->nres = i + 1;
        if (!kw->re_src[i].s)
            return sc_compile_fail(c, kw, "out of memory");
        kw->res[i] = sc_compile_regex(c, kw, key, klen);
        if (!kw->res[i])
            return -1;
    }
    return 0;
}

int sc_kw_pattern_properties(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    if (sc_compile_schema_map(c, cn, kw, value) < 0)
        return -1;
    if (compile_patterns(c, kw, value) < 0)
        return -1;
    kw->validate = validate_pattern_properties;
    return 0;
}

/* The boolean fast path of properties + additionalProperties together: each member of the
 * instance is looked up once among the declared names, then checked against its property's
 * schema, or skipped (patternProperties checks it), or held to additionalProperties. */
static int validate_members_once(sc_vctx *v, const sc_kw *additional, const sc_kw *properties, json_t *object)
{
    for (void *it = json_object_iter(object); it; it = json_object_iter_next(object, it)) {
        const char *key = json_object_iter_key(it);
        size_t klen = json_object_iter_key_len(it);
        const json_t *value = json_object_iter_value(it);
        size_t index;
        int r;
        if (sc_map_get(&properties->map, key, klen, &index)) {
            r = sc_validate_node(v, properties->subs[index], value, NULL);
        } else {
            int matched;
            if (match_any(v, additional, key, klen, &matched) < 0)
                return -1;
            if (matched)
                continue;
            r = additional->a->boolean == 0 ? 0 : sc_validate_node(v, additional->a, value, NULL);
        }
        if (r != 1)
            return r;
    }
    return 1;
}

static int validate_additional(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    if (!json_is_object(instance))
        return 1;
    json_t *object = (json_t *)instance;
    if (!ann && !v->full && kw->partner)
        return validate_members_once(v, kw, kw->partner, object);
    int result = 1;
    for (void *it = json_object_iter(object); it; it = json_object_iter_next(object, it)) {
        const char *key = json_object_iter_key(it);
        size_t klen = json_object_iter_key_len(it);
        if (sc_map_get(&kw->map, key, klen, NULL))
            continue;
        int matched;
        if (match_any(v, kw, key, klen, &matched) < 0)
            return -1;
        if (matched)
            continue;
        int r;
        if (kw->a->boolean == 0) {
            if (v->full) {
                sc_buf a;
                sc_buf_init(&a);
                sc_report_at(v, kw, key, klen, (size_t)-1, "property %s is not allowed", quote_name(&a, key, klen));
                sc_buf_free(&a);
            }
            r = 0;
        } else {
            r = sc_validate_child(v, kw, NULL, 0, (size_t)-1, kw->a, json_object_iter_value(it), key, klen, (size_t)-1,
                                  NULL);
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

int sc_kw_additional_properties(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    if (!sc_is_schema(value))
        return sc_compile_fail(c, kw, "\"additionalProperties\" must be a schema");
    kw->a = sc_compile_sub(c, cn, value, "/additionalProperties");
    if (!kw->a)
        return -1;
    json_t *properties = json_object_get(cn->json, "properties");
    if (json_is_object(properties)) {
        for (void *it = json_object_iter(properties); it; it = json_object_iter_next(properties, it))
            if (sc_map_put(&kw->map, json_object_iter_key(it), json_object_iter_key_len(it), 0, 1) < 0)
                return sc_compile_fail(c, kw, "out of memory");
    }
    json_t *patterns = json_object_get(cn->json, "patternProperties");
    if (json_is_object(patterns) && compile_patterns(c, kw, patterns) < 0)
        return -1;
    kw->validate = validate_additional;
    return 0;
}

static int validate_property_names(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    if (!json_is_object(instance))
        return 1;
    int result = 1;
    json_t *object = (json_t *)instance;
    for (void *it = json_object_iter(object); it; it = json_object_iter_next(object, it)) {
        const char *key = json_object_iter_key(it);
        size_t klen = json_object_iter_key_len(it);
        int r;
        if (kw->a->boolean == 0) {
            if (v->full) {
                sc_buf a;
                sc_buf_init(&a);
                sc_report_at(v, kw, key, klen, (size_t)-1, "property name %s is not allowed", quote_name(&a, key, klen));
                sc_buf_free(&a);
            }
            r = 0;
        } else {
            json_t *name = json_stringn_nocheck(key, klen);
            if (!name) {
                v->incomplete = "out of memory";
                return -1;
            }
            r = sc_validate_child(v, kw, NULL, 0, (size_t)-1, kw->a, name, key, klen, (size_t)-1, NULL);
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

int sc_kw_property_names(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    if (!sc_is_schema(value))
        return sc_compile_fail(c, kw, "\"propertyNames\" must be a schema");
    kw->a = sc_compile_sub(c, cn, value, "/propertyNames");
    if (!kw->a)
        return -1;
    if (kw->a->boolean != 1)
        kw->validate = validate_property_names;
    return 0;
}
