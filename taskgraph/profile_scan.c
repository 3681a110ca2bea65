/* profile_scan.c: finding places in JSON text without building a tree:
 * the line where a value starts (for messages about values jansson has
 * parsed, which carry no position), and the top-level "format" among a
 * file's first bytes, or in the whole file when it is not there (to tell a
 * profile from a task graph before reading it).  The text may be cut short or not be JSON at all, so every step
 * checks its bounds and gives up cleanly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile_internal.h"
#include "tg_internal.h"

/* How much of a file tg_profile_sniff looks at first: the whole file
 * only when its top-level "format" is not there. */
#define SNIFF_BYTES 65536

typedef struct scan {
    const char *p, *end;
    long line;
} scan;

static int at(const scan *s, char c)
{
    return s->p < s->end && *s->p == c;
}

static void blanks(scan *s)
{
    while (s->p < s->end &&
           (*s->p == ' ' || *s->p == '\t' || *s->p == '\r' || *s->p == '\n')) {
        s->line += *s->p == '\n';
        s->p++;
    }
}

/* Past a string that starts at s->p; 0, or -1 when it does not end. */
static int skip_string(scan *s)
{
    for (s->p++; s->p < s->end; s->p++) {
        if (*s->p == '\\')
            s->p++;
        else if (*s->p == '"') {
            s->p++;
            return 0;
        }
    }
    return -1;
}

/* Past the value at s->p (after blanks); 0, or -1 at a premature end. */
static int skip_value(scan *s)
{
    blanks(s);
    if (s->p >= s->end)
        return -1;
    if (*s->p == '"')
        return skip_string(s);
    if (*s->p == '{' || *s->p == '[') {
        int depth = 0;
        while (s->p < s->end) {
            char c = *s->p;
            if (c == '"') {
                if (skip_string(s))
                    return -1;
                continue;
            }
            s->line += c == '\n';
            depth += (c == '{' || c == '[') - (c == '}' || c == ']');
            s->p++;
            if (depth == 0)
                return 0;
        }
        return -1;
    }
    while (s->p < s->end && *s->p != ',' && *s->p != ']' && *s->p != '}' &&
           *s->p != ' ' && *s->p != '\t' && *s->p != '\r' && *s->p != '\n')
        s->p++;
    return 0;
}

/* Past the value at s->p and the comma after it; -1 if there is none. */
static int skip_item(scan *s)
{
    if (skip_value(s))
        return -1;
    blanks(s);
    if (!at(s, ','))
        return -1;
    s->p++;
    return 0;
}

/* At a member's key (after blanks): past it, its colon and the blanks
 * before the value; *k and *klen the key as written.  0, or -1. */
static int member_key(scan *s, const char **k, size_t *klen)
{
    blanks(s);
    if (!at(s, '"'))
        return -1;
    *k = s->p + 1;
    if (skip_string(s))
        return -1;
    *klen = (size_t)(s->p - 1 - *k);
    blanks(s);
    if (!at(s, ':'))
        return -1;
    s->p++;
    blanks(s);
    return 0;
}

/* The value of the 4 hexadecimal digits at p (before end), or -1. */
static long hex4(const char *p, const char *end)
{
    long v = 0;
    for (int i = 0; i < 4; i++, p++) {
        if (p >= end)
            return -1;
        int c = *p, d = c >= '0' && c <= '9'   ? c - '0'
                      : c >= 'a' && c <= 'f' ? c - 'a' + 10
                      : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                             : -1;
        if (d < 0)
            return -1;
        v = 16 * v + d;
    }
    return v;
}

/* Code point u in UTF-8 into buf; its length. */
static size_t utf8(long u, char *buf)
{
    if (u < 0x80) {
        buf[0] = (char)u;
        return 1;
    }
    if (u < 0x800) {
        buf[0] = (char)(0xC0 | (u >> 6));
        buf[1] = (char)(0x80 | (u & 0x3F));
        return 2;
    }
    if (u < 0x10000) {
        buf[0] = (char)(0xE0 | (u >> 12));
        buf[1] = (char)(0x80 | ((u >> 6) & 0x3F));
        buf[2] = (char)(0x80 | (u & 0x3F));
        return 3;
    }
    buf[0] = (char)(0xF0 | (u >> 18));
    buf[1] = (char)(0x80 | ((u >> 12) & 0x3F));
    buf[2] = (char)(0x80 | ((u >> 6) & 0x3F));
    buf[3] = (char)(0x80 | (u & 0x3F));
    return 4;
}

/* 1 when the key as written, k[0..klen), is `key` (keylen bytes) once
 * its escapes are decoded, as jansson decodes them: "\u0065dges" is
 * "edges". */
