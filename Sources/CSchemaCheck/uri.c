/*
 * uri.c: RFC 3986 reference resolution (section 5.2) for $id and $ref.
 */
#include "sc_buf.h"
#include "sc_uri.h"

#include <stdlib.h>
#include <string.h>

typedef struct uri_parts {
    const char *scheme;
    size_t scheme_len;
    int has_scheme;
    const char *authority;
    size_t authority_len;
    int has_authority;
    const char *path;
    size_t path_len;
    const char *query;
    size_t query_len;
    int has_query;
    const char *fragment;
    size_t fragment_len;
    int has_fragment;
} uri_parts;

static int is_scheme_char(char ch, int first)
{
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'))
        return 1;
    if (first)
        return 0;
    return (ch >= '0' && ch <= '9') || ch == '+' || ch == '-' || ch == '.';
}

static void uri_split(const char *uri, uri_parts *p)
{
    memset(p, 0, sizeof *p);
    const char *s = uri;
    size_t i = 0;
    while (s[i] && is_scheme_char(s[i], i == 0))
        i++;
    if (i > 0 && s[i] == ':') {
        p->has_scheme = 1;
        p->scheme = s;
        p->scheme_len = i;
        s += i + 1;
    }
    if (s[0] == '/' && s[1] == '/') {
        s += 2;
        size_t n = strcspn(s, "/?#");
        p->has_authority = 1;
        p->authority = s;
        p->authority_len = n;
        s += n;
    }
    size_t n = strcspn(s, "?#");
    p->path = s;
    p->path_len = n;
    s += n;
    if (*s == '?') {
        s++;
        n = strcspn(s, "#");
        p->has_query = 1;
        p->query = s;
        p->query_len = n;
        s += n;
    }
    if (*s == '#') {
        s++;
        p->has_fragment = 1;
        p->fragment = s;
        p->fragment_len = strlen(s);
    }
}

/* Drops the last segment (and its "/") from the output buffer. */
static void drop_last_segment(sc_buf *out)
{
    size_t k = out->len;
    while (k > 0 && out->data[k - 1] != '/')
        k--;
    if (k > 0)
        k--;
    sc_buf_truncate(out, k);
}

/* RFC 3986 5.2.4: removes "." and ".." segments; appends the result to out. */
static void remove_dot_segments(const char *path, size_t len, sc_buf *out)
{
    char *in = sc_strndup(path, len);
    if (!in) {
        out->failed = 1;
        return;
    }
    char *s = in;
    while (*s) {
        if (strncmp(s, "../", 3) == 0) {
            s += 3;
        } else if (strncmp(s, "./", 2) == 0) {
            s += 2;
        } else if (strncmp(s, "/./", 3) == 0) {
            s += 2;
        } else if (strcmp(s, "/.") == 0) {
            s[1] = '\0';
        } else if (strncmp(s, "/../", 4) == 0) {
            s += 3;
            drop_last_segment(out);
        } else if (strcmp(s, "/..") == 0) {
            s[1] = '\0';
            drop_last_segment(out);
        } else if (strcmp(s, ".") == 0 || strcmp(s, "..") == 0) {
            break;
        } else {
            size_t n = (s[0] == '/') ? 1 + strcspn(s + 1, "/") : strcspn(s, "/");
            sc_buf_append(out, s, n);
            s += n;
        }
    }
    free(in);
}

size_t sc_uri_base_length(const char *uri)
{
    return strcspn(uri, "#");
}

char *sc_uri_resolve(const char *base, const char *ref)
{
    uri_parts b, r;
    uri_split(base ? base : "", &b);
    uri_split(ref, &r);
    sc_buf out;
    sc_buf_init(&out);
    sc_buf path;
    sc_buf_init(&path);

    const uri_parts *scheme_from, *auth_from, *query_from;
    if (r.has_scheme) {
        scheme_from = &r;
        auth_from = &r;
        query_from = &r;
        remove_dot_segments(r.path, r.path_len, &path);
    } else {
        scheme_from = &b;
        if (r.has_authority) {
            auth_from = &r;
            query_from = &r;
            remove_dot_segments(r.path, r.path_len, &path);
        } else {
            auth_from = &b;
            if (r.path_len == 0) {
                sc_buf_append(&path, b.path, b.path_len);
                query_from = r.has_query ? &r : &b;
            } else {
                query_from = &r;
                if (r.path[0] == '/') {
                    remove_dot_segments(r.path, r.path_len, &path);
                } else {
                    sc_buf merged;
                    sc_buf_init(&merged);
                    if (b.has_authority && b.path_len == 0) {
                        sc_buf_append(&merged, "/", 1);
                    } else {
                        size_t k = b.path_len;
                        while (k > 0 && b.path[k - 1] != '/')
                            k--;
                        sc_buf_append(&merged, b.path, k);
                    }
                    sc_buf_append(&merged, r.path, r.path_len);
                    remove_dot_segments(sc_buf_cstr(&merged), merged.len, &path);
                    if (merged.failed)
                        path.failed = 1;
                    sc_buf_free(&merged);
                }
            }
        }
    }
    if (scheme_from->has_scheme) {
        sc_buf_append(&out, scheme_from->scheme, scheme_from->scheme_len);
        sc_buf_append(&out, ":", 1);
    }
    if (auth_from->has_authority) {
        sc_buf_append(&out, "//", 2);
        sc_buf_append(&out, auth_from->authority, auth_from->authority_len);
    }
    sc_buf_append(&out, sc_buf_cstr(&path), path.len);
    if (query_from->has_query) {
        sc_buf_append(&out, "?", 1);
        sc_buf_append(&out, query_from->query, query_from->query_len);
    }
    if (r.has_fragment && r.fragment_len > 0) {
        sc_buf_append(&out, "#", 1);
        sc_buf_append(&out, r.fragment, r.fragment_len);
    }
    if (path.failed)
        out.failed = 1;
    sc_buf_free(&path);
    char *result = sc_buf_take(&out);
    sc_buf_free(&out);
    return result;
}
