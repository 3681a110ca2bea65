/* hostlist.c: Slurm hostlist expansion ("n[0-15,32],login1"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

#define NAME_MAX_LEN 256

/* Parse an unsigned decimal of at most 9 digits at *p; its width (for zero
 * padding) in *width.  0 on success. */
static int number(const char **p, long *v, int *width)
{
    const char *s = *p;
    long x = 0;
    while (*s >= '0' && *s <= '9' && s - *p < 9)
        x = x * 10 + (*s++ - '0');
    if (s == *p || (*s >= '0' && *s <= '9'))
        return -1;
    *width = (int)(s - *p);
    *v = x;
    *p = s;
    return 0;
}

/* Number of names `item` (no top-level comma) expands to, saturating at
 * cap (at most 10^18); -1 when malformed (expand() then says how). */
static long long count_item(const char *item, long long cap)
{
    const char *open = strchr(item, '[');
    if (!open)
        return 1;
    const char *close = strchr(open, ']');
    if (!close || close == open + 1)
        return -1;
    long long rest = count_item(close + 1, cap);
    if (rest < 0)
        return -1;
    long long total = 0;
    const char *p = open + 1;
    while (p < close) {
        long lo, hi;
        int wlo, whi;
        if (number(&p, &lo, &wlo) != 0)
            return -1;
        hi = lo;
        if (*p == '-') {
            p++;
            if (number(&p, &hi, &whi) != 0 || hi < lo)
                return -1;
        }
        if (*p != ',' && p != close)
            return -1;
        if (*p == ',')
            p++;
        long long c;
        if (__builtin_mul_overflow((long long)(hi - lo + 1), rest, &c) ||
            c >= cap - total)
            return cap;
        total += c;
    }
    return total;
}

/* The item of a host list that starts at p (it ends at a comma outside
 * brackets) copied into item; returns where it ends (its comma or the
 * end), NULL when it is empty, too long or its brackets do not close. */
static const char *next_item(const char *p, char *item, size_t size)
{
    const char *q = p;
    int depth = 0;
    while (*q && (depth || *q != ',')) {
        depth += (*q == '[') - (*q == ']');
        q++;
    }
    size_t len = (size_t)(q - p);
    if (len == 0 || len >= size || depth)
        return NULL;
    memcpy(item, p, len);
    item[len] = '\0';
    return q;
}

long long gm_hostlist_count(const char *list, long long cap)
{
    char item[1024];
    long long total = 0;
    const char *p = list;
    while (*p) {
        const char *q = next_item(p, item, sizeof item);
        if (!q)
            return -1;
        long long c = count_item(item, cap);
        if (c < 0)
            return -1;
        if (c >= cap - total)
            return cap;
        total += c;
        p = *q ? q + 1 : q;
    }
    return total;
}

/* Expand `item` (no top-level comma) with `prefix` already produced. */
static int expand(const char *prefix, const char *item,
                  int (*fn)(void *, const char *), void *arg, char *why,
                  size_t whysize)
{
    char name[NAME_MAX_LEN];
    const char *open = strchr(item, '[');
    if (!open) {
        if (snprintf(name, sizeof name, "%s%s", prefix, item) >=
            (int)sizeof name) {
            snprintf(why, whysize, "host name too long");
            return TG_EPARSE;
        }
        return fn(arg, name);
    }
    const char *close = strchr(open, ']');
    if (!close || close == open + 1) {
        snprintf(why, whysize, "bad hostlist '%s'", item);
        return TG_EPARSE;
    }
    const char *p = open + 1;
    while (p < close) {
        long lo, hi;
        int wlo, whi;
        if (number(&p, &lo, &wlo) != 0)
            goto bad;
        hi = lo;
        whi = wlo;
        if (*p == '-') {
            p++;
            if (number(&p, &hi, &whi) != 0 || hi < lo)
                goto bad;
        }
        if (*p != ',' && p != close)
            goto bad;
        if (*p == ',')
            p++;
        /* Zero padding follows the lower bound's width (n[00-15]). */
        int width = wlo;
        (void)whi;
        for (long v = lo; v <= hi; v++) {
            char pre[NAME_MAX_LEN];
            if (snprintf(pre, sizeof pre, "%s%.*s%0*ld", prefix,
                         (int)(open - item), item, width, v) >=
                (int)sizeof pre) {
                snprintf(why, whysize, "host name too long");
                return TG_EPARSE;
            }
            int rc = expand(pre, close + 1, fn, arg, why, whysize);
            if (rc)
                return rc;
        }
    }
    return 0;
bad:
    snprintf(why, whysize, "bad range in hostlist '%s'", item);
    return TG_EPARSE;
}

int gm_hostlist_expand(const char *key, const char *noun, const char *list,
                       int (*fn)(void *arg, const char *name), void *arg,
                       char *why, size_t whysize)
{
    /* Counted before anything is expanded: a few bytes of ranges must not
     * cost millions of names (and their time and memory). */
    if (gm_hostlist_count(list, GM_HOSTLIST_MAX + 1LL) > GM_HOSTLIST_MAX) {
        long long n = gm_hostlist_count(list, GM_HOSTLIST_HUGE);
        snprintf(why, whysize, "%s%s%.200s expands to %s%lld %s, more "
                 "than the limit of %d", key ? key : "", key ? "=" : "",
                 list, n == GM_HOSTLIST_HUGE ? "more than " : "", n, noun,
                 GM_HOSTLIST_MAX);
        return TG_EPARSE;
    }
    char item[1024];
    const char *p = list;
    while (*p) {
        const char *q = next_item(p, item, sizeof item);
        if (!q) {
            snprintf(why, whysize, "bad hostlist '%s'", list);
            return TG_EPARSE;
        }
        int rc = expand("", item, fn, arg, why, whysize);
        if (rc)
            return rc;
        p = *q ? q + 1 : q;
        if (*q && !*p) {
            snprintf(why, whysize, "bad hostlist '%s'", list);
            return TG_EPARSE;
        }
    }
    return 0;
}
