/*
 * robustness.c: crash and leak hunting for CSchemaCheck (run it under ASan or valgrind).
 *
 *   robustness SUITE_DIR METASCHEMA_DIR DRAFT
 *
 * 1. Cross product: every schema of the draft's required files against every test
 *    instance of the draft, in both modes; the two modes must agree.
 * 2. Mutations: every keyword value of every schema (top level) replaced by each value of
 *    a pool of odd values; compile must either succeed or fail with a message, never
 *    crash, and what compiles is validated against the file's instances.
 * 3. Parser: truncated prefixes of every test file must parse or fail cleanly.
 */
#define _DEFAULT_SOURCE
#include "schemacheck.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = malloc((size_t)size + 1);
    *len = fread(data, 1, (size_t)size, f);
    fclose(f);
    return data;
}

static json_t *load(const char *path)
{
    size_t len;
    char *data = read_file(path, &len);
    if (!data)
        return NULL;
    json_t *doc = sc_parse(data, len, NULL, NULL);
    free(data);
    return doc;
}

static size_t disagreements, compiled, rejected, pairs;

static void check_pair(const sc_schema *schema, const json_t *data)
{
    int fast = sc_is_valid(schema, data);
    sc_result *res = sc_validate(schema, data);
    int full = sc_result_status(res);
    /* -1 is "could not finish" (a loop the instance enters, a limit); a walk that cannot
     * finish takes the other's verdict, so the two agree exactly, as in fuzz_common.h */
    if (fast != full) {
        disagreements++;
        char *text = json_dumps(data, JSON_ENCODE_ANY | JSON_COMPACT);
        fprintf(stderr, "modes disagree (fast %d, full %d) on %s\n", fast, full, text ? text : "?");
        free(text);
    }
    for (size_t i = 0; i < sc_result_count(res); i++) {
        const sc_output_unit *u = sc_result_unit(res, i);
        if (!u->error[0])
            fprintf(stderr, "empty error sentence\n");
    }
    sc_result_free(res);
    pairs++;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s SUITE_DIR METASCHEMA_DIR DRAFT\n", argv[0]);
        return 2;
    }
    const char *suite = argv[1], *draft = argv[3];
    (void)argv[2];
    sc_registry *reg = sc_registry_new();
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/%s", suite, draft);
    DIR *d = opendir(dir);
    json_t *schemas = json_array(), *instances = json_array(), *files = json_array();
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (!strstr(e->d_name, ".json"))
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        json_t *cases = load(path);
        if (!cases)
            continue;
        json_array_append_new(files, json_string(path));
        for (size_t i = 0; i < json_array_size(cases); i++) {
            json_t *c = json_array_get(cases, i);
            json_array_append(schemas, json_object_get(c, "schema"));
            json_t *tests = json_object_get(c, "tests");
            for (size_t k = 0; k < json_array_size(tests); k++)
                json_array_append(instances, json_object_get(json_array_get(tests, k), "data"));
        }
        json_decref(cases);
    }
    if (d)
        closedir(d);
    sc_options opts;
    sc_options_init(&opts);
    opts.default_dialect = strcmp(draft, "draft7") == 0         ? SC_DIALECT_DRAFT7
                           : strcmp(draft, "draft2019-09") == 0 ? SC_DIALECT_2019_09
                           : strcmp(draft, "draft6") == 0       ? SC_DIALECT_DRAFT6
                           : strcmp(draft, "draft4") == 0       ? SC_DIALECT_DRAFT4
                                                                : SC_DIALECT_2020_12;

    /* 1. cross product */
    for (size_t s = 0; s < json_array_size(schemas); s++) {
        sc_schema *schema = sc_compile_document(json_array_get(schemas, s), reg, &opts, NULL);
        if (!schema)
            continue;
        for (size_t i = 0; i < json_array_size(instances); i++)
            check_pair(schema, json_array_get(instances, i));
        sc_schema_free(schema);
    }
    size_t cross = pairs;

    /* 2. mutations */
    json_t *pool = json_loads("[null, true, false, -1, 0, 1.5, 1e300, \"x\", \"(\", \"#/nope\", \"#\", [], {},"
                              " [\"a\", \"a\"], [1, \"a\"], {\"a\": 1}, {\"a\": [1]}, {\"$ref\": \"#\"}]",
                              0, NULL);
    for (size_t s = 0; s < json_array_size(schemas); s++) {
        json_t *schema = json_array_get(schemas, s);
        if (!json_is_object(schema))
            continue;
        const char *key;
        json_t *value;
        json_object_foreach(schema, key, value)
        {
            for (size_t p = 0; p < json_array_size(pool); p++) {
                json_t *copy = json_deep_copy(schema);
                json_object_set(copy, key, json_array_get(pool, p));
                sc_error err;
                sc_schema *compiled_schema = sc_compile_document(copy, reg, &opts, &err);
                if (compiled_schema) {
                    compiled++;
                    for (size_t i = 0; i < json_array_size(instances); i += 37)
                        check_pair(compiled_schema, json_array_get(instances, i));
                    sc_schema_free(compiled_schema);
                } else {
                    rejected++;
                    if (!err.text[0] || err.code == SC_ERROR_NONE)
                        fprintf(stderr, "compile failed without a message or a code\n");
                }
                json_decref(copy);
            }
        }
    }
    json_decref(pool);

    /* 3. truncated parser input */
    size_t parses = 0;
    for (size_t f = 0; f < json_array_size(files); f++) {
        size_t len;
        char *data = read_file(json_string_value(json_array_get(files, f)), &len);
        for (size_t cut = 0; cut < len; cut += 1 + len / 97) {
            sc_parse_limits limits = {0, 8, 64, 16, 16};
            sc_error err;
            json_t *doc = sc_parse(data, cut, cut % 2 ? &limits : NULL, &err);
            json_decref(doc);
            parses++;
        }
        free(data);
    }
    printf("%s: %zu cross pairs, %zu mutated schemas compiled, %zu rejected, %zu pairs total, %zu parses, "
           "%zu disagreements\n",
           draft, cross, compiled, rejected, pairs, parses, disagreements);
    json_decref(schemas);
    json_decref(instances);
    json_decref(files);
    sc_registry_free(reg);
    return disagreements ? 1 : 0;
}
