/*
 * suite_runner.c: runs the JSON-Schema-Test-Suite against CSchemaCheck, for fast
 * iteration in C (the Swift conformance test is the official one).
 *
 *   suite_runner SUITE_DIR METASCHEMA_DIR DRAFT [optional] [-v]
 *
 * DRAFT is draft2020-12, draft2019-09, draft7, draft6 or draft4 (the default dialect of the
 * registry and of every test schema). Optional files run with content assertions on, and
 * optional/format/ with format assertions. Prints per-file counts, every failure as
 * "draft/file.json :: case :: test", and a total. Both sc_is_valid and sc_validate must
 * give the expected answer for a test to pass.
 */
#define _DEFAULT_SOURCE
#include "schemacheck.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static json_t *load_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = malloc((size_t)size + 1);
    size_t got = fread(data, 1, (size_t)size, f);
    fclose(f);
    sc_error err;
    json_t *doc = sc_parse(data, got, NULL, &err);
    if (!doc)
        fprintf(stderr, "%s: %s (line %d)\n", path, err.text, err.line);
    free(data);
    return doc;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Lists regular files (recursively when recurse) under dir, relative paths, sorted. */
static void list_files(const char *root, const char *rel, int recurse, char ***out, size_t *n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s%s%s", root, rel[0] ? "/" : "", rel);
    DIR *d = opendir(path);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char sub[4096], full[8192];
        snprintf(sub, sizeof sub, "%s%s%s", rel, rel[0] ? "/" : "", e->d_name);
        snprintf(full, sizeof full, "%s/%s", root, sub);
        struct stat st;
        if (stat(full, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            if (recurse)
                list_files(root, sub, recurse, out, n);
        } else if (strstr(e->d_name, ".json")) {
            *out = realloc(*out, (*n + 1) * sizeof **out);
            (*out)[(*n)++] = strdup(sub);
        }
    }
    closedir(d);
    qsort(*out, *n, sizeof **out, cmp_names);
}

static void free_list(char **list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(list[i]);
    free(list);
}

static int verbose;

static sc_dialect dialect_of(const char *draft)
{
    if (strcmp(draft, "draft7") == 0)
        return SC_DIALECT_DRAFT7;
    if (strcmp(draft, "draft2019-09") == 0)
        return SC_DIALECT_2019_09;
    if (strcmp(draft, "draft6") == 0)
        return SC_DIALECT_DRAFT6;
    if (strcmp(draft, "draft4") == 0)
        return SC_DIALECT_DRAFT4;
    return SC_DIALECT_2020_12;
}

static void run_file(const char *suite, const char *draft, const char *rel, const sc_registry *reg, int assert_format,
                     int assert_content, size_t *pass, size_t *fail)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/%s/%s", suite, draft, rel);
    json_t *cases = load_file(path);
    if (!cases)
        return;
    size_t p = 0, f = 0;
    sc_options opts;
    sc_options_init(&opts);
    opts.default_dialect = dialect_of(draft);
    opts.assert_format = assert_format;
    opts.assert_content = assert_content;
    for (size_t i = 0; i < json_array_size(cases); i++) {
        json_t *c = json_array_get(cases, i);
        const char *cdesc = json_string_value(json_object_get(c, "description"));
        sc_error err;
        sc_schema *schema = sc_compile_document(json_object_get(c, "schema"), reg, &opts, &err);
        json_t *tests = json_object_get(c, "tests");
        for (size_t k = 0; k < json_array_size(tests); k++) {
            json_t *t = json_array_get(tests, k);
            const char *tdesc = json_string_value(json_object_get(t, "description"));
            int expected = json_is_true(json_object_get(t, "valid"));
            int ok;
            char why[1024] = "";
            if (!schema) {
                ok = 0;
                snprintf(why, sizeof why, "compile: %s at %s", err.text, err.location);
            } else {
                json_t *data = json_object_get(t, "data");
                int fast = sc_is_valid(schema, data);
                sc_result *res = sc_validate(schema, data);
                int full = sc_result_status(res);
                ok = fast == expected && full == expected;
                if (full == 1 && sc_result_count(res) != 0)
                    ok = 0;
                if (full == 0 && sc_result_count(res) == 0)
                    ok = 0;
                snprintf(why, sizeof why, "fast=%d full=%d units=%zu expected=%d", fast, full, sc_result_count(res),
                         expected);
                if (verbose && sc_result_count(res)) {
                    const sc_output_unit *u = sc_result_unit(res, 0);
                    size_t len = strlen(why);
                    snprintf(why + len, sizeof why - len, " [%s | %s | %s]", u->instance_location, u->keyword_location,
                             u->error);
                }
                sc_result_free(res);
            }
            if (ok) {
                p++;
            } else {
                f++;
                printf("FAIL %s/%s :: %s :: %s    (%s)\n", draft, rel, cdesc, tdesc, why);
            }
        }
        sc_schema_free(schema);
    }
    json_decref(cases);
    printf("  %s/%s: %zu passed, %zu failed\n", draft, rel, p, f);
    *pass += p;
    *fail += f;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s SUITE_DIR METASCHEMA_DIR DRAFT [optional] [-v]\n", argv[0]);
        return 2;
    }
    const char *suite = argv[1], *metas = argv[2], *draft = argv[3];
    int optional = 0;
    for (int i = 4; i < argc; i++) {
        if (strcmp(argv[i], "optional") == 0)
            optional = 1;
        if (strcmp(argv[i], "-v") == 0)
            verbose = 1;
    }
    sc_registry *reg = sc_registry_new_for_dialect(dialect_of(draft));
    char **files = NULL;
    size_t nfiles = 0;
    list_files(metas, "", 1, &files, &nfiles);
    for (size_t i = 0; i < nfiles; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", metas, files[i]);
        json_t *doc = load_file(path);
        sc_error err;
        if (doc && sc_registry_add(reg, NULL, doc, &err) < 0)
            fprintf(stderr, "%s: %s\n", files[i], err.text);
        json_decref(doc);
    }
    free_list(files, nfiles);
    files = NULL;
    nfiles = 0;
    char remotes[4096];
    snprintf(remotes, sizeof remotes, "%s/remotes", suite);
    list_files(remotes, "", 1, &files, &nfiles);
    for (size_t i = 0; i < nfiles; i++) {
        char path[8192], uri[4096];
        snprintf(path, sizeof path, "%s/%s", remotes, files[i]);
        snprintf(uri, sizeof uri, "http://localhost:1234/%s", files[i]);
        json_t *doc = load_file(path);
        sc_error err;
        if (doc && sc_registry_add(reg, uri, doc, &err) < 0)
            fprintf(stderr, "%s: %s\n", files[i], err.text);
        json_decref(doc);
    }
    free_list(files, nfiles);

    size_t pass = 0, fail = 0;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/%s", suite, draft);
    files = NULL;
    nfiles = 0;
    list_files(dir, "", 1, &files, &nfiles);
    for (size_t i = 0; i < nfiles; i++) {
        int is_optional = strncmp(files[i], "optional/", 9) == 0;
        if (is_optional != optional)
            continue;
        int assert_format = strncmp(files[i], "optional/format/", 16) == 0;
        run_file(suite, draft, files[i], reg, assert_format, is_optional, &pass, &fail);
    }
    free_list(files, nfiles);
    printf("%s %s: %zu passed, %zu failed\n", draft, optional ? "optional" : "required", pass, fail);
    sc_registry_free(reg);
    return fail ? 1 : 0;
}
