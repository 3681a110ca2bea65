/* net_torus.c: N-D tori and meshes (wrap per dimension): parsing,
 * distance, dimension-order routes, link ids.
 *
 * Link id of the link leaving position v along dimension k in direction
 * dir (0: +, 1: -) is (v * ndims + k) * 2 + dir. */
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

int gm_torus_parse(gm_network *net, const char *dims, int wrap,
                   tg_error *err)
{
    const char *p = dims;
    int64_t npos = 1; /* stops past GM_HOSTLIST_HUGE */
    net->ndims = 0;
    while (*p) {
        if (net->ndims == GM_MAX_DIMS)
            return tg_error_set(err, TG_EINVAL, NULL, 0,
                                "network '%s': more than %d dimensions",
                                net->spec, GM_MAX_DIMS);
        long v = 0;
        const char *s = p;
        while (*p >= '0' && *p <= '9' && v <= INT32_MAX)
            v = v * 10 + (*p++ - '0');
        int k = net->ndims;
        net->wrap[k] = wrap;
        if (*p == 't' || *p == 'm')
            net->wrap[k] = *p++ == 't';
        if (p == s || v < 1 || v > INT32_MAX || (*p && *p != 'x') ||
            (*p == 'x' && !p[1]))
            return tg_error_set(err, TG_EINVAL, NULL, 0,
                                "network '%s': dimensions must look like "
                                "16x16x16 (sizes >= 1, optional t/m suffix)",
                                net->spec);
        net->size[k] = (int)v;
        npos = npos > GM_HOSTLIST_HUGE / v ? GM_HOSTLIST_HUGE + 1 : npos * v;
        net->ndims++;
        if (*p == 'x')
            p++;
    }
    if (net->ndims == 0)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "network '%s': no dimensions", net->spec);
    /* A few bytes must not make a machine that costs gigabytes (every
     * position a node by default, a table entry and links of its own).
     * Within the limit link ids, positions x dims x 2, are at most
     * GM_NETWORK_LINKS_MAX. */
    if (npos > GM_NETWORK_POSITIONS_MAX)
        return gm_network_too_large(net, "positions", npos,
                                    GM_NETWORK_POSITIONS_MAX, err);
    net->npos = (int)npos;
    return 0;
}

/* Hops along one dimension from coordinate a to b. */
static inline int hops(int a, int b, int size, int wrap)
{
    int d = a > b ? a - b : b - a;
    return wrap && 2 * d > size ? size - d : d;
}

int gm_torus_distance(const gm_machine *m, int a, int b)
{
    const gm_network *net = m->net;
    int nd = net->ndims;
    const int *ca = m->coord + (size_t)a * nd, *cb = m->coord + (size_t)b * nd;
    int d = 0;
    for (int k = 0; k < nd; k++)
        d += hops(ca[k], cb[k], net->size[k], net->wrap[k]);
    return d;
}

int gm_torus_diameter(const gm_network *net)
{
    int d = 0;
    for (int k = 0; k < net->ndims; k++)
        d += net->wrap[k] ? net->size[k] / 2 : net->size[k] - 1;
    return d;
}

int gm_torus_links(const gm_network *net)
{
    return net->npos * net->ndims * 2;
}

/* Stride of dimension k in the row-major position index. */
static int stride(const gm_network *net, int k)
{
    int s = 1;
    for (int j = net->ndims - 1; j > k; j--)
        s *= net->size[j];
    return s;
}

int gm_torus_route(const gm_machine *m, int a, int b, const int *order,
                   int *links, int cap)
{
    const gm_network *net = m->net;
    int nd = net->ndims;
    const int *ca = m->coord + (size_t)a * nd, *cb = m->coord + (size_t)b * nd;
    int v = m->pos[a], len = 0;
    for (int i = 0; i < nd; i++) {
        int k = order ? order[i] : i;
        int size = net->size[k], st = stride(net, k);
        int c = ca[k], steps, dir;
        if (net->wrap[k]) {
            int fwd = cb[k] - c;
            if (fwd < 0)
                fwd += size;
            /* The shorter way; + when both are equal (even ring). */
            dir = 2 * fwd > size;
            steps = dir ? size - fwd : fwd;
        } else {
            dir = cb[k] < c;
            steps = dir ? c - cb[k] : cb[k] - c;
        }
        for (int s = 0; s < steps; s++) {
            if (len < cap)
                links[len] = (v * nd + k) * 2 + dir;
            len++;
            if (dir == 0) {
                v += c == size - 1 ? -(size - 1) * st : st;
                c = c == size - 1 ? 0 : c + 1;
            } else {
                v += c == 0 ? (size - 1) * st : -st;
                c = c == 0 ? size - 1 : c - 1;
            }
        }
    }
    return len;
}

int gm_torus_link_ends(const gm_network *net, int link, int *from, int *to)
{
    int nd = net->ndims;
    if (link < 0 || link >= gm_torus_links(net))
        return TG_EINVAL;
    int dir = link % 2, k = (link / 2) % nd, v = link / 2 / nd;
    int size = net->size[k], st = stride(net, k);
    int c = v / st % size;
    if (size == 1 || (!net->wrap[k] && (dir ? c == 0 : c == size - 1)))
        return TG_EINVAL;
    int next;
    if (dir == 0)
        next = c == size - 1 ? v - (size - 1) * st : v + st;
    else
        next = c == 0 ? v + (size - 1) * st : v - st;
    *from = v;
    *to = next;
    return 0;
}
