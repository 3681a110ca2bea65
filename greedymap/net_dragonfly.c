/* net_dragonfly.c: dragonfly:G,R,N.  Vertices: hosts 0 .. H-1 (H = G*R*N),
 * then router r of group g is H + g*R + r.  Link ids: 2p (host p up to its
 * router), 2p+1 (down to host p); 2H + (g*R + r1)*R + r2 the local link
 * r1 -> r2 of group g; 2H + G*R*R + g*G + h the global link g -> h. */
#include <stdio.h>
#include <stdlib.h>

#include "gm_internal.h"

int gm_dragonfly_parse(gm_network *net, const char *args, tg_error *err)
{
    long g, r, n;
    char tail;
    if (sscanf(args, "%ld,%ld,%ld%c", &g, &r, &n, &tail) != 3 || g < 1 ||
        r < 1 || n < 1 || g > 65536 || r > 65536 || n > 65536)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "network '%s': expected dragonfly:GROUPS,"
                            "ROUTERS,NODES (each >= 1)",
                            net->spec);
    /* As for tori: a few bytes must not make a machine that costs
     * gigabytes, by its hosts or by the links of its all-to-all groups
     * (dragonfly:1,40000,1). */
    int64_t h = g * r * n, links = 2 * h + g * r * r + g * g;
    if (h > GM_NETWORK_POSITIONS_MAX)
        return gm_network_too_large(net, "positions", h,
                                    GM_NETWORK_POSITIONS_MAX, err);
    if (links > GM_NETWORK_LINKS_MAX)
        return gm_network_too_large(net, "links", links,
                                    GM_NETWORK_LINKS_MAX, err);
    net->groups = (int)g;
    net->routers = (int)r;
    net->per_router = (int)n;
    net->npos = (int)h;
    return 0;
}

int gm_dragonfly_links(const gm_network *net)
{
    int G = net->groups, R = net->routers;
    return 2 * net->npos + G * R * R + G * G;
}

/* The router of group g that holds the global link to group h (documented
 * in greedymap.h). */
static int gateway(const gm_network *net, int g, int h)
{
    return (h < g ? h : h - 1) % net->routers;
}

int gm_dragonfly_distance(const gm_machine *m, int a, int b)
{
    const gm_network *net = m->net;
    int p = m->pos[a], q = m->pos[b];
    if (p == q)
        return 0;
    int rp = p / net->per_router, rq = q / net->per_router;
    if (rp == rq)
        return 2;
    int R = net->routers, gp = rp / R, gq = rq / R;
    if (gp == gq)
        return 3;
    return 3 + (rp % R != gateway(net, gp, gq)) +
           (rq % R != gateway(net, gq, gp));
}

int gm_dragonfly_route(const gm_machine *m, int a, int b, int *links,
                       int cap)
{
    const gm_network *net = m->net;
    int p = m->pos[a], q = m->pos[b];
    if (p == q)
        return 0;
    int H = net->npos, G = net->groups, R = net->routers;
    int rp = p / net->per_router, rq = q / net->per_router;
    int gp = rp / R, gq = rq / R;
    int local = 2 * H, global = 2 * H + G * R * R;
    int route[5], len = 0;
    route[len++] = 2 * p;
    if (gp == gq) {
        if (rp != rq)
            route[len++] = local + rp * R + rq % R;
    } else {
        int out = gateway(net, gp, gq), in = gateway(net, gq, gp);
        if (rp % R != out)
            route[len++] = local + rp * R + out;
        route[len++] = global + gp * G + gq;
        if (in != rq % R)
            route[len++] = local + (gq * R + in) * R + rq % R;
    }
    route[len++] = 2 * q + 1;
    for (int i = 0; i < len && i < cap; i++)
        links[i] = route[i];
    return len;
}

int gm_dragonfly_link_ends(const gm_network *net, int link, int *from,
                           int *to)
{
    int H = net->npos, G = net->groups, R = net->routers;
    if (link < 0 || link >= gm_dragonfly_links(net))
        return TG_EINVAL;
    if (link < 2 * H) {
        int p = link / 2, router = H + p / net->per_router;
        *from = link % 2 ? router : p;
        *to = link % 2 ? p : router;
        return 0;
    }
    link -= 2 * H;
    if (link < G * R * R) {
        int g = link / (R * R), r1 = link / R % R, r2 = link % R;
        if (r1 == r2)
            return TG_EINVAL;
        *from = H + g * R + r1;
        *to = H + g * R + r2;
        return 0;
    }
    link -= G * R * R;
    int g = link / G, h = link % G;
    if (g == h)
        return TG_EINVAL;
    *from = H + g * R + gateway(net, g, h);
    *to = H + h * R + gateway(net, h, g);
    return 0;
}
