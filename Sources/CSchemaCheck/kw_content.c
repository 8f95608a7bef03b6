/*
 * kw_content.c: draft-07 contentEncoding ("base64") and contentMediaType
 * ("application/json") as assertions on strings. In 2020-12 they are annotations only.
 * Other encodings and media types are not checked.
 */
#include "sc_internal.h"

#include <stdlib.h>
#include <string.h>

static int base64_value(unsigned char ch)
{
    if (ch >= 'A' && ch <= 'Z')
        return ch - 'A';
    if (ch >= 'a' && ch <= 'z')
        return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9')
        return ch - '0' + 52;
    if (ch == '+')
        return 62;
    if (ch == '/')
        return 63;
    return -1;
}

/* Decodes RFC 4648 base64 (padding optional); returns malloc'd bytes or NULL when invalid. */
static char *base64_decode(const char *text, size_t len, size_t *out_len)
{
    char *out = malloc(len / 4 * 3 + 4);
    if (!out)
        return NULL;
    size_t n = 0, pad = 0;
    unsigned buffer = 0, bits = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)text[i];
        if (ch == '=') {
            pad++;
            continue;
        }
        int value = base64_value(ch);
        if (value < 0 || pad) {
            free(out);
            return NULL;
        }
        buffer = (buffer << 6) | (unsigned)value;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[n++] = (char)((buffer >> bits) & 0xFF);
        }
    }
    if (pad > 2) {
        free(out);
        return NULL;
    }
    *out_len = n;
    return out;
}

/* kw->flag: base64; kw->flag2: application/json */
static int validate_content(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    if (!json_is_string(instance))
        return 1;
    const char *text = json_string_value(instance);
    size_t len = json_string_length(instance);
    char *decoded = NULL;
    if (kw->flag) {
        decoded = base64_decode(text, len, &len);
        if (!decoded) {
            sc_report(v, kw, "the string is not valid base64");
            return 0;
        }
        text = decoded;
    }
    int ok = 1;
    if (kw->flag2) {
        json_t *parsed = json_loadb(text, len, JSON_DECODE_ANY, NULL);
        ok = parsed != NULL;
        json_decref(parsed);
        if (!ok)
            sc_report(v, kw, "the %scontent is not valid JSON", kw->flag ? "decoded " : "");
    }
    free(decoded);
    return ok;
}

int sc_kw_content(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    (void)c;
    if (!cn->draft7 || !json_is_string(value))
        return 0;
    json_t *encoding = json_object_get(cn->json, "contentEncoding");
    json_t *media = json_object_get(cn->json, "contentMediaType");
    if (strcmp(kw->name, "contentEncoding") == 0) {
        kw->flag = strcmp(json_string_value(value), "base64") == 0;
        kw->flag2 = json_is_string(media) && strcmp(json_string_value(media), "application/json") == 0;
    } else {
        /* contentMediaType alone; with an encoding, contentEncoding checks both */
        if (encoding)
            return 0;
        kw->flag2 = strcmp(json_string_value(value), "application/json") == 0;
    }
    if (kw->flag || kw->flag2)
        kw->validate = validate_content;
    return 0;
}
