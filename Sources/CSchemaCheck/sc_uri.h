/* sc_uri.h: RFC 3986 references (uri.c) and RFC 6901 pointers (pointer.c). */
#ifndef SC_URI_H
#define SC_URI_H

#include "schemacheck.h"

#include <stddef.h>

/* Resolves ref against base (RFC 3986 section 5.2), removes dot segments, drops an empty
 * fragment. Returns a malloc'd string, NULL when out of memory. base may be "". */
char *sc_uri_resolve(const char *base, const char *ref);
/* Length of the part before '#'. */
size_t sc_uri_base_length(const char *uri);
/* %-decodes; returns malloc'd text (length in *out_len), NULL on bad escapes/no memory. */
char *sc_percent_decode(const char *text, size_t len, size_t *out_len);
/* Follows an (already %-decoded) JSON Pointer from root; NULL when it leads nowhere. */
json_t *sc_pointer_follow(json_t *root, const char *pointer, size_t len);

#endif /* SC_URI_H */
