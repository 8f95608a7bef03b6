/*
 * reader_tests.c: the fast reader (reader.c) never changes what sc_parse returns.
 *
 * Every input is parsed with the fast reader on and with jansson alone, and the two must
 * agree (parse_agreement.h: same tree or same error). Inputs: every
 * file given on the command line (the JSON-Schema-Test-Suite, the contract fixtures), every
 * test instance of those files re-encoded four ways, a table of edge cases, and seeded
 * mutations of all of them, each under no limits, the bridge's limits and tiny limits.
 * It also counts how often the fast reader took the input itself, and fails when it
 * declines plain inputs it is meant to take (so a reader that always declines cannot pass).
 *
 * Usage: reader_tests FILE...   (Tests/c/run-reader-tests.sh passes the usual files)
 */
#define _GNU_SOURCE
#include "parse_agreement.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long failures;
static long compared;
static long fast_taken; /* the fast reader returned the tree itself */
static long plain_inputs;
static long plain_taken;

static const sc_parse_limits no_limits = {0, 0, 0, 0, 0};
static const sc_parse_limits bridge_limits = {65536, 64, 16384, 256, 1024};
static const sc_parse_limits tiny_limits = {4096, 3, 5, 3, 3};

static void show(const char *buffer, size_t length)
{
    fprintf(stderr, "    input (%zu bytes): ", length);
    for (size_t i = 0; i < length && i < 160; i++) {
        unsigned char c = (unsigned char)buffer[i];
        if (c >= 0x20 && c < 0x7F)
            fputc(c, stderr);
        else
            fprintf(stderr, "\\x%02X", c);
    }
    fputc('\n', stderr);
}

static void fail(const char *what, const char *name, const char *buffer, size_t length)
{
    if (failures < 20) {
        fprintf(stderr, "FAIL %s: %s\n", name, what);
        show(buffer, length);
    }
    failures++;
}

static void compare(const char *name, const char *buffer, size_t length, const sc_parse_limits *limits)
{
    int taken = 0;
    const char *why = parse_agreement(buffer, length, limits, &taken);
    compared++;
    fast_taken += taken;
    if (why)
        fail(why, name, buffer, length);
}

static void compare_all_limits(const char *name, const char *buffer, size_t length)
{
    compare(name, buffer, length, &no_limits);
    compare(name, buffer, length, &bridge_limits);
    compare(name, buffer, length, &tiny_limits);
}

/* Plain input (valid JSON, no integer beyond 18 digits, no NUL in a key): the fast reader
 * must take it, or it is not doing its job. */
static void expect_taken(const char *name, const char *buffer, size_t length)
{
    plain_inputs++;
    json_t *direct = sc_parse_fast(buffer, length, &no_limits, 2048);
    if (direct)
        plain_taken++;
    else if (failures < 20)
        fprintf(stderr, "note: declined plain input %s\n", name);
    json_decref(direct);
}

/* ---- seeded mutations ------------------------------------------------------------------ */

static unsigned long long rng_state = 0x9E3779B97F4A7C15ULL;

