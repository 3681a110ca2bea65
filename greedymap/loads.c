/* loads.c: bytes per directed link under fixed or least-loaded routes
 * (the congestion heuristic of papers/001, 5.1; details in greedymap.h). */
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

#define MAX_ORDERS 8 /* 3! = 6 orders for d <= 3, d rotations for d > 3 */

struct gm_loads {
    const gm_machine *m;
    uint64_t *load;
    int nlinks;
    int cap;        /* room in buf and best: the longest route */
    int *buf, *best;
    int norders;    /* torus candidates */
    int orders[MAX_ORDERS][GM_MAX_DIMS];
    int saturated;
    /* gm_loads_peek's undo log: links and their loads before the peek */
    int *ulink;
    uint64_t *uold;
    size_t ucap;
};

/* Next permutation in lexicographic order; 0 after the last. */
static int next_permutation(int *a, int n)
{
    int i = n - 2;
    while (i >= 0 && a[i] >= a[i + 1])
        i--;
    if (i < 0)
        return 0;
    int j = n - 1;
    while (a[j] <= a[i])
        j--;
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
    for (int l = i + 1, r = n - 1; l < r; l++, r--) {
        t = a[l];
        a[l] = a[r];
        a[r] = t;
    }
    return 1;
}

/* The candidate dimension orders, the fixed order (0, 1, ...) first. */
static void torus_orders(gm_loads *l, int d)
{
    int cur[GM_MAX_DIMS];
    for (int k = 0; k < d; k++)
        cur[k] = k;
    l->norders = 0;
    if (d <= 3) {
        do
            memcpy(l->orders[l->norders++], cur, sizeof cur);
        while (next_permutation(cur, d));
        return;
    }
    for (int r = 0; r < d; r++) {
        for (int k = 0; k < d; k++)
            l->orders[r][k] = (k + r) % d;
        l->norders++;
    }
}

