/* sc_parse.h: parsing instances: jansson and the fast reader (parse.c, reader.c). */
#ifndef SC_PARSE_H
#define SC_PARSE_H

#include "schemacheck.h"

#include <stddef.h>

/* sc_parse with the fast reader on (fast = 1) or off (jansson alone, for the tests that
 * hold the two to the same result). */
json_t *sc_parse_with(const char *buffer, size_t length, const sc_parse_limits *limits, sc_error *error, int fast);
/* The value json_loadb (duplicates rejected, NUL allowed, any value) would return when the
 * input is plain valid JSON within limits and max_depth (and 128 levels); NULL for anything else, which
 * includes every input jansson refuses. Never reports an error of its own. */
json_t *sc_parse_fast(const char *buffer, size_t length, const sc_parse_limits *limits, size_t max_depth);

#endif /* SC_PARSE_H */
