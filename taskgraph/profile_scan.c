/* profile_scan.c: finding places in JSON text without building a tree:
 * the line where a value starts (for messages about values jansson has
 * parsed, which carry no position), and the top-level "format" among a
 * file's first bytes (to tell a profile from a task graph before reading
 * it).  The text may be cut short or not be JSON at all, so every step
 * checks its bounds and gives up cleanly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile_internal.h"

/* How much of a file tg_profile_sniff looks at. */
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

/* At an object: move to the value of member `key`; 0, or -1 if absent.
 * Keys are compared as written (the keys looked for need no escapes). */
static int member(scan *s, const char *key)
{
    size_t klen = strlen(key);
    blanks(s);
    if (!at(s, '{'))
        return -1;
    s->p++;
    for (;;) {
        blanks(s);
        if (!at(s, '"'))
            return -1;
        const char *k = s->p + 1;
        if (skip_string(s))
            return -1;
        int match = (size_t)(s->p - 1 - k) == klen && !memcmp(k, key, klen);
        blanks(s);
        if (!at(s, ':'))
            return -1;
        s->p++;
        blanks(s);
        if (match)
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
    char format[sizeof TG_PROFILE_FORMAT];
    int yes = tg_json_top_string(buf, n, "format", format, sizeof format) &&
              !strcmp(format, TG_PROFILE_FORMAT);
    free(buf);
    if (fp)
        fclose(fp);
    return yes;
}
