/*
 * fuzz_common.h: shared helpers of the libFuzzer harnesses (header-only, each harness is
 * one translation unit). The repository root comes from $BRIDGEKIT_ROOT or, failing
 * that, from the path baked in at build time by fuzz/run.sh. Helpers are static inline so a
 * harness that uses only some of them builds without warnings.
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#define _GNU_SOURCE
#include "schemacheck.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef BRIDGEKIT_ROOT
#define BRIDGEKIT_ROOT "."
#endif

/* A harness invariant broke: say which, then abort so libFuzzer saves the input. */
#define FUZZ_CHECK(cond, ...)                                                                                          \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(stderr, "fuzz invariant failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__);                         \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fputc('\n', stderr);                                                                                       \
            abort();                                                                                                   \
        }                                                                                                              \
    } while (0)

static inline const char *fuzz_root(void)
{
    const char *root = getenv("BRIDGEKIT_ROOT");
    return root && *root ? root : BRIDGEKIT_ROOT;
}

static inline json_t *fuzz_load_json(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fuzz setup: cannot open %s\n", path);
        abort();
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = malloc((size_t)size + 1);
    size_t got = fread(data, 1, (size_t)size, f);
    fclose(f);
    sc_error err;
    json_t *doc = sc_parse(data, got, NULL, &err);
    free(data);
    if (!doc) {
        fprintf(stderr, "fuzz setup: %s: %s\n", path, err.text);
        abort();
    }
    return doc;
}

/* Adds every *.json below dir (recursively) that has an $id to the registry. */
static inline size_t fuzz_register_dir(sc_registry *registry, const char *dir)
{
    size_t added = 0;
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "fuzz setup: cannot open directory %s\n", dir);
        abort();
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = strlen(e->d_name);
        if (len > 5 && strcmp(e->d_name + len - 5, ".json") == 0) {
            json_t *doc = fuzz_load_json(path);
            sc_error err;
            if (json_object_get(doc, "$id") || json_object_get(doc, "id")) {
                if (sc_registry_add(registry, NULL, doc, &err) < 0) {
                    fprintf(stderr, "fuzz setup: %s: %s\n", path, err.text);
                    abort();
                }
                added++;
            }
            json_decref(doc);
        } else {
            DIR *sub = opendir(path);
            if (sub) {
                closedir(sub);
                added += fuzz_register_dir(registry, path);
            }
        }
    }
    closedir(d);
    return added;
}

/* Resolves a JSON Pointer in value; 1 when it names an existing location. */
static inline int fuzz_pointer_resolves(const json_t *value, const char *pointer)
{
    if (!pointer)
        return 0;
    const char *p = pointer;
    while (*p) {
        if (*p != '/')
            return 0;
        p++;
        char token[4096];
        size_t n = 0;
        while (*p && *p != '/') {
            char ch = *p++;
            if (ch == '~') {
                if (*p == '0')
                    ch = '~';
                else if (*p == '1')
                    ch = '/';
                else
                    return 0;
                p++;
            }
            if (n + 1 >= sizeof token)
                return 0;
            token[n++] = ch;
        }
        token[n] = '\0';
        if (json_is_object(value)) {
            value = json_object_getn(value, token, n);
        } else if (json_is_array(value)) {
            char *end;
            if (n == 0 || (n > 1 && token[0] == '0'))
                return 0;
            unsigned long long index = strtoull(token, &end, 10);
            if (*end)
                return 0;
            value = json_array_get(value, (size_t)index);
        } else {
            return 0;
        }
        if (!value)
            return 0;
    }
    return 1;
}

/*
 * The core invariant: the fast path and the full path agree on the verdict, and the
 * full result is well formed (no units when valid, at least one otherwise, every unit
 * has its strings, and every instanceLocation points into the instance).
 */
/* check_locations is 0 when a property name may hold NUL: a C-string pointer cannot name it. */
static inline void fuzz_check_modes_agree(const sc_schema *schema, const json_t *instance, const char *what,
                                          int check_locations)
{
    int fast = sc_is_valid(schema, instance);
    sc_result *result = sc_validate(schema, instance);
    FUZZ_CHECK(result != NULL, "%s: sc_validate returned NULL", what);
    int full = sc_result_status(result);
    size_t count = sc_result_count(result);
    /* -1 means "could not finish" (regex match limit, depth limit, a loop). The two walks
     * may reach different limits, but a walk that cannot finish takes the other's verdict,
     * so the two entry points must agree exactly. */
    FUZZ_CHECK(fast == full, "%s: sc_is_valid=%d but sc_validate status=%d (%zu units)", what, fast, full, count);
    FUZZ_CHECK(full >= -1 && full <= 1, "%s: status %d out of range", what, full);
    FUZZ_CHECK(full != 1 || count == 0, "%s: valid but %zu units", what, count);
    FUZZ_CHECK(full == 1 || count > 0, "%s: status %d but no unit says why", what, full);
    for (size_t i = 0; i < count; i++) {
        const sc_output_unit *u = sc_result_unit(result, i);
        FUZZ_CHECK(u && u->instance_location && u->keyword_location && u->absolute_keyword_location && u->keyword &&
                       u->error,
                   "%s: unit %zu has a NULL field", what, i);
        FUZZ_CHECK(u->error[0] != '\0', "%s: unit %zu has an empty error sentence", what, i);
        if (full == 0 && check_locations)
            FUZZ_CHECK(fuzz_pointer_resolves(instance, u->instance_location),
                       "%s: unit %zu instanceLocation '%s' is not in the instance (%s: %s)", what, i,
                       u->instance_location, u->keyword, u->error);
    }
    FUZZ_CHECK(sc_result_unit(result, count) == NULL, "%s: unit past the end is not NULL", what);
    sc_result_free(result);
}

#endif
