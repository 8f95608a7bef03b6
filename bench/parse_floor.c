/*
 * parse_floor.c: the jansson parse-only floor for bench/run.sh. Parses each line of an
 * NDJSON file with the flags bridgectl uses (duplicate keys rejected, NUL kept, any value)
 * and frees it: what any jansson-based validator must pay before checking anything.
 *
 * usage: parse_floor FILE   prints "lines=N parsed=P seconds=S msgs_per_s=R"
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: parse_floor FILE\n");
        return 2;
    }
    FILE *file = fopen(argv[1], "rb");
    if (!file) {
        perror(argv[1]);
        return 2;
    }
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
    double seconds = (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9;
    printf("lines=%ld parsed=%ld seconds=%.3f msgs_per_s=%.0f\n", lines, parsed, seconds, lines / seconds);
    return 0;
}