int gm_loads_new(const gm_machine *m, gm_loads **out, tg_error *err)
{
    gm_loads *l = calloc(1, sizeof *l);
    if (!l)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    l->m = m;
    l->nlinks = gm_link_count(m);
    l->cap = gm_max_distance(m) + 1;
    l->load = calloc((size_t)l->nlinks + 1, sizeof *l->load);
    l->buf = malloc((size_t)l->cap * sizeof *l->buf);
    l->best = malloc((size_t)l->cap * sizeof *l->best);
    if (!l->load || !l->buf || !l->best) {
        gm_loads_free(l);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    if (m->net->kind == GM_NET_TORUS)
        torus_orders(l, m->net->ndims);
    *out = l;
    return 0;
}

void gm_loads_free(gm_loads *l)
{
    if (!l)
        return;
    free(l->load);
    free(l->buf);
    free(l->best);
    free(l->ulink);
    free(l->uold);
    free(l);
}

void gm_loads_reset(gm_loads *l)
{
    memset(l->load, 0, (size_t)l->nlinks * sizeof *l->load);
    l->saturated = 0;
}

static uint64_t route_max(const gm_loads *l, const int *links, int len)
{
    uint64_t mx = 0;
    for (int i = 0; i < len; i++)
        if (l->load[links[i]] > mx)
            mx = l->load[links[i]];
    return mx;
}

/* Among the dimension orders, the route whose busiest link is least
 * loaded; left in l->best, its length returned. */
static int torus_least_loaded(gm_loads *l, int a, int b)
{
    int len = 0;
    uint64_t best = 0;
    for (int o = 0; o < l->norders; o++) {
        int n = gm_torus_route(l->m, a, b, l->orders[o], l->buf, l->cap);
        uint64_t mx = route_max(l, l->buf, n);
        if (o == 0 || mx < best) {
            best = mx;
            len = n;
            memcpy(l->best, l->buf, (size_t)n * sizeof *l->buf);
        }
    }
    return len;
}

/* The route a -> b under `policy` in l->best; returns its length. */
static int choose_route(gm_loads *l, int a, int b, gm_route_policy policy)
{
    const gm_machine *m = l->m;
    int len;
    if (policy == GM_ROUTE_LEAST_LOADED && m->net->kind == GM_NET_TORUS)
        len = torus_least_loaded(l, a, b);
    else if (policy == GM_ROUTE_LEAST_LOADED && m->net->x)
        len = gm_explicit_route(m, a, b, l->best, l->cap, l->load);
    else
        len = gm_route(m, a, b, l->best, l->cap);
    return len < l->cap ? len : l->cap;
}

/* Add w to the links of l->best[0 .. len-1]; the largest load after. */
static uint64_t charge(gm_loads *l, int len, uint64_t w)
{
    uint64_t mx = 0;
    for (int i = 0; i < len; i++) {
        uint64_t *x = &l->load[l->best[i]];
        if (*x > UINT64_MAX - w) {
            *x = UINT64_MAX;
            l->saturated = 1;
        } else {
            *x += w;
        }
        if (*x > mx)
            mx = *x;
    }
    return mx;
}

uint64_t gm_loads_add(gm_loads *l, int a, int b, uint64_t w,
                      gm_route_policy policy)
{
    if (a == b)
        return 0;
    return charge(l, choose_route(l, a, b, policy), w);
}

uint64_t gm_loads_add_flows(gm_loads *l, const int *a, const int *b,
                            const uint64_t *w, int k,
                            gm_route_policy policy)
{
    uint64_t mx = 0;
    for (int i = 0; i < k; i++) {
        uint64_t x = gm_loads_add(l, a[i], b[i], w[i], policy);
        if (x > mx)
            mx = x;
    }
    return mx;
}

/* Room for n more entries in the undo log. */
static int undo_reserve(gm_loads *l, size_t n)
{
    if (n <= l->ucap)
        return 0;
    size_t cap = l->ucap ? l->ucap : 64;
    while (cap < n)
        cap *= 2;
    int *nl = realloc(l->ulink, cap * sizeof *nl);
    if (nl)
        l->ulink = nl;
    uint64_t *no = nl ? realloc(l->uold, cap * sizeof *no) : NULL;
    if (!no)
        return TG_ENOMEM;
    l->uold = no;
    l->ucap = cap;
    return 0;
}

int gm_loads_peek(gm_loads *l, const int *a, const int *b,
                  const uint64_t *w, int k, gm_route_policy policy,
                  uint64_t *max, tg_error *err)
{
    /* Add for real, so that least-loaded choices see the earlier flows as
     * gm_loads_add_flows would, logging every old value; then undo. */
    size_t used = 0;
    int saturated = l->saturated, rc = 0;
    uint64_t mx = 0;
    for (int i = 0; i < k && !rc; i++) {
        if (a[i] == b[i])
            continue;
        int len = choose_route(l, a[i], b[i], policy);
        rc = undo_reserve(l, used + (size_t)len);
        if (rc)
            break;
        for (int j = 0; j < len; j++) {
            l->ulink[used + (size_t)j] = l->best[j];
            l->uold[used + (size_t)j] = l->load[l->best[j]];
        }
        used += (size_t)len;
        uint64_t x = charge(l, len, w[i]);
        if (x > mx)
            mx = x;
    }
    while (used > 0) {
        used--;
        l->load[l->ulink[used]] = l->uold[used];
    }
    l->saturated = saturated;
    *max = mx;
    return rc ? tg_error_set(err, rc, NULL, 0, "out of memory") : 0;
}

uint64_t gm_loads_get(const gm_loads *l, int link)
{
    return link >= 0 && link < l->nlinks ? l->load[link] : 0;
}

uint64_t gm_loads_max(const gm_loads *l, int *link)
{
    uint64_t mx = 0;
    int at = -1;
    for (int i = 0; i < l->nlinks; i++)
        if (l->load[i] > mx) {
            mx = l->load[i];
            at = i;
        }
    if (link)
        *link = at;
    return mx;
}

int gm_loads_saturated(const gm_loads *l)
{
    return l->saturated;
}
