/*
 * parse_agreement.h: the one check behind Tests/c/reader_tests.c and fuzz/fuzz_parse.c
 * (header-only: each includes it once). sc_parse with the fast reader on must return what
 * it returns with jansson alone: the same tree (same types, same member order, byte-equal
 * dumps) or the same error (text, line, column, byte offset); and whenever sc_parse_fast
 * takes an input itself, jansson must accept that input.
 */
#ifndef PARSE_AGREEMENT_H
#define PARSE_AGREEMENT_H

#include "sc_parse.h"

#include <stdlib.h>
#include <string.h>

static int parse_agreement_same_dump(const json_t *a, const json_t *b)
{
    size_t flags = JSON_ENCODE_ANY | JSON_COMPACT;
    char *da = json_dumps(a, flags);
    char *db = json_dumps(b, flags);
    int same = (da && db) ? strcmp(da, db) == 0 : da == db;
    free(da);
    free(db);
    return same;
}

/* NULL when the two agree, else what differs. *taken says whether sc_parse_fast took the
 * input itself (may be NULL). */
static const char *parse_agreement(const char *buffer, size_t length, const sc_parse_limits *limits, int *taken)
{
    const char *why = NULL;
    sc_error fast_error, slow_error;
    json_t *fast = sc_parse_with(buffer, length, limits, &fast_error, 1);
    json_t *slow = sc_parse_with(buffer, length, limits, &slow_error, 0);
    if (!fast != !slow)
        why = fast ? "accepted with the fast reader on, refused by jansson" : "refused with the fast reader on only";
    else if (fast && (!json_equal(fast, slow) || !parse_agreement_same_dump(fast, slow)))
        why = "the fast reader built a different tree";
    else if (!fast && (strcmp(fast_error.text, slow_error.text) != 0 || fast_error.line != slow_error.line ||
                       fast_error.column != slow_error.column || fast_error.position != slow_error.position))
        why = "a different parse error";
    size_t max_depth = limits && limits->max_depth && limits->max_depth < 2048 ? limits->max_depth : 2048;
    int within_bytes = !(limits && limits->max_bytes && length > limits->max_bytes);
    json_t *direct = within_bytes ? sc_parse_fast(buffer, length, limits, max_depth) : NULL;
    if (direct && !slow && !why)
        why = "sc_parse_fast took an input jansson refuses";
    if (taken)
        *taken = direct != NULL;
    json_decref(direct);
    json_decref(fast);
    json_decref(slow);
    return why;
}

#endif
