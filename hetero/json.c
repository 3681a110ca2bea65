/* json.c: loading topomap's JSON files with jansson, finding the line of
 * an array element for messages, optional members, one-line records. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ht_internal.h"

int ht_json_load(ht_json *j, const char *path, const char *format, int version,
                 tg_error *err)
{
    memset(j, 0, sizeof *j);
    j->path = path;
    tg_text t;
    int rc = tg_text_load(&t, path, err);
    if (rc)
        return rc;
    j->text = t.buf;
    j->len = t.len;
    json_error_t jerr;
    j->root = json_loadb(j->text, j->len, JSON_REJECT_DUPLICATES, &jerr);
    if (!j->root) {
        rc = tg_error_set(err, TG_EPARSE, path, jerr.line > 0 ? jerr.line : 0,
                          "%s", jerr.text);
        ht_json_free(j);
        return rc;
    }
    json_t *f = json_object_get(j->root, "format");
    json_t *v = json_object_get(j->root, "version");
    if (!json_is_object(j->root))
        rc = tg_error_set(err, TG_EPARSE, path, 0,
                          "not a %s file: the top level is not an object",
                          format);
    else if (!json_is_string(f) || strcmp(json_string_value(f), format))
        rc = tg_error_set(err, TG_EPARSE, path, 0,
                          "not a %s file: \"format\" must be \"%s\"", format,
                          format);
    else if (!json_is_integer(v) || json_integer_value(v) != version)
        rc = tg_error_set(err, TG_EPARSE, path, 0,
                          "unsupported %s version (this topomap reads "
                          "version %d)",
                          format, version);
    if (rc)
        ht_json_free(j);
    return rc;
}

void ht_json_free(ht_json *j)
{
    json_decref(j->root);
    free(j->text);
    j->root = NULL;
    j->text = NULL;
}

/* Skip a string starting at s[*i] == '"', leaving *i on the closing quote;
 * counts the newlines inside into *line. */
static void skip_string(const char *s, size_t n, size_t *i, long *line)
{
    for ((*i)++; *i < n && s[*i] != '"'; (*i)++) {
        if (s[*i] == '\\')
            (*i)++;
        else if (s[*i] == '\n')
            (*line)++;
    }
}

long ht_json_line(const ht_json *j, const char *member, size_t index)
{
    const char *s = j->text;
    size_t n = j->len, mlen = strlen(member), count = 0;
    long line = 1;
    int depth = 0, array_depth = 0, expect = 0;
    enum { SEEK, AFTER_KEY, IN_ARRAY } state = SEEK;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '\n') {
            line++;
            continue;
        }
        if (isspace((unsigned char)c))
            continue;
        if (state == IN_ARRAY && expect && depth == array_depth) {
            if (c == ']')
                return 0;
            if (count++ == index)
                return line;
            expect = 0;
        }
        if (c == '"') {
            size_t start = i + 1;
            skip_string(s, n, &i, &line);
            if (state == SEEK && depth == 1 && i - start == mlen &&
                memcmp(s + start, member, mlen) == 0)
                state = AFTER_KEY;
            continue;
        }
        if (state == AFTER_KEY && c != ':') {
            if (c != '[')
                state = SEEK;
            else {
                state = IN_ARRAY;
                array_depth = depth + 1;
                expect = 1;
            }
        }
        if (c == '{' || c == '[')
            depth++;
        else if (c == '}' || c == ']') {
            if (state == IN_ARRAY && depth == array_depth)
                return 0;
            depth--;
        } else if (c == ',' && state == IN_ARRAY && depth == array_depth)
            expect = 1;
    }
    return 0;
}

int ht_json_elem_error(const ht_json *j, tg_error *err, const char *member,
                       size_t index, const char *fmt, ...)
{
    char text[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    return tg_error_set(err, TG_EPARSE, j->path, ht_json_line(j, member, index),
                        "%s[%zu]: %s", member, index, text);
}

int ht_json_number(json_t *obj, const char *key, double *v)
{
    json_t *x = json_object_get(obj, key);
    if (!x)
        return 0;
    if (!json_is_number(x))
        return -1;
    *v = json_number_value(x);
    return 1;
}

int ht_json_u64(json_t *obj, const char *key, uint64_t *v)
{
    json_t *x = json_object_get(obj, key);
    if (!x)
        return 0;
    if (!json_is_integer(x) || json_integer_value(x) < 0)
        return -1;
    *v = (uint64_t)json_integer_value(x);
    return 1;
}

int ht_json_string(json_t *obj, const char *key, char *buf, size_t size)
{
    json_t *x = json_object_get(obj, key);
    if (!x)
        return 0;
    if (!json_is_string(x) || strlen(json_string_value(x)) >= size)
        return -1;
    strcpy(buf, json_string_value(x));
    return 1;
}

int ht_json_put_line(FILE *fp, const char *indent, json_t *obj)
{
    char *s = json_dumps(obj, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    if (!s)
        return -1;
    fprintf(fp, "%s%s", indent, s);
    free(s);
    return 0;
}
