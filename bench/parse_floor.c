/*
 * parse_floor.c: the parse-only floors for bench/run.sh, one line of an NDJSON file at a time.
 *
 *   parse_floor FILE            jansson's json_loadb with the flags bridgectl's parse has
 *                               (duplicate keys rejected, NUL kept, any value), then
 *                               json_decref: what any jansson-based validator pays before
 *                               checking anything (the floor the targets are stated against)
 *   parse_floor --bridgekit FILE  the parse bridgectl really runs per message: sc_parse_in_arena
 *                               (the fast reader, jansson for what it declines) with the bridge's
 *                               limits, then sc_arena_release
 *
 * prints "lines=N parsed=P seconds=S msgs_per_s=R"
 */
#define _GNU_SOURCE
#include "schemacheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
    int bridgekit = argc == 3 && strcmp(argv[1], "--bridgekit") == 0;
    if (argc != 2 && !bridgekit) {
        fprintf(stderr, "usage: parse_floor [--bridgekit] FILE\n");
        return 2;
    }
    const char *path = argv[argc - 1];
    FILE *file = fopen(path, "rb");
    if (!file) {
        perror(path);
        return 2;
    }
    /* SchemaCheck's ParseLimits.bridgeMessage */
    const sc_parse_limits limits = {65536, 64, 16384, 256, 1024};
    sc_arena *arena = bridgekit && sc_arena_install_hooks() == 0 ? sc_arena_new() : NULL;
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    long lines = 0, parsed = 0;
    const size_t flags = JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL | JSON_DECODE_ANY;
    while ((length = getline(&line, &capacity, file)) >= 0) {
        if (length > 0 && line[length - 1] == '\n')
            length--;
        lines++;
        if (bridgekit) {
            sc_error error;
            json_t *value = sc_parse_in_arena(arena, line, (size_t)length, &limits, &error);
            parsed += value != NULL;
            sc_arena_release(arena, value);
            continue;
        }
        json_error_t error;
        json_t *value = json_loadb(line, (size_t)length, flags, &error);
        if (value) {
            parsed++;
            json_decref(value);
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    free(line);
    fclose(file);
    sc_arena_free(arena);
    double seconds = (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9;
    printf("lines=%ld parsed=%ld seconds=%.3f msgs_per_s=%.0f\n", lines, parsed, seconds, lines / seconds);
    return 0;
}
