/* route.c: distance, routes and link ids, dispatched on the network
 * kind. */
#include <stdio.h>
#include <string.h>

#include "gm_internal.h"

int gm_distance(const gm_machine *m, int a, int b)
{
    switch (m->net->kind) {
    case GM_NET_TORUS:
        return gm_torus_distance(m, a, b);
    case GM_NET_DRAGONFLY:
        return gm_dragonfly_distance(m, a, b);
    case GM_NET_FATTREE:
    case GM_NET_GRAPH:
        return gm_explicit_distance(m, a, b);
    default:
        return gm_flat_distance(m, a, b);
    }
}

int gm_max_distance(const gm_machine *m)
{
    if (m->net->kind == GM_NET_FLAT)
        return m->n > 1 ? 2 : 0;
    return m->maxdist;
}

int gm_route(const gm_machine *m, int a, int b, int *links, int cap)
{
    switch (m->net->kind) {
    case GM_NET_TORUS:
        return gm_torus_route(m, a, b, NULL, links, cap);
    case GM_NET_DRAGONFLY:
        return gm_dragonfly_route(m, a, b, links, cap);
    case GM_NET_FATTREE:
    case GM_NET_GRAPH:
        return gm_explicit_route(m, a, b, links, cap, NULL);
    default:
        return gm_flat_route(m, a, b, links, cap);
    }
}

int gm_link_count(const gm_machine *m)
{
    switch (m->net->kind) {
    case GM_NET_TORUS:
        return gm_torus_links(m->net);
    case GM_NET_DRAGONFLY:
        return gm_dragonfly_links(m->net);
    case GM_NET_FATTREE:
    case GM_NET_GRAPH:
        return m->net->x->xadj[m->net->x->nv];
    default:
        return 2 * m->n;
    }
}

int gm_vertex_count(const gm_machine *m)
{
    const gm_network *net = m->net;
    switch (net->kind) {
    case GM_NET_TORUS:
        return net->npos;
    case GM_NET_DRAGONFLY:
        return net->npos + net->groups * net->routers;
    case GM_NET_FATTREE:
    case GM_NET_GRAPH:
        return net->x->nv;
    default:
        return m->n + 1;
    }
}

int gm_node_vertex(const gm_machine *m, int node)
{
    if (m->net->x)
        return m->net->x->hosts[m->pos[node]];
    return m->pos ? m->pos[node] : node;
}

int gm_link_ends(const gm_machine *m, int link, int *from, int *to)
{
    const gm_network *net = m->net;
    switch (net->kind) {
    case GM_NET_TORUS:
        return gm_torus_link_ends(net, link, from, to);
    case GM_NET_DRAGONFLY:
        return gm_dragonfly_link_ends(net, link, from, to);
    case GM_NET_FATTREE:
    case GM_NET_GRAPH:
        if (link < 0 || link >= gm_link_count(m))
            return TG_EINVAL;
        *from = net->x->tail[link];
        *to = net->x->adj[link];
        return 0;
    default:
        return gm_flat_link_ends(m, link, from, to);
    }
}

/* The machine node sitting on vertex v, or -1. */
static int node_at(const gm_machine *m, int v)
{
    const gm_network *net = m->net;
    if (net->kind == GM_NET_FLAT)
        return v < m->n ? v : -1;
    if (net->x)
        v = net->x->host_of[v];
    else if (v >= net->npos)
        return -1;
    return v >= 0 ? m->pos_node[v] : -1;
}

static void vertex_name(const gm_machine *m, int v, char *buf, size_t size)
{
    const gm_network *net = m->net;
    int node = node_at(m, v);
    if (node >= 0) {
        snprintf(buf, size, "%s", m->host[node]);
    } else if (net->x) {
        snprintf(buf, size, "%s", net->x->names[v]);
    } else if (net->kind == GM_NET_FLAT) {
        snprintf(buf, size, "switch");
    } else if (net->kind == GM_NET_DRAGONFLY) {
        int R = net->routers, N = net->per_router;
        if (v < net->npos)
            snprintf(buf, size, "g%dr%dn%d", v / N / R, v / N % R, v % N);
        else
            snprintf(buf, size, "g%dr%d", (v - net->npos) / R,
                     (v - net->npos) % R);
    } else {
        int c[GM_MAX_DIMS], p = v;
        for (int k = net->ndims - 1; k >= 0; k--) {
            c[k] = p % net->size[k];
            p /= net->size[k];
        }
        size_t len = 0;
        for (int k = 0; k < net->ndims && len < size; k++)
            len += (size_t)snprintf(buf + len, size - len, "%c%d",
                                    k ? ',' : '(', c[k]);
        if (len < size)
            snprintf(buf + len, size - len, ")");
    }
}

const char *gm_link_name(const gm_machine *m, int link, char *buf,
                         size_t size)
{
    int from, to;
    if (gm_link_ends(m, link, &from, &to) != 0) {
        snprintf(buf, size, "(no link %d)", link);
        return buf;
    }
    char a[128], b[128];
    vertex_name(m, from, a, sizeof a);
    vertex_name(m, to, b, sizeof b);
    snprintf(buf, size, "%s->%s", a, b);
    return buf;
}
