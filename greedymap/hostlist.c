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

int gm_hostlist_expand(const char *list,
                       int (*fn)(void *arg, const char *name), void *arg,
                       char *why, size_t whysize)
{
    char item[1024];
    const char *p = list;
    while (*p) {
        /* An item ends at a comma outside brackets. */
        const char *q = p;
        int depth = 0;
        while (*q && (depth || *q != ',')) {
            depth += (*q == '[') - (*q == ']');
            q++;
        }
        size_t len = (size_t)(q - p);
        if (len == 0 || len >= sizeof item || depth) {
            snprintf(why, whysize, "bad hostlist '%s'", list);
            return TG_EPARSE;
        }
        memcpy(item, p, len);
        item[len] = '\0';
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
