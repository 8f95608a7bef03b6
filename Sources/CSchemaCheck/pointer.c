/*
 * pointer.c: JSON Pointers (RFC 6901) as they appear in URI fragments of $ref.
 */
#include "sc_uri.h"

#include <stdlib.h>
#include <string.h>

static int hex_value(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

char *sc_percent_decode(const char *text, size_t len, size_t *out_len)
{
    char *out = malloc(len + 1);
    if (!out)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '%') {
            if (i + 2 >= len) {
                free(out);
                return NULL;
            }
            int hi = hex_value(text[i + 1]);
            int lo = hi < 0 ? -1 : hex_value(text[i + 2]);
            if (hi < 0 || lo < 0) {
                free(out);
                return NULL;
            }
            out[n++] = (char)(hi * 16 + lo);
            i += 2;
        } else {
            out[n++] = text[i];
        }
    }
    out[n] = '\0';
    if (out_len)
        *out_len = n;
    return out;
}

/* Reads an array index token: digits only, no leading zero. */
static int array_index(const char *token, size_t len, size_t *out)
{
    if (len == 0 || (len > 1 && token[0] == '0'))
        return -1;
    size_t value = 0;
    for (size_t i = 0; i < len; i++) {
        if (token[i] < '0' || token[i] > '9')
            return -1;
        if (value > ((size_t)-1) / 10 - 10)
            return -1;
        value = value * 10 + (size_t)(token[i] - '0');
    }
    *out = value;
    return 0;
}

json_t *sc_pointer_follow(json_t *root, const char *pointer, size_t len)
{
    if (len == 0)
        return root;
    if (pointer[0] != '/')
        return NULL;
    json_t *current = root;
    char *token = malloc(len + 1);
    if (!token)
        return NULL;
    size_t i = 1;
    for (;;) {
        size_t n = 0;
        while (i < len && pointer[i] != '/') {
            if (pointer[i] == '~') {
                if (i + 1 >= len || (pointer[i + 1] != '0' && pointer[i + 1] != '1')) {
                    free(token);
                    return NULL;
                }
                token[n++] = pointer[i + 1] == '0' ? '~' : '/';
                i += 2;
            } else {
                token[n++] = pointer[i++];
            }
        }
        token[n] = '\0';
        if (json_is_object(current)) {
            current = json_object_getn(current, token, n);
        } else if (json_is_array(current)) {
            size_t index;
            current = array_index(token, n, &index) == 0 ? json_array_get(current, index) : NULL;
        } else {
            current = NULL;
        }
        if (!current || i >= len)
            break;
        i++; /* skip '/' */
    }
    free(token);
    return current;
}
