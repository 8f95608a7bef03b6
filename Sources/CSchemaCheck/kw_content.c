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

int sc_validate_content(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann)
{
    (void)ann;
    if (!json_is_string(instance))
        return 1;
    const sc_content_kw *content = &kw->as.content;
    const char *text = json_string_value(instance);
    size_t len = json_string_length(instance);
    char *decoded = NULL;
    if (content->base64) {
        decoded = base64_decode(text, len, &len);
        if (!decoded) {
            sc_report(v, kw, "the string is not valid base64");
            return 0;
        }
        text = decoded;
    }
    int ok = 1;
    if (content->json) {
        json_t *parsed = json_loadb(text, len, JSON_DECODE_ANY, NULL);
        ok = parsed != NULL;
        json_decref(parsed);
        if (!ok)
            sc_report(v, kw, "the %scontent is not valid JSON", content->base64 ? "decoded " : "");
    }
    free(decoded);
    return ok;
}

static int is_string(const json_t *value, const char *text)
{
    return json_is_string(value) && strcmp(json_string_value(value), text) == 0;
}

/* contentEncoding checks the encoding, and the media type of the decoded bytes too. */
int sc_compile_content_encoding(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    (void)c;
    if (!cn->draft7 || !json_is_string(value))
        return SC_COMPILE_DROP;
    sc_content_kw *content = &kw->as.content;
    content->base64 = is_string(value, "base64");
    content->json = is_string(json_object_get(cn->json, "contentMediaType"), "application/json");
    return content->base64 || content->json ? SC_COMPILE_KEEP : SC_COMPILE_DROP;
}

/* contentMediaType alone; beside contentEncoding, that keyword checks both. */
int sc_compile_content_media_type(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    (void)c;
    if (!cn->draft7 || !json_is_string(value) || json_object_get(cn->json, "contentEncoding"))
        return SC_COMPILE_DROP;
    kw->as.content.json = is_string(value, "application/json");
    return kw->as.content.json ? SC_COMPILE_KEEP : SC_COMPILE_DROP;
}
