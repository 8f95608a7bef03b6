/* sc_error.h: filling an sc_error (util.c). */
#ifndef SC_ERROR_H
#define SC_ERROR_H

#include "schemacheck.h"

/* Fills *error (when not NULL) with a code, a location (may be NULL) and a sentence. */
void sc_error_set(sc_error *error, sc_error_code code, const char *location, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif /* SC_ERROR_H */
