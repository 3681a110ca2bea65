/* placement.c: which network position each node occupies, by default or
 * from a positions file, and what that placement precomputes. */
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

static int nomem(tg_error *err)
{
    return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
}

/* Fat-tree and graph: by name when every hostname is a topology host, by
 * file order when none is; a mix is an error. */
static int default_explicit(gm_machine *m, tg_error *err)
{
    const gm_xgraph *x = m->net->x;
    int matched = 0, first_miss = -1;
    for (int i = 0; i < m->n; i++) {
        int v = gm_strmap_get(&x->index, m->host[i]);
        if (v >= 0 && x->host_of[v] >= 0) {
            m->pos[i] = x->host_of[v];
            matched++;
        } else if (first_miss < 0) {
            first_miss = i;
        }
    }
    if (matched && first_miss >= 0)
        return tg_error_set(err, TG_EINVAL, x->source, 0,
                            "node %s is not a host of the topology (other "
                            "hostnames are, so nodes are placed by name)",
                            m->host[first_miss]);
    if (!matched) {
        if (m->n > x->nhosts)
            return tg_error_set(err, TG_EINVAL, x->source, 0,
                                "the machine has %d nodes, the topology %d "
                                "hosts",
                                m->n, x->nhosts);
        for (int i = 0; i < m->n; i++)
            m->pos[i] = i;
    }
    return 0;
}

static int default_placement(gm_machine *m, tg_error *err)
{
    if (m->net->x)
        return default_explicit(m, err);
    if (m->n > m->net->npos)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "the machine has %d nodes, network '%s' has %d "
                            "positions",
                            m->n, m->net->spec, m->net->npos);
    for (int i = 0; i < m->n; i++)
        m->pos[i] = i;
    return 0;
}

/* Read `count` coordinates below `limits` from the line. */
static int read_coords(const tg_text *t, char **p, int count,
                       const int *limits, int64_t *pos, tg_error *err)
{
    *pos = 0;
    for (int k = 0; k < count; k++) {
        uint64_t c;
        int rc = tg_lex_u64(t, p, &c, "coordinate", err);
        if (rc < 0)
            return rc;
        if (rc == 0)
            return tg_error_set(err, TG_EPARSE, t->source, t->line,
                                "expected %d coordinates", count);
        if (c >= (uint64_t)limits[k])
            return tg_error_set(err, TG_EPARSE, t->source, t->line,
                                "coordinate %d is %llu, outside 0..%d", k,
                                (unsigned long long)c, limits[k] - 1);
        *pos = *pos * limits[k] + (int64_t)c;
    }
    return 0;
}

/* The position named on a line after the hostname. */
static int line_position(const gm_machine *m, const tg_text *t, char *p,
                         int *pos, tg_error *err)
{
    const gm_network *net = m->net;
    int64_t v = 0;
    int rc = 0;
    if (net->kind == GM_NET_TORUS) {
        rc = read_coords(t, &p, net->ndims, net->size, &v, err);
    } else if (net->kind == GM_NET_DRAGONFLY) {
        const int lim[3] = {net->groups, net->routers, net->per_router};
        rc = read_coords(t, &p, 3, lim, &v, err);
    } else {
        while (*p == ' ' || *p == '\t')
            p++;
        char *name = p;
        p += strcspn(p, " \t");
        if (*p)
            *p++ = '\0';
        int x = gm_strmap_get(&net->x->index, name);
        if (!*name || x < 0 || net->x->host_of[x] < 0)
            return tg_error_set(err, TG_EPARSE, t->source, t->line,
                                "'%s' is not a host of the topology %s",
                                name, net->x->source);
        v = net->x->host_of[x];
    }
    if (rc)
        return rc;
    if (!tg_lex_at_end(p))
        return tg_error_set(err, TG_EPARSE, t->source, t->line,
                            "extra text after the position");
    *pos = (int)v;
    return 0;
}

static int positions_line(gm_machine *m, const tg_text *t, char *line,
                          long *seen, tg_error *err)
{
    char *p = line;
    while (*p == ' ' || *p == '\t')
        p++;
    char *host = p;
    p += strcspn(p, " \t");
    if (*p)
        *p++ = '\0';
    int node = gm_machine_find(m, host);
    if (node < 0)
        return 0; /* a host outside this allocation */
    if (seen[node])
        return tg_error_set(err, TG_EPARSE, t->source, t->line,
                            "host %s listed twice (first on line %ld)",
                            host, seen[node]);
    int pos = 0;
    int rc = line_position(m, t, p, &pos, err);
    if (rc)
        return rc;
    if (m->pos_node[pos] >= 0)
        return tg_error_set(err, TG_EPARSE, t->source, t->line,
                            "host %s is on the position of host %s", host,
                            m->host[m->pos_node[pos]]);
    seen[node] = t->line;
    m->pos[node] = pos;
    m->pos_node[pos] = node;
    return 0;
}

static int read_positions(gm_machine *m, const char *path, tg_error *err)
{
    long *seen = calloc((size_t)m->n + 1, sizeof *seen);
    if (!seen)
        return nomem(err);
    tg_text t;
    int rc = tg_text_load(&t, path, err);
    char *line;
    while (!rc && (line = gm_text_line(&t)))
        rc = positions_line(m, &t, line, seen, err);
    for (int i = 0; !rc && i < m->n; i++)
        if (!seen[i])
            rc = tg_error_set(err, TG_EPARSE, path, 0,
                              "host %s has no position", m->host[i]);
    if (t.buf)
        tg_text_free(&t);
    free(seen);
    return rc;
}

static int torus_coords(gm_machine *m, tg_error *err)
{
    const gm_network *net = m->net;
    int nd = net->ndims;
    m->coord = malloc(((size_t)m->n + 1) * (size_t)nd * sizeof *m->coord);
    if (!m->coord)
        return nomem(err);
    for (int i = 0; i < m->n; i++) {
        int p = m->pos[i];
        for (int k = nd - 1; k >= 0; k--) { /* last dimension fastest */
            m->coord[(size_t)i * nd + k] = p % net->size[k];
            p /= net->size[k];
        }
    }
    m->maxdist = gm_torus_diameter(net);
    return 0;
}

int gm_place_nodes(gm_machine *m, const char *positions, tg_error *err)
{
    gm_network *net = m->net;
    if (net->kind == GM_NET_FLAT) {
        if (positions)
            return tg_error_set(err, TG_EINVAL, positions, 0,
                                "the flat network has no positions");
        m->maxdist = m->n > 1 ? 2 : 0;
        return 0;
    }
    m->pos = malloc(((size_t)m->n + 1) * sizeof *m->pos);
    m->pos_node = malloc((size_t)net->npos * sizeof *m->pos_node);
    if (!m->pos || !m->pos_node)
        return nomem(err);
    for (int p = 0; p < net->npos; p++)
        m->pos_node[p] = -1;
    int rc = positions ? read_positions(m, positions, err)
                       : default_placement(m, err);
    if (rc)
        return rc;
    if (!positions)
        for (int i = 0; i < m->n; i++)
            m->pos_node[m->pos[i]] = i;
    if (net->kind == GM_NET_TORUS)
        return torus_coords(m, err);
    if (net->kind == GM_NET_DRAGONFLY) {
        /* Bounds: 2 on one router, 3 in one group, 5 across groups. */
        m->maxdist = m->n < 2 ? 0 : net->groups > 1 ? 5
                                   : net->routers > 1 ? 3 : 2;
        return 0;
    }
    return gm_explicit_tables(m, err);
}
