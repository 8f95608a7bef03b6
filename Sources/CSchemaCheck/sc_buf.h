/* sc_buf.h: byte strings and growable byte buffers (util.c). */
#ifndef SC_BUF_H
#define SC_BUF_H

#include "schemacheck.h"

#include <stddef.h>

typedef struct sc_str {
    char *s;    /* owned, NUL-terminated (may also contain NUL) */
    size_t len; /* bytes, without the terminator */
} sc_str;

typedef struct sc_buf {
    char *data; /* always NUL-terminated once anything was appended */
    size_t len;
    size_t cap;
    int failed; /* set when an allocation failed; further appends are no-ops */
} sc_buf;

void sc_buf_init(sc_buf *b);
void sc_buf_free(sc_buf *b);
void sc_buf_append(sc_buf *b, const char *data, size_t len);
void sc_buf_puts(sc_buf *b, const char *text);
void sc_buf_printf(sc_buf *b, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void sc_buf_truncate(sc_buf *b, size_t len);
/* Appends "/" and the token escaped per RFC 6901 (~0, ~1). */
void sc_buf_pointer_token(sc_buf *b, const char *token, size_t len);
/* Appends the value as JSON text, strings truncated to keep messages short. */
void sc_buf_quote(sc_buf *b, const json_t *value);
/* Returns a malloc'd copy of the buffer (or of "" when empty), NULL when out of memory. */
char *sc_buf_take(sc_buf *b);
const char *sc_buf_cstr(const sc_buf *b);

char *sc_strndup(const char *text, size_t len);
char *sc_strdup(const char *text);

#endif /* SC_BUF_H */
