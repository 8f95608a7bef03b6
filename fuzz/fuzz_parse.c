/*
 * fuzz_parse.c: arbitrary bytes through sc_parse with the fast reader on and with jansson
 * alone, under no limits, the bridge's limits and tiny limits: the results must agree
 * (Tests/c/parse_agreement.h), so the fast reader can never accept what jansson refuses
 * or build a different tree.
 */
#include "fuzz_common.h"
#include "parse_agreement.h"

#include <stdint.h>

static const sc_parse_limits limit_sets[] = {
    {0, 0, 0, 0, 0},
    {65536, 64, 16384, 256, 1024},
    {4096, 3, 5, 3, 3},
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (size_t i = 0; i < sizeof limit_sets / sizeof limit_sets[0]; i++) {
        const char *why = parse_agreement((const char *)data, size, &limit_sets[i], NULL);
        FUZZ_CHECK(why == NULL, "%s (limit set %zu)", why, i);
    }
    return 0;
}
