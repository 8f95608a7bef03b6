/*
 * limits_tests.c: every input limit of the checker refuses with a clear error, at the
 * configured value and not one below it, and hostile inputs finish in bounded time.
 * Defaults are the bridge's (SchemaCheck ParseLimits.bridgeMessage, manifest.limits):
 * 64 KiB, depth 64, 16 KiB strings, 256 properties, 1024 items; regex match limit 100000
 * (SC_REGEX_DEFAULT_MATCH_LIMIT); validation depth 512 (SC_DEFAULT_MAX_DEPTH).
 * Run by Tests/c/run-limits-tests.sh. Prints PASS/FAIL per case; exit 1 on a FAIL.
 */
#define _GNU_SOURCE
#include "schemacheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int failures;

static void report(int ok, const char *name, const char *detail)
{
    printf("%s %s%s%s\n", ok ? "PASS" : "FAIL", name, detail && *detail ? ": " : "", detail ? detail : "");
    if (!ok)
        failures++;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const sc_parse_limits bridge = {
    .max_bytes = 65536, .max_depth = 64, .max_string_length = 16384, .max_properties = 256, .max_array_length = 1024};

/* Parses text with limits: expects success, or a limit failure (SC_ERROR_LIMIT) with
 * expected_text inside the error. */
static void expect_parse(const char *name, const char *text, size_t length, const sc_parse_limits *limits,
                         const char *expected_text)
{
    sc_error err;
    json_t *value = sc_parse(text, length, limits, &err);
    char detail[SC_ERROR_TEXT_LENGTH + 64];
    if (!expected_text) {
        snprintf(detail, sizeof detail, "%s", value ? "accepted" : err.text);
        report(value != NULL, name, detail);
    } else {
        snprintf(detail, sizeof detail, "%s (code %d)", value ? "accepted, expected a refusal" : err.text,
                 (int)err.code);
        report(!value && err.code == SC_ERROR_LIMIT && strstr(err.text, expected_text) != NULL, name, detail);
    }
    json_decref(value);
}

static char *repeat(const char *open, size_t n, const char *middle, const char *close)
{
    size_t lo = strlen(open), lm = strlen(middle), lc = strlen(close);
    char *s = malloc(n * (lo + lc) + lm + 1), *p = s;
    for (size_t i = 0; i < n; i++, p += lo)
        memcpy(p, open, lo);
    memcpy(p, middle, lm);
    p += lm;
    for (size_t i = 0; i < n; i++, p += lc)
        memcpy(p, close, lc);
    *p = '\0';
    return s;
}

/* A JSON array of n zeros, or an object of n members. */
static char *sized(size_t n, int object)
{
    char *s = malloc(n * 16 + 3), *p = s;
    *p++ = object ? '{' : '[';
    for (size_t i = 0; i < n; i++)
        p += object ? sprintf(p, "%s\"k%zu\":0", i ? "," : "", i) : sprintf(p, "%s0", i ? "," : "");
    *p++ = object ? '}' : ']';
    *p = '\0';
    return s;
}

static void test_parse_limits(void)
{
    /* message size */
    char *big = malloc(65537 + 1);
    big[0] = '"';
    memset(big + 1, 'a', 65535);
    big[65536] = '"';
    big[65535] = '"';
    expect_parse("size: exactly 64 KiB accepted", big, 65536, &(sc_parse_limits){.max_bytes = 65536}, NULL);
    big[65535] = 'a';
    expect_parse("size: 64 KiB + 1 refused", big, 65537, &bridge, "larger than the limit of 65536 bytes");
    free(big);

    /* nesting depth */
    char *deep = repeat("[", 64, "0", "]");
    expect_parse("depth: 64 levels accepted", deep, strlen(deep), &bridge, NULL);
    free(deep);
    deep = repeat("{\"a\":", 65, "0", "}");
    expect_parse("depth: 65 levels refused", deep, strlen(deep), &bridge, "nesting deeper than 64 levels");
    free(deep);
    deep = repeat("[", 1000000, "", "]");
    double t = now();
    expect_parse("depth: 1,000,000 levels with no limit refused, no recursion", deep, strlen(deep), NULL,
                 "nesting deeper than");
    report(now() - t < 2.0, "depth: 1,000,000 levels refused in under 2 s", "");
    free(deep);
    const char *quoted = "[\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\"]";
    expect_parse("depth: brackets inside strings do not count", quoted, strlen(quoted), &bridge, NULL);

    /* string length (bytes, for values and for property names) */
    char *str = malloc(16384 + 8);
    str[0] = '"';
    memset(str + 1, 'x', 16384);
    strcpy(str + 1 + 16384, "\"");
    expect_parse("string: 16384 bytes accepted", str, strlen(str), &bridge, NULL);
    free(str);
    str = malloc(16385 + 8);
    str[0] = '"';
    memset(str + 1, 'x', 16385);
    strcpy(str + 1 + 16385, "\"");
    expect_parse("string: 16385 bytes refused", str, strlen(str), &bridge, "longer than the limit of 16384 bytes");
    free(str);
    expect_parse("string: property name over the limit refused", "{\"abcdef\":1}", 12,
                 &(sc_parse_limits){.max_string_length = 5}, "property name of 6 bytes");

    /* properties */
    char *obj = sized(256, 1);
    expect_parse("properties: 256 accepted", obj, strlen(obj), &bridge, NULL);
    free(obj);
    obj = sized(257, 1);
    expect_parse("properties: 257 refused", obj, strlen(obj), &bridge, "more than the limit of 256");
    free(obj);
    obj = repeat("{\"a\":", 3, "{\"x\":1,\"y\":2,\"z\":3}", "}");
    expect_parse("properties: nested object over the limit refused", obj, strlen(obj),
                 &(sc_parse_limits){.max_properties = 2}, "more than the limit of 2");
    free(obj);

    /* array length */
    char *arr = sized(1024, 0);
    expect_parse("array: 1024 items accepted", arr, strlen(arr), &bridge, NULL);
    free(arr);
    arr = sized(1025, 0);
    expect_parse("array: 1025 items refused", arr, strlen(arr), &bridge, "longer than the limit of 1024 items");
    free(arr);

    /* numbers that do not fit: refused or read as reals, never a crash */
    char *digits = malloc(1000002);
    memset(digits, '9', 1000000);
    digits[1000000] = '\0';
    sc_error err;
    json_t *v = sc_parse(digits, 1000000, NULL, &err);
    report(v == NULL || json_is_number(v), "number: a million digits is refused or a number", v ? "number" : err.text);
    json_decref(v);
    free(digits);
    v = sc_parse("1e400", 5, NULL, &err);
    report(v == NULL || json_is_number(v), "number: 1e400 is refused or a number", v ? "number" : err.text);
    json_decref(v);
}

static sc_schema *compile_text(const char *text, const sc_options *opts, sc_error *err)
{
    json_t *doc = sc_parse(text, strlen(text), NULL, err);
    if (!doc)
        return NULL;
    sc_schema *schema = sc_compile_document(doc, NULL, opts, err);
    json_decref(doc);
    return schema;
}

static void test_regex_limit(void)
{
    /* Catastrophic backtracking: (a+)+$ against "aaaa...a!" takes 2^n steps without a limit. */
    char subject[64];
    memset(subject, 'a', 40);
    strcpy(subject + 40, "!");
    json_t *instance = json_string(subject);
    sc_options opts;
    sc_options_init(&opts);
    sc_error err;
    sc_schema *schema = compile_text("{\"pattern\":\"^(a+)+$\"}", &opts, &err);
    if (!schema) {
        report(0, "regex: ReDoS pattern compiles", err.text);
        json_decref(instance);
        return;
    }
    double t = now();
    int fast = sc_is_valid(schema, instance);
    sc_result *result = sc_validate(schema, instance);
    double elapsed = now() - t;
    char detail[512];
    const sc_output_unit *unit = sc_result_unit(result, 0);
    snprintf(detail, sizeof detail, "fast=%d full=%d in %.3f s: %s", fast, sc_result_status(result), elapsed,
             unit ? unit->error : "(no unit)");
    report(fast == -1 && sc_result_status(result) == -1 && unit && strstr(unit->error, "limit") != NULL,
           "regex: default match limit stops (a+)+$ with a 'could not finish' error", detail);
    report(elapsed < 2.0, "regex: ReDoS case finishes in under 2 s", detail);
    sc_result_free(result);
    sc_schema_free(schema);

    /* A configured limit is used: 10 a's need about 2^10 backtracking steps, fine under the
     * default limit (a definite "invalid") but over a limit of 100. */
    json_t *short_subject = json_string("aaaaaaaaaa!");
    opts.regex_match_limit = 100;
    schema = compile_text("{\"pattern\":\"^(a+)+$\"}", &opts, &err);
    int limited = schema ? sc_is_valid(schema, short_subject) : -2;
    sc_schema_free(schema);
    opts.regex_match_limit = 0;
    schema = compile_text("{\"pattern\":\"^(a+)+$\"}", &opts, &err);
    int unlimited = schema ? sc_is_valid(schema, short_subject) : -2;
    snprintf(detail, sizeof detail, "limit 100 -> %d, default -> %d", limited, unlimited);
    report(limited == -1 && unlimited == 0, "regex: regex_match_limit is configurable", detail);
    sc_schema_free(schema);
    json_decref(short_subject);
    json_decref(instance);
}

static void test_validation_depth_and_cycles(void)
{
    sc_options opts;
    sc_options_init(&opts);
    sc_error err;
    char detail[512];

    /* A recursive schema over a deep (but parse-legal) instance stops at the validation depth. */
    opts.max_validation_depth = 16;
    sc_schema *tree = compile_text("{\"items\":{\"$ref\":\"#\"}}", &opts, &err);
    char *deep_text = repeat("[", 40, "", "]");
    json_t *deep = sc_parse(deep_text, strlen(deep_text), NULL, &err);
    int fast = tree && deep ? sc_is_valid(tree, deep) : -2;
    sc_result *result = tree && deep ? sc_validate(tree, deep) : NULL;
    const sc_output_unit *unit = sc_result_unit(result, 0);
    snprintf(detail, sizeof detail, "fast=%d full=%d: %s", fast, result ? sc_result_status(result) : -2,
             unit ? unit->error : "(no unit)");
    report(fast == -1 && result && sc_result_status(result) == -1 && unit && strstr(unit->error, "depth"),
           "validation depth: max_validation_depth=16 stops a 40-deep recursion with a clear error", detail);
    sc_result_free(result);
    sc_schema_free(tree);
    json_decref(deep);
    free(deep_text);

    /* Loops that make no progress (no property or item between visits) compile, and only an
     * instance that enters one fails: status -1, in both modes, with a unit naming the loop,
     * quickly (not by running into the depth limit). */
    static const struct {
        const char *schema;
        const char *enters; /* an instance that reaches the loop */
        const char *misses; /* one that does not (NULL: every instance does) */
        int missed_valid;
    } loops[] = {
        {"{\"$ref\":\"#\"}", "1", NULL, 0},
        {"{\"$defs\":{\"a\":{\"$ref\":\"#/$defs/b\"},\"b\":{\"$ref\":\"#/$defs/a\"}},\"$ref\":\"#/$defs/a\"}", "{}",
         NULL, 0},
        {"{\"allOf\":[{\"$ref\":\"#\"}]}", "[]", NULL, 0},
        {"{\"properties\":{\"x\":{\"$ref\":\"#/$defs/loop\"}},\"$defs\":{\"loop\":{\"anyOf\":[{\"$ref\":\"#/$defs/"
         "loop\"}]}}}",
         "{\"x\":1}", "{\"y\":1}", 1},
        {"{\"anyOf\":[{\"type\":\"string\"},{\"$ref\":\"#\"}]}", "5", "\"s\"", 1},
        {"{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"$id\":\"https://example.com/"
         "a.json\",\"$ref\":\"#\"}",
         "\"x\"", NULL, 0},
    };
    sc_options_init(&opts);
    for (size_t i = 0; i < sizeof loops / sizeof loops[0]; i++) {
        sc_schema *schema = compile_text(loops[i].schema, &opts, &err);
        const char *where = schema ? sc_schema_loop_location(schema) : NULL;
        snprintf(detail, sizeof detail, "%s -> %s%s", loops[i].schema, schema ? "compiled, loop at " : err.text,
                 where ? where : "(none)");
        report(schema != NULL && where != NULL, "loop: compiles and names a schema object on the loop", detail);
        if (!schema)
            continue;
        json_t *enters = sc_parse(loops[i].enters, strlen(loops[i].enters), NULL, &err);
        double t = now();
        int fast = sc_is_valid(schema, enters);
        sc_result *result = sc_validate(schema, enters);
        double elapsed = now() - t;
        const sc_output_unit *unit = sc_result_unit(result, sc_result_count(result) ? sc_result_count(result) - 1 : 0);
        snprintf(detail, sizeof detail, "%s on %s: fast=%d full=%d in %.3f s: %s", loops[i].schema, loops[i].enters,
                 fast, sc_result_status(result), elapsed, unit ? unit->error : "(no unit)");
        report(fast == -1 && sc_result_status(result) == -1 && unit && strstr(unit->error, "in a loop") &&
                   strstr(unit->error, "#") && elapsed < 0.5,
               "loop: an instance that enters it cannot be validated, with a clear error", detail);
        sc_result_free(result);
        json_decref(enters);
        if (loops[i].misses) {
            json_t *misses = sc_parse(loops[i].misses, strlen(loops[i].misses), NULL, &err);
            fast = sc_is_valid(schema, misses);
            result = sc_validate(schema, misses);
            snprintf(detail, sizeof detail, "%s on %s: fast=%d full=%d", loops[i].schema, loops[i].misses, fast,
                     sc_result_status(result));
            report(fast == loops[i].missed_valid && sc_result_status(result) == loops[i].missed_valid,
                   "loop: an instance that does not enter it validates as usual", detail);
            sc_result_free(result);
            json_decref(misses);
        }
        sc_schema_free(schema);
    }
    /* recursion that makes progress is not a loop */
    sc_schema *progress = compile_text("{\"items\":{\"$ref\":\"#\"}}", &opts, &err);
    report(progress && sc_schema_loop_location(progress) == NULL, "loop: recursion into items is not a loop",
           progress ? "no loop" : err.text);
    sc_schema_free(progress);
}

/* Arenas: 256 slabs, so 256 arenas at once and not one more; a freed arena's slab serves the
 * next one, however many are made in turn. Run last: it installs the allocation hooks. */
enum { arena_slabs = 256 };

static void test_arena_slabs(void)
{
    if (sc_arena_install_hooks() != 0) {
        report(0, "arenas: install the hooks", "no address space for the arenas");
        return;
    }
    sc_arena *held[arena_slabs + 1] = {0};
    int taken = 0;
    for (int i = 0; i < arena_slabs + 1; i++) {
        held[i] = sc_arena_new();
        if (held[i])
            taken++;
    }
    report(taken == arena_slabs && held[arena_slabs - 1] && !held[arena_slabs],
           "arenas: 255 and 256 at once are made, the 257th is refused", NULL);
    sc_arena_free(held[0]);
    held[0] = sc_arena_new();
    report(held[0] != NULL, "arenas: one freed while 256 are held makes room for the next", NULL);
    for (int i = 0; i < arena_slabs + 1; i++)
        sc_arena_free(held[i]); /* the refused one is NULL: freeing NULL does nothing */

    int made = 0;
    for (int i = 0; i < 3 * arena_slabs; i++) {
        sc_arena *arena = sc_arena_new();
        if (!arena)
            break;
        sc_error error;
        json_t *value = sc_parse_in_arena(arena, "{\"a\":[1,2,3]}", 13, &bridge, &error);
        if (value && json_array_size(json_object_get(value, "a")) == 3)
            made++;
        sc_arena_release(arena, value);
        sc_arena_free(arena);
    }
    report(made == 3 * arena_slabs, "arenas: 768 made, used and freed in turn each get a slab", NULL);
}

/* A document larger than an arena's slab: what does not fit goes to malloc, and releasing the
 * document frees those parts too (LeakSanitizer, on in this build, fails the run otherwise).
 * After test_arena_slabs, which installs the hooks. */
static void test_arena_past_its_slab(void)
{
    enum { items = 60000 }; /* about 600 KiB of text, and more as jansson values: past 512 KiB */
    size_t size = 2 + (size_t)items * 10;
    char *text = malloc(size + 1);
    if (!text) {
        report(0, "arenas: a document past the slab", "out of memory");
        return;
    }
    size_t at = 0;
    text[at++] = '[';
    for (int i = 0; i < items; i++)
        at += (size_t)snprintf(text + at, size + 1 - at, "%s\"item%03d\"", i ? "," : "", i % 1000);
    text[at++] = ']';
    const sc_parse_limits roomy = {
        .max_bytes = 0, .max_depth = 64, .max_string_length = 0, .max_properties = 0, .max_array_length = 0};
    sc_arena *arena = sc_arena_new();
    sc_error error;
    json_t *value = arena ? sc_parse_in_arena(arena, text, at, &roomy, &error) : NULL;
    const char *why = NULL;
    if (!arena)
        why = "no arena";
    else if (!value)
        why = error.text;
    report(value && json_array_size(value) == items, "arenas: a document past the slab is read whole", why);
    sc_arena_release(arena, value);
    /* The same arena, reset, takes the next document in its slab. */
    json_t *small = arena ? sc_parse_in_arena(arena, "[1]", 3, &roomy, &error) : NULL;
    report(small && json_array_size(small) == 1, "arenas: after a document past the slab, the next one is read", NULL);
    sc_arena_release(arena, small);
    sc_arena_free(arena);
    free(text);
}

int main(void)
{
    test_parse_limits();
    test_regex_limit();
    test_validation_depth_and_cycles();
    test_arena_slabs();
    test_arena_past_its_slab();
    printf("limits: %s (%d failing)\n", failures ? "FAILED" : "all limits hold", failures);
    return failures ? 1 : 0;
}
