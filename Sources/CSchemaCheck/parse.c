/*
 * parse.c: sc_parse, reading one JSON text the way bridge messages must be read.
 *
 * Plain valid JSON inside the limits is read by the fast reader (reader.c); everything it
 * declines is decoded here by jansson, so every parse error is jansson's, located.
 *
 * jansson decodes with duplicate keys rejected and NUL kept; its own nesting cap (2048) bounds
 * its recursion, so a hostile 100,000-deep input is refused without deep recursion anywhere.
 * Then one walk over the tree enforces the depth and size limits. Only on the cold path (a
 * failed decode, or a limit hit) is the byte scan run that names where nesting first got too
 * deep: a depth violation is reported before any other error, as a pre-scan would.
 */
#include "sc_error.h"
#include "sc_parse.h"

#include <string.h>

static void locate(const char *buffer, size_t offset, int *line, int *column)
{
    int l = 1, c = 1;
    for (size_t i = 0; i < offset; i++) {
        if (buffer[i] == '\n') {
            l++;
            c = 1;
        } else if (((unsigned char)buffer[i] & 0xC0) != 0x80) {
            c++;
        }
    }
    *line = l;
    *column = c;
}

/* A limit hit at offset (input size, nesting). */
static void limit_fail(sc_error *error, const char *buffer, size_t offset, const char *fmt, size_t arg)
{
    if (!error)
        return;
    char text[SC_ERROR_TEXT_LENGTH];
    snprintf(text, sizeof text, fmt, arg);
    sc_error_set(error, SC_ERROR_LIMIT, NULL, "%s", text);
    locate(buffer, offset, &error->line, &error->column);
    error->position = offset;
}

/* Returns the offset where nesting first exceeds max_depth, or (size_t)-1. */
static size_t depth_scan(const char *buffer, size_t length, size_t max_depth)
{
    size_t depth = 0;
    int in_string = 0;
    for (size_t i = 0; i < length; i++) {
        char ch = buffer[i];
        if (in_string) {
            if (ch == '\\')
                i++;
            else if (ch == '"')
                in_string = 0;
            continue;
        }
        if (ch == '"') {
            in_string = 1;
        } else if (ch == '[' || ch == '{') {
            if (++depth > max_depth)
                return i;
        } else if (ch == ']' || ch == '}') {
            if (depth)
                depth--;
        }
    }
    return (size_t)-1;
}

/* jansson's own recursion limit (JSON_PARSER_MAX_DEPTH). */
#define SC_JANSSON_MAX_DEPTH 2048

/* 0 within the limits; -1 a size limit (error filled); SC_TOO_DEEP when a container sits
 * deeper than max_depth (the caller locates it). depth counts the containers above value. */
#define SC_TOO_DEEP (-2)
static int check_limits(const json_t *value, const sc_parse_limits *limits, size_t depth, size_t max_depth,
                        sc_error *error)
{
    switch (json_typeof(value)) {
    case JSON_STRING:
        if (limits->max_string_length && json_string_length(value) > limits->max_string_length) {
            sc_error_set(error, SC_ERROR_LIMIT, NULL, "a string of %zu bytes is longer than the limit of %zu bytes",
                         json_string_length(value), limits->max_string_length);
            return -1;
        }
        return 0;
    case JSON_ARRAY: {
        if (depth + 1 > max_depth)
            return SC_TOO_DEEP;
        size_t n = json_array_size(value);
        if (limits->max_array_length && n > limits->max_array_length) {
            sc_error_set(error, SC_ERROR_LIMIT, NULL, "an array of %zu items is longer than the limit of %zu items", n,
                         limits->max_array_length);
            return -1;
        }
        for (size_t i = 0; i < n; i++) {
            int status = check_limits(json_array_get(value, i), limits, depth + 1, max_depth, error);
            if (status < 0)
                return status;
        }
        return 0;
    }
    case JSON_OBJECT: {
        if (depth + 1 > max_depth)
            return SC_TOO_DEEP;
        size_t n = json_object_size(value);
        if (limits->max_properties && n > limits->max_properties) {
            sc_error_set(error, SC_ERROR_LIMIT, NULL, "an object of %zu properties has more than the limit of %zu", n,
                         limits->max_properties);
            return -1;
        }
        for (void *it = json_object_iter((json_t *)value); it; it = json_object_iter_next((json_t *)value, it)) {
            if (limits->max_string_length && json_object_iter_key_len(it) > limits->max_string_length) {
                sc_error_set(error, SC_ERROR_LIMIT, NULL,
                             "a property name of %zu bytes is longer than the limit of %zu bytes",
                             json_object_iter_key_len(it), limits->max_string_length);
                return -1;
            }
            int status = check_limits(json_object_iter_value(it), limits, depth + 1, max_depth, error);
            if (status < 0)
                return status;
        }
        return 0;
    }
    default:
        return 0;
    }
}

