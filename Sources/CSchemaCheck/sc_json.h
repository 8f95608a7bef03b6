/* sc_json.h: numbers, JSON Schema equality and type names, UTF-8 length (util.c). */
#ifndef SC_JSON_H
#define SC_JSON_H

#include "schemacheck.h"

#include <stddef.h>

typedef struct sc_num {
    int is_int; /* the value is a whole number that fits json_int_t (then i is exact) */
    json_int_t i;
    double d; /* always set */
} sc_num;

/* Reads a JSON number; 0 ok, -1 not a number. 1.0 reads as an integer. */
int sc_num_get(const json_t *value, sc_num *out);
/* -1, 0, 1 */
int sc_num_cmp(const sc_num *a, const sc_num *b);
/* 1 when the instance number is a multiple of the divisor (divisor > 0). */
int sc_num_multiple_of(const sc_num *value, const sc_num *divisor);
/* 1 when value is an integer or a whole real. */
int sc_json_is_integral(const json_t *value);
/* JSON Schema equality: 1 == 1.0, objects unordered. */
int sc_json_equal(const json_t *a, const json_t *b);
/* "null", "boolean", "integer" (incl. whole reals), "number", "string", "array", "object" */
const char *sc_json_type_name(const json_t *value);
/* Unicode code points in UTF-8 text. */
size_t sc_utf8_length(const char *text, size_t len);

#endif /* SC_JSON_H */
