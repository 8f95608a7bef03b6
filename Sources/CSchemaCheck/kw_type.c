/*
 * kw_type.c: type, enum, const.
 */
#include "sc_internal.h"

#include <string.h>

enum {
    T_NULL = 1,
    T_BOOLEAN = 2,
    T_OBJECT = 4,
    T_ARRAY = 8,
    T_NUMBER = 16,
    T_STRING = 32,
    T_INTEGER = 64
};

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

static int type_matches(unsigned mask, const json_t *instance)
{
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
        return (mask & T_INTEGER) && sc_json_is_integral(instance);
    }
    return 0;
}

static int validate_type(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    if (type_matches((unsigned)kw->n, instance))
        return 1;
    if (v->full) {
        sc_buf expected;
        sc_buf_init(&expected);
        size_t count = 0, total = 0;
        for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++)
            if (kw->n & type_names[i].bit)
                total++;
        for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++) {
            if (!(kw->n & type_names[i].bit))
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

int sc_kw_type(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    (void)cn;
    unsigned mask = 0;
    if (json_is_string(value)) {
        mask = type_bit(json_string_value(value));
        if (!mask)
            return sc_compile_fail(c, kw, "\"type\" names an unknown type \"%s\"", json_string_value(value));
    } else if (json_is_array(value)) {
        for (size_t i = 0; i < json_array_size(value); i++) {
            json_t *item = json_array_get(value, i);
            unsigned bit = json_is_string(item) ? type_bit(json_string_value(item)) : 0;
            if (!bit)
                return sc_compile_fail(c, kw, "\"type\" must hold type names");
            mask |= bit;
        }
    } else {
        return sc_compile_fail(c, kw, "\"type\" must be a string or an array of strings");
    }
    kw->n = mask;
    kw->validate = validate_type;
    return 0;
}

static int validate_enum(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    for (size_t i = 0; i < json_array_size(kw->value); i++)
        if (sc_json_equal(instance, json_array_get(kw->value, i)))
            return 1;
    if (v->full) {
        sc_buf text, allowed;
        sc_buf_init(&text);
        sc_buf_init(&allowed);
        sc_buf_quote(&text, instance);
        sc_buf_quote(&allowed, kw->value);
        sc_report(v, kw, "%s is not one of %s", sc_buf_cstr(&text), sc_buf_cstr(&allowed));
        sc_buf_free(&text);
        sc_buf_free(&allowed);
    }
    return 0;
}

int sc_kw_enum(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    (void)cn;
    if (!json_is_array(value))
        return sc_compile_fail(c, kw, "\"enum\" must be an array");
    kw->value = json_incref(value);
    kw->validate = validate_enum;
    return 0;
}

static int validate_const(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    if (sc_json_equal(instance, kw->value))
        return 1;
    if (v->full) {
        sc_buf text, expected;
        sc_buf_init(&text);
        sc_buf_init(&expected);
        sc_buf_quote(&text, instance);
        sc_buf_quote(&expected, kw->value);
        sc_report(v, kw, "%s is not the expected value %s", sc_buf_cstr(&text), sc_buf_cstr(&expected));
        sc_buf_free(&text);
        sc_buf_free(&expected);
    }
    return 0;
}

int sc_kw_const(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    (void)c;
    (void)cn;
    kw->value = json_incref(value);
    kw->validate = validate_const;
    return 0;
}