static int key_is(const char *k, size_t klen, const char *key,
                  size_t keylen)
{
    if (!memchr(k, '\\', klen))
        return klen == keylen && !memcmp(k, key, klen);
    const char *p = k, *end = k + klen;
    size_t j = 0;
    while (p < end) {
        char buf[4];
        size_t n = 1;
        if (*p != '\\')
            buf[0] = *p++;
        else if (p + 1 >= end)
            return 0;
        else {
            char c = p[1];
            p += 2;
            const char *plain = strchr("\"\\/", c);
            const char *named = strchr("bfnrt", c);
            if (c && plain)
                buf[0] = c;
            else if (c && named)
                buf[0] = "\b\f\n\r\t"[named - "bfnrt"];
            else if (c == 'u') {
                long u = hex4(p, end), lo;
                if (u < 0)
                    return 0;
                p += 4;
                if (u >= 0xD800 && u < 0xDC00 && end - p >= 6 &&
                    p[0] == '\\' && p[1] == 'u' &&
                    (lo = hex4(p + 2, end)) >= 0xDC00 && lo < 0xE000) {
                    u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
                    p += 6;
                }
                n = utf8(u, buf);
            } else
                return 0;
        }
        if (n > keylen - j || memcmp(key + j, buf, n))
            return 0;
        j += n;
    }
    return j == keylen;
}

/* At an object: move to the value of member `key`; 0, or -1 if absent.
 * Keys are compared with their escapes decoded. */
static int member(scan *s, const char *key)
{
    size_t klen = strlen(key);
    blanks(s);
    if (!at(s, '{'))
        return -1;
    s->p++;
    for (;;) {
        const char *k;
        size_t n;
        if (member_key(s, &k, &n))
            return -1;
        if (key_is(k, n, key, klen))
            return 0;
        if (skip_item(s))
            return -1;
    }
}

/* At an array: move to element `index`; 0, or -1 if absent. */
static int element(scan *s, size_t index)
{
    blanks(s);
    if (!at(s, '['))
        return -1;
    s->p++;
    for (size_t i = 0; i < index; i++)
        if (skip_item(s))
            return -1;
    blanks(s);
    return s->p < s->end && *s->p != ']' ? 0 : -1;
}

long tg_json_line(const char *text, size_t len, const tg_json_step *path,
                  int depth)
{
    scan s = {text, text + len, 1};
    for (int i = 0; i < depth; i++)
        if (path[i].key ? member(&s, path[i].key) : element(&s, path[i].index))
            return 0;
    blanks(&s);
    return s.p < s.end ? s.line : 0;
}

int tg_json_top_string(const char *text, size_t len, const char *key,
                       char *buf, size_t size)
{
    scan s = {text, text + len, 1};
    if (member(&s, key) || !at(&s, '"'))
        return 0;
    const char *v = s.p + 1;
    if (skip_string(&s))
        return 0;
    size_t n = (size_t)(s.p - 1 - v);
    if (n >= size)
        return 0;
    memcpy(buf, v, n);
    buf[n] = '\0';
    return 1;
}

int tg_profile_sniff(const char *path)
{
    FILE *fp = fopen(path, "rb");
    char *buf = fp ? malloc(SNIFF_BYTES) : NULL;
    size_t n = buf ? fread(buf, 1, SNIFF_BYTES, fp) : 0;
    /* Room for any format this code knows, and then some: a longer
     * value is no profile's. */
    char format[64];
    int found = tg_json_top_string(buf, n, "format", format, sizeof format);
    tg_text whole;
    tg_error err;
    if (!found && n == SNIFF_BYTES && !tg_text_load(&whole, path, &err)) {
        /* "format" is not among the first bytes (a profile passed through
         * `jq -S` has it after "communicators"), or the value there is cut
         * short: decide from the whole file.  Files this program writes
         * say their format first and never come here. */
        found = tg_json_top_string(whole.buf, whole.len, "format", format,
                                   sizeof format);
        tg_text_free(&whole);
    }
    int yes = found && !strcmp(format, TG_PROFILE_FORMAT);
    free(buf);
    if (fp)
        fclose(fp);
    return yes;
}

/* ------------------------------------------------ task-graph edge arrays */

/* An integer as JSON writes it ('-'? digits, no leading zero) that fits
 * in 64 bits; 0 and s->p past it, or -1. */
static int strict_int(scan *s, int64_t *v)
{
    const char *p = s->p;
    int neg = p < s->end && *p == '-';
    p += neg;
    if (p >= s->end || *p < '0' || *p > '9' ||
        (*p == '0' && p + 1 < s->end && p[1] >= '0' && p[1] <= '9'))
        return -1;
    uint64_t x = 0;
    for (; p < s->end && *p >= '0' && *p <= '9'; p++) {
        if (x > (UINT64_MAX - 9) / 10)
            return -1;
        x = 10 * x + (uint64_t)(*p - '0');
    }
    if (p < s->end && (*p == '.' || *p == 'e' || *p == 'E'))
        return -1; /* a real: jansson's path says what is wrong with it */
    if (x > (uint64_t)INT64_MAX + (uint64_t)neg)
        return -1;
    *v = neg ? (int64_t)(0 - x) : (int64_t)x;
    s->p = p;
    return 0;
}