static unsigned long long next_random(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static const unsigned char interesting[] = {'"',  '\\', '{',  '}',  '[',  ']',  ',',  ':',  '0',  '1',  '9',  '-',
                                            '+',  '.',  'e',  'E',  'u',  'n',  't',  'f',  ' ',  '\n', 0x00, 0x1F,
                                            0x7F, 0x80, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF};

static void mutate_and_compare(const char *name, const char *buffer, size_t length, int rounds)
{
    char *copy = malloc(length + 16);
    for (int round = 0; round < rounds; round++) {
        memcpy(copy, buffer, length);
        size_t n = length;
        int edits = 1 + (int)(next_random() % 3);
        for (int e = 0; e < edits; e++) {
            size_t at = n ? (size_t)(next_random() % n) : 0;
            unsigned char byte = interesting[next_random() % sizeof interesting];
            switch (next_random() % 4) {
            case 0: /* replace */
                if (n)
                    copy[at] = (char)byte;
                break;
            case 1: /* insert */
                if (n < length + 16) {
                    memmove(copy + at + 1, copy + at, n - at);
                    copy[at] = (char)byte;
                    n++;
                }
                break;
            case 2: /* delete */
                if (n) {
                    memmove(copy + at, copy + at + 1, n - at - 1);
                    n--;
                }
                break;
            default: /* truncate */
                n = at;
                break;
            }
        }
        compare_all_limits(name, copy, n);
    }
    free(copy);
}

/* ---- inputs ------------------------------------------------------------------------------ */

static char *read_file(const char *path, size_t *length)
{
    FILE *file = fopen(path, "rb");
    if (!file)
        return NULL;
    size_t capacity = 1 << 16, used = 0;
    char *data = malloc(capacity);
    size_t got;
    while ((got = fread(data + used, 1, capacity - used, file)) > 0) {
        used += got;
        if (used == capacity)
            data = realloc(data, capacity *= 2);
    }
    fclose(file);
    *length = used;
    return data;
}

static int has_long_integer(const char *text)
{
    size_t run = 0;
    int in_string = 0;
    for (const char *p = text; *p; p++) {
        if (in_string) {
            if (*p == '\\' && p[1])
                p++;
            else if (*p == '"')
                in_string = 0;
            continue;
        }
        if (*p == '"')
            in_string = 1;
        if (*p >= '0' && *p <= '9') {
            if (++run > 18)
                return 1;
        } else {
            run = 0;
        }
    }
    return 0;
}

/* Every instance ("data") of a suite file, re-encoded compact, indented, ASCII-escaped
 * (every non-ASCII character as \u, surrogate pairs included) and sorted. */
static void compare_instances(const char *path, json_t *document)
{
    static const size_t encodings[] = {JSON_COMPACT, JSON_INDENT(2), JSON_ENSURE_ASCII | JSON_COMPACT,
                                       JSON_SORT_KEYS | JSON_ENSURE_ASCII | JSON_INDENT(1)};
    if (!json_is_array(document))
        return;
    size_t g;
    json_t *group;
    json_array_foreach(document, g, group)
    {
        size_t t;
        json_t *test;
        json_array_foreach(json_object_get(group, "tests"), t, test)
        {
            json_t *data = json_object_get(test, "data");
            if (!data)
                continue;
            for (size_t e = 0; e < sizeof encodings / sizeof encodings[0]; e++) {
                char *text = json_dumps(data, encodings[e] | JSON_ENCODE_ANY);
                if (!text)
                    continue;
                size_t length = strlen(text);
                compare_all_limits(path, text, length);
                if (!has_long_integer(text))
                    expect_taken(path, text, length);
                if (e == 2)
                    mutate_and_compare(path, text, length, 8);
                free(text);
            }
        }
    }
}

static const char *const edge_cases[] = {
    "",
    " ",
    "{}",
    "[]",
    "\"\"",
    "0",
    "-0",
    "-0.0",
    "1.5e3",
    "1E-2",
    "1e400",
    "-1e400",
    "1e-400",
    "00",
    "01",
    "-",
    "-a",
    "1.",
    ".5",
    "1e",
    "1e+",
    "+1",
    "123456789012345678",
    "-123456789012345678",
    "1234567890123456789",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775809",
    "99999999999999999999999",
    "0.1234567890123456789012345678901234567890123456789012345678901234567890",
    "true",
    "false",
    "null",
    "tru",
    "nul",
    "truex",
    "[1,]",
    "[,1]",
    "{\"a\":1,}",
    "{,}",
    "{\"a\"}",
    "{\"a\" 1}",
    "{\"a\":1 \"b\":2}",
    "{\"a\":1,\"a\":2}",
    "{\"a\":{\"b\":1,\"b\":1}}",
    "{\"\\u0061\":1,\"a\":2}",
    "{1:2}",
    "[1 2]",
    "[\"a\" \"b\"]",
    "\"\\u0000\"",
    "{\"\\u0000\":1}",
    "{\"a\\u0000b\":1}",
    "\"\\uD83D\\uDE00\"",
    "\"\\uD83D\"",
    "\"\\uDE00\"",
    "\"\\uD83Dx\"",
    "\"\\uD83D\\u0041\"",
    "\"\\uD83D\\uD83D\"",
    "\"\\u00e9\\u00C9\"",
    "\"\\x\"",
    "\"\\u12\"",
    "\"\\u12G4\"",
    "\"\\",
    "\"abc",
    "\"\t\"",
    "\"\x1F\"",
    "\"\x7F\"",
    "\"\xC3\xA9\"",
    "\"\xC0\xAF\"",
    "\"\xC1\xBF\"",
    "\"\xE0\x80\xAF\"",
    "\"\xED\xA0\x80\"",
    "\"\xF4\x90\x80\x80\"",
    "\"\xF5\x80\x80\x80\"",
    "\"\xFF\"",
    "\"\xE2\x82\"",
    "\"\xF0\x9F\x98\x80\"",
    "\"\xEC\x8B\xA0\xEC\xB2\xAD\"",
    "\xEF\xBB\xBF{}",
    "{}x",
    "{} ",
    " \t\r\n{} \t\r\n",
    "{}\n{}",
    "[[[[]]]]",
    "[[[[[[[[[[]]]]]]]]]]",
    "{\"a\":[{\"b\":[{\"c\":[]}]}]}",
    "\"12345\"",
    "\"123456\"",
    "[1,2,3]",
    "[1,2,3,4]",
    "{\"a\":1,\"b\":2,\"c\":3}",
    "{\"a\":1,\"b\":2,\"c\":3,\"d\":4}",
    "{\"abcde\":1}",
    "{\"abcdef\":1}",
    "{\"abc\\u0064e\":1}",
    "{\"abc\\u0064ef\":1}",
    "[\"\\/\\b\\f\\n\\r\\t\\\"\\\\\"]",
    "[1e2, 1.0, -0, 0.0, 100]",
    "/* comment */ {}",
    "{\"a\":1}\x00",
    "NaN",
    "Infinity",
    "[-]",
    "[01]",
    "[-01]",
    "[1.e5]",
    "[1e5.5]",
    "\"\\u0041\\u00410\"",
};

static void compare_edge_cases(void)
{
    for (size_t i = 0; i < sizeof edge_cases / sizeof edge_cases[0]; i++) {
        const char *text = edge_cases[i];
        size_t length = strlen(text);
        compare_all_limits("edge case", text, length);
        mutate_and_compare("edge case (mutated)", text, length, 200);
    }
    /* a NUL byte inside a string, and after the value */
    compare_all_limits("raw NUL in a string", "\"a\0b\"", 5);
    compare_all_limits("NUL after the value", "{}\0", 3);
    /* nesting at jansson's cap and past it, and at the bridge's depth limit and past it */
    size_t sizes[] = {3, 4, 64, 65, 128, 129, 2048, 2049, 5000};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t depth = sizes[s];
        char *text = malloc(depth * 2 + 1);
        for (size_t d = 0; d < depth; d++) {
            text[d] = '[';
            text[depth * 2 - 1 - d] = ']';
        }
        compare_all_limits("nesting", text, depth * 2);
        free(text);
    }
    /* a long escaped key (past the reader's stack copy) and a long escaped string */
    char key[8192];
    size_t n = (size_t)snprintf(key, sizeof key, "{\"");
    for (int i = 0; i < 200; i++)
        n += (size_t)snprintf(key + n, sizeof key - n, "\\u00e9");
    n += (size_t)snprintf(key + n, sizeof key - n, "\":\"");
    for (int i = 0; i < 200; i++)
        n += (size_t)snprintf(key + n, sizeof key - n, "\\uD83D\\uDE00");
    n += (size_t)snprintf(key + n, sizeof key - n, "\"}");
    compare_all_limits("long escaped key and value", key, n);
}

