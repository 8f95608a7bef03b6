/*
 * kw_type.c: type, enum, const. A whole real (1.0) is an integer, except in draft-04.
 */
#include "sc_compile.h"
#include "sc_kw_families.h"
#include "sc_validate.h"

#include <math.h>
#include <string.h>

enum { T_NULL = 1, T_BOOLEAN = 2, T_OBJECT = 4, T_ARRAY = 8, T_NUMBER = 16, T_STRING = 32, T_INTEGER = 64 };

static const struct {
    const char *name;
    unsigned bit;
} type_names[] = {
    {"null", T_NULL},     {"boolean", T_BOOLEAN}, {"object", T_OBJECT},   {"array", T_ARRAY},
    {"number", T_NUMBER}, {"string", T_STRING},   {"integer", T_INTEGER},
};

static unsigned type_bit(const char *name)
{
    for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++)
        if (strcmp(name, type_names[i].name) == 0)
            return type_names[i].bit;
    return 0;
}

static int type_matches(const sc_type_kw *type, const json_t *instance)
{
    unsigned mask = type->mask;
    switch (json_typeof(instance)) {
    case JSON_NULL:
        return (mask & T_NULL) != 0;
    case JSON_TRUE:
    case JSON_FALSE:
        return (mask & T_BOOLEAN) != 0;
    case JSON_OBJECT:
        return (mask & T_OBJECT) != 0;
    case JSON_ARRAY:
        return (mask & T_ARRAY) != 0;
    case JSON_STRING:
        return (mask & T_STRING) != 0;
    case JSON_INTEGER:
        return (mask & (T_NUMBER | T_INTEGER)) != 0;
    case JSON_REAL:
        if (mask & T_NUMBER)
            return 1;
        if (!(mask & T_INTEGER) || !sc_json_is_integral(instance))
            return 0;
        /* draft-04: 1.0 is not an integer. An integer literal past 64 bits arrives as a real
         * too (sc_parse), so a whole real that no int64 holds still counts as one. */
        return type->whole_reals_are_integers || fabs(json_real_value(instance)) >= 9223372036854775808.0;
    }
    return 0;
}

int sc_validate_type(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    unsigned mask = kw->as.type.mask;
    if (type_matches(&kw->as.type, instance))
        return 1;
    if (v->full) {
        sc_buf expected;
        sc_buf_init(&expected);
        size_t count = 0, total = 0;
        for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++)
            if (mask & type_names[i].bit)
                total++;
        for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++) {
            if (!(mask & type_names[i].bit))
                continue;
            if (count > 0)
                sc_buf_puts(&expected, count + 1 == total ? " or " : ", ");
            sc_buf_puts(&expected, type_names[i].name);
            count++;
        }
        sc_report(v, kw, "expected %s, got %s", sc_buf_cstr(&expected), sc_json_type_name(instance));
        sc_buf_free(&expected);
    }
    return 0;
}

int sc_compile_type(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    unsigned mask = 0;
    if (json_is_string(value)) {
        mask = type_bit(json_string_value(value));
        if (!mask)
            return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"type\" names an unknown type \"%s\"",
                                   json_string_value(value));
    } else if (json_is_array(value)) {
        for (size_t i = 0; i < json_array_size(value); i++) {
            json_t *item = json_array_get(value, i);
            unsigned bit = json_is_string(item) ? type_bit(json_string_value(item)) : 0;
            if (!bit)
                return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"type\" must hold type names");
            mask |= bit;
        }
    } else {
        return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"type\" must be a string or an array of strings");
    }
    kw->as.type.mask = mask;
    kw->as.type.whole_reals_are_integers = cn->draft != SC_DRAFT_4;
    return SC_COMPILE_KEEP;
}

int sc_validate_enum(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    const json_t *allowed = kw->as.value.value;
    for (size_t i = 0; i < json_array_size(allowed); i++)
        if (sc_json_equal(instance, json_array_get(allowed, i)))
            return 1;
    if (v->full) {
        sc_buf text, allowed_text;
        sc_buf_init(&text);
        sc_buf_init(&allowed_text);
        sc_buf_quote(&text, instance);
        sc_buf_quote(&allowed_text, allowed);
        sc_report(v, kw, "%s is not one of %s", sc_buf_cstr(&text), sc_buf_cstr(&allowed_text));
        sc_buf_free(&text);
        sc_buf_free(&allowed_text);
    }
    return 0;
}

int sc_compile_enum(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    (void)cn;
    if (!json_is_array(value))
        return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"enum\" must be an array");
    kw->as.value.value = json_incref(value);
    return SC_COMPILE_KEEP;
}

int sc_validate_const(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    if (sc_json_equal(instance, kw->as.value.value))
        return 1;
    if (v->full) {
        sc_buf text, expected;
        sc_buf_init(&text);
        sc_buf_init(&expected);
        sc_buf_quote(&text, instance);
        sc_buf_quote(&expected, kw->as.value.value);
        sc_report(v, kw, "%s is not the expected value %s", sc_buf_cstr(&text), sc_buf_cstr(&expected));
        sc_buf_free(&text);
        sc_buf_free(&expected);
    }
    return 0;
}

int sc_compile_const(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    (void)c;
    (void)cn;
    kw->as.value.value = json_incref(value);
    return SC_COMPILE_KEEP;
}