static int expect(scan *s, char c)
{
    blanks(s);
    if (!at(s, c))
        return -1;
    s->p++;
    return 0;
}

/* After an item of an array or object closed by `close`: 1 past the
 * close, 0 past a comma (another item follows), -1 otherwise. */
static int after_item(scan *s, char close)
{
    blanks(s);
    if (at(s, close) || at(s, ',')) {
        s->p++;
        return s->p[-1] == close;
    }
    return -1;
}

/* One [a, b, w] at s->p (after blanks). */
static int strict_triple(scan *s, int64_t v[3])
{
    if (expect(s, '['))
        return -1;
    for (int k = 0; k < 3; k++) {
        blanks(s);
        if (strict_int(s, &v[k]) || (k < 2 && expect(s, ',')))
            return -1;
    }
    return expect(s, ']');
}

/* An edge array of the strict form at s->p: '[' triples separated by
 * commas ']'.  0 with s->p past it and its triples counted, or -1. */
static int strict_edges(scan *s, size_t *count)
{
    int64_t v[3];
    *count = 0;
    if (expect(s, '['))
        return -1;
    blanks(s);
    if (at(s, ']')) {
        s->p++;
        return 0;
    }
    for (int rc = 0; !rc; ++*count) {
        if (strict_triple(s, v))
            return -1;
        rc = after_item(s, ']');
        if (rc < 0)
            return -1;
    }
    return 0;
}

static int add_span(tg_edge_spans *sp, const char *text, const char *from,
                    const char *to, size_t count, int layer)
{
    if (sp->n == sp->cap) {
        int cap = sp->cap ? 2 * sp->cap : 8;
        tg_edge_span *v = realloc(sp->v, (size_t)cap * sizeof *v);
        if (!v)
            return -1;
        sp->v = v;
        sp->cap = cap;
    }
    sp->v[sp->n++] = (tg_edge_span){(size_t)(from - text),
                                    (size_t)(to - text), count, layer};
    return 0;
}

/* The member value at s->p is "edges" of `layer` (-1: the graph's). */
static int edges_value(scan *s, tg_edge_spans *sp, const char *text,
                       int layer)
{
    blanks(s);
    const char *from = s->p;
    long line = s->line;
    size_t count;
    if (strict_edges(s, &count) == 0)
        return add_span(sp, text, from, s->p, count, layer) ? -2 : 0;
    s->p = from; /* not the strict form: jansson reads it */
    s->line = line;
    return skip_value(s);
}

/* Walk the members of the object at s->p; `layer` >= 0 inside layers[i],
 * -1 at the top, where "layers" is walked too. */
static int walk_object(scan *s, tg_edge_spans *sp, const char *text,
                       int layer)
{
    if (expect(s, '{'))
        return -1;
    blanks(s);
    if (at(s, '}')) {
        s->p++;
        return 0;
    }
    for (;;) {
        const char *k;
        size_t klen;
        if (member_key(s, &k, &klen))
            return -1;
        int rc;
        if (klen == 5 && !memcmp(k, "edges", 5))
            rc = edges_value(s, sp, text, layer < 0 ? -1 : layer);
        else if (layer < 0 && klen == 6 && !memcmp(k, "layers", 6) &&
                 at(s, '[')) {
            s->p++;
            blanks(s);
            int end = at(s, ']') ? (s->p++, 1) : 0;
            rc = 0;
            for (int i = 0; !rc && !end; i++) {
                rc = at(s, '{') ? walk_object(s, sp, text, i)
                                : skip_value(s);
                if (!rc && (end = after_item(s, ']')) < 0)
                    rc = -1;
                blanks(s);
            }
        } else
            rc = skip_value(s);
        if (rc)
            return rc;
        int end = after_item(s, '}');
        if (end)
            return end > 0 ? 0 : -1;
    }
}

int tg_json_edge_spans(const char *text, size_t len, tg_edge_spans *out)
{
    memset(out, 0, sizeof *out);
    scan s = {text, text + len, 1};
    /* A structural surprise ends the walk: the spans found so far are
     * sound, and jansson reports the surprise as it always did. */
    return walk_object(&s, out, text, -1) == -2 ? -1 : 0;
}

void tg_edge_spans_free(tg_edge_spans *sp)
{
    free(sp->v);
    memset(sp, 0, sizeof *sp);
}

int tg_edge_span_next(const char *text, const tg_edge_span *span,
                      size_t *at_pos, int64_t v[3])
{
    scan s = {text + *at_pos, text + span->end, 1};
    if (*at_pos == span->start)
        s.p++; /* past the array's '[' */
    blanks(&s);
    if (at(&s, ','))
        s.p++;
    if (strict_triple(&s, v))
        return -1;
    *at_pos = (size_t)(s.p - text);
    return 0;
}
