/*
 * fuzz_regex.c: arbitrary bytes as a pattern and a subject.
 *
 * Input: the pattern, a NUL byte, then the subject (any bytes, invalid UTF-8 included). A
 * pattern that compiles is searched on the subject; when the checker answers it on its fast
 * path (a whole-string pattern of characters and classes), the same pattern inside a
 * non-capturing group, which only PCRE2 answers, must give the same answer. Compiling either
 * succeeds or fails with a message; nothing may crash, leak or hang. (PCRE2 may stop at its
 * match limit, which counts as no answer.)
 */
#include "fuzz_common.h"
#include "sc_regex_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *split = memchr(data, 0, size);
    if (!split)
        return 0;
    size_t pattern_length = (size_t)(split - data);
    const char *subject = (const char *)split + 1;
    size_t subject_length = size - pattern_length - 1;
    char error[256];
    sc_regex *direct = sc_regex_compile((const char *)data, pattern_length, 0, error, sizeof error);
    if (!direct) {
        FUZZ_CHECK(error[0] != '\0', "a pattern that does not compile must say why");
        return 0;
    }
    int answer = sc_regex_search_ex(direct, NULL, subject, subject_length);
    FUZZ_CHECK(answer >= SC_REGEX_ERROR && answer <= SC_REGEX_MATCH, "search answered %d", answer);
    if (sc_regex_uses_fast_path(direct)) {
        char *grouped = malloc(pattern_length + 5);
        FUZZ_CHECK(grouped != NULL, "out of memory");
        memcpy(grouped, "(?:", 3);
        memcpy(grouped + 3, data, pattern_length);
        grouped[pattern_length + 3] = ')';
        sc_regex *pcre2 = sc_regex_compile(grouped, pattern_length + 4, 0, error, sizeof error);
        FUZZ_CHECK(pcre2 != NULL, "the grouped pattern did not compile: %s", error);
        FUZZ_CHECK(!sc_regex_uses_fast_path(pcre2), "the grouped pattern took the fast path");
        int expected = sc_regex_search_ex(pcre2, NULL, subject, subject_length);
        /* PCRE2 may give up at its match limit; the fast path always answers. */
        FUZZ_CHECK(answer == expected || expected == SC_REGEX_LIMIT, "fast path %d, PCRE2 %d for the pattern %.*s",
                   answer, expected, (int)pattern_length, (const char *)data);
        sc_regex_free(pcre2);
        free(grouped);
    }
    sc_regex_free(direct);
    return 0;
}
