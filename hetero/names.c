/* names.c: the names of kinds, sources and policies as files spell them,
 * cpuset lists, and host-name matching. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ht_internal.h"

static const char *const proc_names[] = {"cpu", "gpu"};
static const char *const mem_names[HT_MEM_COUNT] = {
    "device", "pinned", "managed", "dram", "hbm", "cxl", "nvm", "gpu"};
static const char *const source_names[] = {"none", "hwloc", "calibration",
                                           "option"};
static const char *const policy_names[] = {"none", "bind", "preferred",
                                           "interleave"};

static int find(const char *const *names, int count, const char *name)
{
    for (int i = 0; i < count; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

const char *ht_proc_name(ht_proc p)
{
    return proc_names[p];
}

const char *ht_memkind_name(ht_memkind k)
{
    return mem_names[k];
}

int ht_proc_parse(const char *name)
{
    return find(proc_names, 2, name);
}

int ht_memkind_parse(const char *name)
{
    return find(mem_names, HT_MEM_COUNT, name);
}

int ht_memkind_is_numa(ht_memkind k)
{
    return k >= HT_MEM_DRAM;
}

const char *ht_source_name(ht_source s)
{
    return source_names[s];
}

const char *ht_policy_name(ht_policy p)
{
    return policy_names[p];
}

int ht_policy_parse(const char *name)
{
    return find(policy_names, 4, name);
}

/* Largest index a list may name: far beyond any machine, small enough
 * that a typo cannot make hwloc allocate gigabytes. */
#define LIST_MAX 1048575L

static int list_number(const char **s, long *v)
{
    if (!isdigit((unsigned char)**s))
        return -1;
    char *end;
    *v = strtol(*s, &end, 10);
    if (*v > LIST_MAX)
        return -1;
    *s = end;
    return 0;
}

int ht_list_parse(hwloc_bitmap_t b, const char *text)
{
    /* Syntax first, then the bitmap, which costs a bit per index up to
     * the highest one; b == NULL only checks the syntax. */
    if (b)
        hwloc_bitmap_zero(b);
    const char *s = text;
    for (; *s;) {
        long lo, hi;
        if (list_number(&s, &lo))
            return -1;
        hi = lo;
        if (*s == '-') {
            s++;
            if (list_number(&s, &hi) || hi < lo)
                return -1;
        }
        if (*s && (*s++ != ',' || !*s))
            return -1;
    }
    if (!b)
        return 0;
    for (s = text; *s;) {
        long lo, hi;
        list_number(&s, &lo);
        hi = lo;
        if (*s == '-') {
            s++;
            list_number(&s, &hi);
        }
        /* hwloc grows the bitmap to hi bits: -1 when it cannot. */
        if (hwloc_bitmap_set_range(b, (unsigned)lo, (int)hi) != 0) {
            hwloc_bitmap_zero(b);
            return -2;
        }
        if (*s)
            s++;
    }
    return 0;
}

/* Length of the first label of a host name. */
static size_t short_len(const char *h)
{
    const char *dot = strchr(h, '.');
    return dot ? (size_t)(dot - h) : strlen(h);
}

int ht_host_match(const char *a, const char *b)
{
    if (strcasecmp(a, b) == 0)
        return 1;
    size_t la = short_len(a), lb = short_len(b);
    /* Only when one of them is a short name: n0.a and n0.b differ. */
    if (a[la] && b[lb])
        return 0;
    return la == lb && strncasecmp(a, b, la) == 0;
}
