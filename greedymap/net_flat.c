/* net_flat.c: one switch.  Node i is vertex i, the switch is vertex n;
 * link 2i goes from node i up to the switch and link 2i+1 back down.  Two
 * distinct nodes are at distance 2 (node -> switch -> node), counting
 * node-to-switch links as fat-trees do. */
#include "gm_internal.h"

int gm_flat_distance(const gm_machine *m, int a, int b)
{
    (void)m;
    return a == b ? 0 : 2;
}

int gm_flat_route(const gm_machine *m, int a, int b, int *links, int cap)
{
    (void)m;
    if (a == b)
        return 0;
    if (cap > 0)
        links[0] = 2 * a;
    if (cap > 1)
        links[1] = 2 * b + 1;
    return 2;
}

int gm_flat_link_ends(const gm_machine *m, int link, int *from, int *to)
{
    if (link < 0 || link >= 2 * m->n)
        return TG_EINVAL;
    int node = link / 2;
    *from = link % 2 ? m->n : node;
    *to = link % 2 ? node : m->n;
    return 0;
}
