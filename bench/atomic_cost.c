/*
 * atomic_cost.c: what one atomic read-modify-write costs on this machine, against the same
 * loop with plain ones. Reference counting is one such operation per retain or release (a
 * locked instruction, a full barrier), so `bench/soak.py instructions` counts them per message.
 *
 * Each iteration increments and decrements a counter in one of 64 cache lines (as a retain and
 * a release of one of a message's objects would) around a few dependent integer operations.
 * Printed: nanoseconds per iteration for both loops, and the difference per operation.
 *
 *   cc -O2 -o /tmp/atomic_cost bench/atomic_cost.c && /tmp/atomic_cost
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LINES      64
#define ITERATIONS 4000000L
#define ROUNDS     5

struct line {
    long count;
    char pad[64 - sizeof(long)];
};

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* The loop, with locked or plain increments; returns nanoseconds per iteration and folds the
 * arithmetic into *sink so the compiler keeps it. */
static double run(struct line *lines, int locked, uint64_t *sink)
{
    uint64_t acc = *sink;
    double start = now_ns();
    for (long i = 0; i < ITERATIONS; i++) {
        long *count = &lines[i % LINES].count;
        if (locked)
            __atomic_fetch_add(count, 1, __ATOMIC_RELAXED);
        else
            *(volatile long *)count += 1;
        acc = (acc ^ (uint64_t)i) * 0x9E3779B97F4A7C15u;
        acc ^= acc >> 29;
        if (locked)
            __atomic_fetch_sub(count, 1, __ATOMIC_RELEASE);
        else
            *(volatile long *)count -= 1;
    }
    double elapsed = now_ns() - start;
    *sink = acc;
    return elapsed / ITERATIONS;
}

int main(int argc, char **argv)
{
    static const char usage[] = "usage: atomic_cost  (no arguments: prints the cost of an atomic read-modify-write)\n";
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        fputs(usage, stdout);
        return 0;
    }
    if (argc > 1) {
        fputs(usage, stderr);
        return 2;
    }
    struct line *lines = aligned_alloc(64, sizeof(struct line) * LINES);
    if (!lines) {
        fprintf(stderr, "atomic_cost: out of memory\n");
        return 1;
    }
    for (int i = 0; i < LINES; i++)
        lines[i].count = 0;
    uint64_t sink = 1;
    double best_locked = 1e18, best_plain = 1e18;
    for (int round = 0; round < ROUNDS; round++) {
        double locked = run(lines, 1, &sink);
        double plain = run(lines, 0, &sink);
        if (locked < best_locked)
            best_locked = locked;
        if (plain < best_plain)
            best_plain = plain;
    }
    printf("per iteration (two read-modify-writes and the arithmetic around them), best of %d rounds:\n", ROUNDS);
    printf("  locked (atomic) increments: %.2f ns\n", best_locked);
    printf("  plain increments:           %.2f ns\n", best_plain);
    printf("  one atomic operation costs %.2f ns more than a plain one\n", (best_locked - best_plain) / 2);
    volatile uint64_t keep = sink; /* the arithmetic's result is used, so it is computed */
    (void)keep;
    free(lines);
    return 0;
}