json_t *sc_parse(const char *buffer, size_t length, const sc_parse_limits *limits, sc_error *error)
{
    return sc_parse_with(buffer, length, limits, error, 1);
}

json_t *sc_parse_with(const char *buffer, size_t length, const sc_parse_limits *limits, sc_error *error, int fast)
{
    if (error)
        memset(error, 0, sizeof *error);
    if (!buffer && length) {
        sc_error_set(error, SC_ERROR_USAGE, NULL, "no input buffer");
        return NULL;
    }
    if (!buffer)
        buffer = "";
    if (limits && limits->max_bytes && length > limits->max_bytes) {
        limit_fail(error, buffer, 0, "the input of %zu bytes is larger than the limit", length);
        if (error) {
            char text[SC_ERROR_TEXT_LENGTH];
            snprintf(text, sizeof text, "the input of %zu bytes is larger than the limit of %zu bytes", length,
                     limits->max_bytes);
            memcpy(error->text, text, sizeof text);
        }
        return NULL;
    }
    size_t max_depth = SC_JANSSON_MAX_DEPTH;
    if (limits && limits->max_depth && limits->max_depth < max_depth)
        max_depth = limits->max_depth;
    if (fast) {
        json_t *value = sc_parse_fast(buffer, length, limits, max_depth);
        if (value)
            return value;
    }
    /* A raw NUL byte is never JSON (inside a string it must be written \u0000), but jansson
     * loses one that follows a literal or a number when it puts the byte back, and so reads
     * {"a":false<NUL>} as {"a":false}. The fast reader declines such input, so refuse it here. */
    const char *nul = memchr(buffer, '\0', length);
    if (nul) {
        if (error) {
            size_t offset = (size_t)(nul - buffer);
            sc_error_set(error, SC_ERROR_PARSE, NULL, "a NUL byte at offset %zu (U+0000 must be escaped)", offset);
            locate(buffer, offset, &error->line, &error->column);
            error->position = offset;
        }
        return NULL;
    }
    size_t flags = JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL | JSON_DECODE_ANY;
    json_error_t jerr;
    json_t *value = json_loadb(buffer, length, flags, &jerr);
    if (!value && strstr(jerr.text, "too big") != NULL) {
        /* An integer beyond 64 bits: read every integer as a real instead. */
        value = json_loadb(buffer, length, flags | JSON_DECODE_INT_AS_REAL, &jerr);
    }
    if (!value) {
        size_t deep = depth_scan(buffer, length, max_depth);
        if (deep != (size_t)-1) {
            limit_fail(error, buffer, deep, "nesting deeper than %zu levels", max_depth);
            return NULL;
        }
        if (error) {
            sc_error_code code =
                json_error_code(&jerr) == json_error_out_of_memory ? SC_ERROR_OUT_OF_MEMORY : SC_ERROR_PARSE;
            sc_error_set(error, code, NULL, "%s", length == 0 ? "empty input" : jerr.text);
            error->line = jerr.line > 0 ? jerr.line : 1;
            error->column = jerr.column > 0 ? jerr.column : 1;
            error->position = jerr.position > 0 ? (size_t)jerr.position : 0;
        }
        return NULL;
    }
    int status = limits ? check_limits(value, limits, 0, max_depth, error) : 0;
    if (status < 0) {
        json_decref(value);
        size_t deep = depth_scan(buffer, length, max_depth);
        if (deep != (size_t)-1 || status == SC_TOO_DEEP) {
            if (error)
                memset(error, 0, sizeof *error);
            limit_fail(error, buffer, deep != (size_t)-1 ? deep : 0, "nesting deeper than %zu levels", max_depth);
        }
        return NULL;
    }
    return value;
}
