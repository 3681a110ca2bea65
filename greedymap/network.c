/* network.c: network spec strings ("flat", "torus:4x4", "fattree:FILE",
 * ...) and the network accessors. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

void gm_network_free(gm_network *net)
{
    if (!net)
        return;
    gm_xgraph_free(net->x);
    free(net->spec);
    free(net);
}

/* Read a fat-tree or graph file; the file name in the messages of later
 * calls points into net->spec, which lives as long as the network. */
static int read_file(gm_network *net, size_t skip, tg_error *err)
{
    const char *path = net->spec + skip;
    if (!*path)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "network '%s': no file name", net->spec);
    int rc = net->kind == GM_NET_FATTREE ? gm_fattree_read(path, &net->x, err)
                                         : gm_graph_read(path, &net->x, err);
    if (rc)
        return rc;
    net->x->source = path;
    net->npos = net->x->nhosts;
    return 0;
}

int gm_network_too_large(const gm_network *net, const char *what,
                         int64_t n, int64_t limit, tg_error *err)
{
    int huge = n > GM_HOSTLIST_HUGE;
    return tg_error_set(err, TG_EINVAL, NULL, 0,
                        "network '%s' has %s%" PRId64 " %s, more than the "
                        "limit of %" PRId64, net->spec,
                        huge ? "more than " : "",
                        huge ? (int64_t)GM_HOSTLIST_HUGE : n, what, limit);
}

static int parse(gm_network *net, tg_error *err)
{
    const char *s = net->spec;
    if (strcmp(s, "flat") == 0) {
        net->kind = GM_NET_FLAT;
        return 0;
    }
    if (strncmp(s, "torus:", 6) == 0 || strncmp(s, "mesh:", 5) == 0) {
        net->kind = GM_NET_TORUS;
        int torus = s[0] == 't';
        return gm_torus_parse(net, s + (torus ? 6 : 5), torus, err);
    }
    if (strncmp(s, "dragonfly:", 10) == 0) {
        net->kind = GM_NET_DRAGONFLY;
        return gm_dragonfly_parse(net, s + 10, err);
    }
    if (strncmp(s, "fattree:", 8) == 0) {
        net->kind = GM_NET_FATTREE;
        return read_file(net, 8, err);
    }
    if (strncmp(s, "graph:", 6) == 0) {
        net->kind = GM_NET_GRAPH;
        return read_file(net, 6, err);
    }
    return tg_error_set(err, TG_EINVAL, NULL, 0,
                        "unknown network '%s' (expected flat, torus:AxB.., "
                        "mesh:AxB.., fattree:FILE, dragonfly:G,R,N or "
                        "graph:FILE)",
                        s);
}

int gm_network_parse(const char *spec, gm_network **out, tg_error *err)
{
    gm_network *net = calloc(1, sizeof *net);
    if (net)
        net->spec = strdup(spec);
    if (!net || !net->spec) {
        gm_network_free(net);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    int rc = parse(net, err);
    if (rc) {
        gm_network_free(net);
        return rc;
    }
    *out = net;
    return 0;
}

gm_net_kind gm_network_kind(const gm_network *net)
{
    return net->kind;
}

int gm_network_positions(const gm_network *net)
{
    return net->npos;
}

int gm_network_shape(const gm_network *net, int *sizes, int *wrap)
{
    if (net->kind != GM_NET_TORUS)
        return 0;
    for (int k = 0; k < net->ndims; k++) {
        if (sizes)
            sizes[k] = net->size[k];
        if (wrap)
            wrap[k] = net->wrap[k];
    }
    return net->ndims;
}
