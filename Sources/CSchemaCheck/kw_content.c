/*
 * kw_content.c: contentEncoding ("base64"), contentMediaType ("application/json") and, from
 * 2019-09 on, contentSchema (applied to that JSON). Annotations in every dialect unless
 * sc_options.assert_content asks for assertions (draft-07, 2019-09 and 2020-12 allow it);
 * other encodings and media types are not checked.
 */
#include "sc_compile.h"
#include "sc_kw_families.h"
#include "sc_validate.h"

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
    int result = 1;
    if (content->json) {
        json_t *parsed = json_loadb(text, len, JSON_DECODE_ANY, NULL);
        if (!parsed) {
            sc_report(v, kw, "the %scontent is not valid JSON", content->base64 ? "decoded " : "");
            result = 0;
        } else if (content->schema) {
            sc_step step = {.instance = parsed, .keyword = "contentSchema"};
            result = sc_validate_step(v, kw, content->schema, &step);
        }
        json_decref(parsed);
    }
    free(decoded);
    return result;
}

static int is_string(const json_t *value, const char *text)
{
    return json_is_string(value) && strcmp(json_string_value(value), text) == 0;
}

/* The media type's check, and contentSchema (2019-09 on) for JSON content. */
static int compile_media_type(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *media)
{
    sc_content_kw *content = &kw->as.content;
    content->json = is_string(media, "application/json");
    json_t *schema = cn->draft >= SC_DRAFT_2019 ? json_object_get(cn->json, "contentSchema") : NULL;
    if (content->json && schema) {
        if (!sc_is_schema(schema))
            return sc_compile_fail(c, kw, SC_ERROR_INVALID_SCHEMA, "\"contentSchema\" must be a schema");
        content->schema = sc_compile_sub(c, cn, schema, "/contentSchema");
        if (!content->schema)
            return SC_COMPILE_FAILED;
    }
    return content->base64 || content->json ? SC_COMPILE_KEEP : SC_COMPILE_DROP;
}

/* contentEncoding checks the encoding, and the media type of the decoded bytes too. */
int sc_compile_content_encoding(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    if (!c->opts->assert_content || !json_is_string(value))
        return SC_COMPILE_DROP;
    kw->as.content.base64 = is_string(value, "base64");
    return compile_media_type(c, cn, kw, json_object_get(cn->json, "contentMediaType"));
}

/* contentMediaType alone; beside contentEncoding, that keyword checks both. */
int sc_compile_content_media_type(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value)
{
    if (!c->opts->assert_content || !json_is_string(value) || json_object_get(cn->json, "contentEncoding"))
        return SC_COMPILE_DROP;
    return compile_media_type(c, cn, kw, value);
}
