/*
 * output.c: JSON Schema "basic" output units and the result of sc_validate.
 */
#include "sc_compile.h"
#include "sc_validate.h"

#include <stdlib.h>
#include <string.h>

struct sc_result {
    int status;
    sc_unit_store store;
};

static void free_unit(sc_output_unit *u)
{
    free((char *)u->instance_location);
    free((char *)u->keyword_location);
    free((char *)u->absolute_keyword_location);
    free((char *)u->keyword);
    free((char *)u->error);
}

void sc_unit_store_free(sc_unit_store *s)
{
    for (size_t i = 0; i < s->count; i++)
        free_unit(&s->units[i]);
    free(s->units);
    memset(s, 0, sizeof *s);
}

int sc_unit_store_add(sc_unit_store *s, const char *instance_location, const char *keyword_location,
                      const char *absolute, const char *keyword, const char *error)
{
    if (s->oom)
        return -1;
    if (s->count == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 8;
        sc_output_unit *grown = realloc(s->units, cap * sizeof *grown);
        if (!grown) {
            s->oom = 1;
            return -1;
        }
        s->units = grown;
        s->cap = cap;
    }
    sc_output_unit u;
    u.instance_location = sc_strdup(instance_location);
    u.keyword_location = sc_strdup(keyword_location);
    u.absolute_keyword_location = sc_strdup(absolute);
    u.keyword = sc_strdup(keyword);
    u.error = sc_strdup(error);
    if (!u.instance_location || !u.keyword_location || !u.absolute_keyword_location || !u.keyword || !u.error) {
        free_unit(&u);
        s->oom = 1;
        return -1;
    }
    s->units[s->count++] = u;
    return 0;
}

size_t sc_units_mark(const sc_vctx *v)
{
    return v->full ? v->out->count : 0;
}

void sc_units_rewind(sc_vctx *v, size_t mark)
{
    if (!v->full)
        return;
    while (v->out->count > mark)
        free_unit(&v->out->units[--v->out->count]);
}

/* ---- public API ----------------------------------------------------------------------- */

sc_result *sc_validate(const sc_schema *schema, const json_t *instance)
{
    sc_result *result = calloc(1, sizeof *result);
    if (!result)
        return NULL;
    sc_vctx v;
    memset(&v, 0, sizeof v);
    v.schema = schema;
    v.full = 1;
    v.out = &result->store;
    sc_buf_init(&v.ipath);
    sc_buf_init(&v.kpath);
    sc_buf_append(&v.ipath, "", 0);
    sc_buf_append(&v.kpath, "", 0);
    int status;
    if (!schema || !instance) {
        status = -1;
        sc_unit_store_add(&result->store, "", "", "", "", "no schema or no instance");
    } else {
        status = sc_validate_node(&v, schema->root, instance, NULL);
    }
    if (v.ipath.failed || v.kpath.failed || result->store.oom) {
        free(v.loop_instance);
        free(v.loop_keyword);
        sc_buf_free(&v.ipath);
        sc_buf_free(&v.kpath);
        sc_result_free(result);
        return NULL;
    }
    /* A full walk that could not finish takes the fast walk's verdict when that one finishes
     * (see sc_is_valid): valid means no units; invalid keeps one unit saying why the list of
     * errors is not complete. */
    int settled = status < 0 && schema && instance ? sc_fast_walk(schema, instance) : status;
    const char *lead =
        settled == 0 ? "invalid, but listing every error could not finish" : "validation could not finish";
    if (settled == 1) {
        sc_units_rewind(&v, 0);
    } else if (status < 0 && v.loop_at) {
        /* with no verdict, what was found before the walk ran into the loop decides nothing
         * (an anyOf branch that failed first, say): the loop is the one thing to report */
        if (settled < 0)
            sc_units_rewind(&v, 0);
        char text[SC_ERROR_TEXT_LENGTH * 2];
        snprintf(text, sizeof text,
                 "%s: the schema at %s applies itself to the same value in a loop "
                 "(a $ref cycle with no property or item in between)",
                 lead, v.loop_at->canonical);
        sc_unit_store_add(&result->store, v.loop_instance ? v.loop_instance : "", v.loop_keyword ? v.loop_keyword : "",
                          v.loop_at->canonical, v.loop_via ? v.loop_via : "$ref", text);
    } else if (status < 0) {
        char text[SC_ERROR_TEXT_LENGTH];
        snprintf(text, sizeof text, "%s: %s", lead, v.incomplete ? v.incomplete : "internal error");
        sc_unit_store_add(&result->store, "", "", schema ? schema->root->canonical : "", "", text);
    }
    status = settled;
    if (result->store.oom) {
        free(v.loop_instance);
        free(v.loop_keyword);
        sc_buf_free(&v.ipath);
        sc_buf_free(&v.kpath);
        sc_result_free(result);
        return NULL;
    }
    free(v.loop_instance);
    free(v.loop_keyword);
    sc_buf_free(&v.ipath);
    sc_buf_free(&v.kpath);
    result->status = status;
    return result;
}

int sc_result_status(const sc_result *result)
{
    return result ? result->status : -1;
}

size_t sc_result_count(const sc_result *result)
{
    return result ? result->store.count : 0;
}

const sc_output_unit *sc_result_unit(const sc_result *result, size_t index)
{
    if (!result || index >= result->store.count)
        return NULL;
    return &result->store.units[index];
}

void sc_result_free(sc_result *result)
{
    if (!result)
        return;
    sc_unit_store_free(&result->store);
    free(result);
}