static void expect(int condition, const char *what)
{
    if (!condition) {
        fprintf(stderr, "FAIL arena: %s\n", what);
        failures++;
    }
}

/* Arenas are opt-in per process: until sc_arena_install_hooks, sc_arena_new gives none and
 * jansson keeps its allocator; values made before the hooks are still freed after them. */
static void check_arena_opt_in(void)
{
    expect(sc_arena_new() == NULL, "sc_arena_new gives an arena before the process opted in");
    const char *text = "{\"action\":\"share\",\"payload\":[1,2,3]}";
    json_t *before = json_loads(text, 0, NULL);
    expect(before != NULL, "jansson parses before the hooks");
    expect(sc_arena_install_hooks() == 0, "sc_arena_install_hooks fails");
    expect(sc_arena_install_hooks() == 0, "a second sc_arena_install_hooks gives another answer");
    json_decref(before); /* malloc memory from before the hooks goes back to free */
    sc_arena *arena = sc_arena_new();
    expect(arena != NULL, "no arena after the process opted in");
    sc_error error;
    json_t *value = sc_parse_in_arena(arena, text, strlen(text), &bridge_limits, &error);
    expect(value && json_is_object(value) && json_array_size(json_object_get(value, "payload")) == 3,
           "a message parsed into the arena reads back");
    sc_arena_release(arena, value);
    json_t *heap = json_loads(text, 0, NULL); /* outside sc_parse_in_arena: the heap */
    expect(heap != NULL, "jansson parses on the heap beside an arena");
    json_decref(heap);
    sc_arena_free(arena);
}

int main(int argc, char **argv)
{
    check_arena_opt_in();
    compare_edge_cases();
    for (int i = 1; i < argc; i++) {
        size_t length;
        char *data = read_file(argv[i], &length);
        if (!data) {
            fprintf(stderr, "cannot read %s\n", argv[i]);
            return 2;
        }
        compare_all_limits(argv[i], data, length);
        mutate_and_compare(argv[i], data, length, 4);
        json_t *document = json_loadb(data, length, JSON_DECODE_ANY, NULL);
        if (document) {
            if (!has_long_integer(data))
                expect_taken(argv[i], data, length);
            compare_instances(argv[i], document);
            json_decref(document);
        }
        free(data);
    }
    /* the reader must take (almost) all plain input; a few suite files hold NUL keys */
    double taken_share = plain_inputs ? (double)plain_taken / (double)plain_inputs : 0;
    if (plain_inputs < 1000 || taken_share < 0.99) {
        fprintf(stderr, "FAIL the fast reader took %ld of %ld plain inputs\n", plain_taken, plain_inputs);
        failures++;
    }
    printf("reader: %ld comparisons (fast reader took %ld itself), %ld of %ld plain inputs taken, %ld failed\n",
           compared, fast_taken, plain_taken, plain_inputs, failures);
    return failures ? 1 : 0;
}
