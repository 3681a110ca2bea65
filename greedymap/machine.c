/* machine.c: nodes (hostnames, slots), the constructors and the Open MPI
 * hostfile reader, and putting a machine on a network. */
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"

gm_machine *gm_machine_new(void)
{
    gm_machine *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->net = calloc(1, sizeof *m->net);
    if (!m->net) {
        free(m);
        return NULL;
    }
    m->net->kind = GM_NET_FLAT;
    return m;
}

static void clear_placement(gm_machine *m)
{
    free(m->pos);
    free(m->pos_node);
    free(m->coord);
    free(m->tab);
    free(m->attach);
    m->pos = m->pos_node = m->coord = m->attach = NULL;
    m->tab = NULL;
    m->phases = 0;
    m->maxdist = 0;
}

/* Back to a flat network, reusing the network struct when it is flat. */
static void to_flat(gm_machine *m, gm_network *flat)
{
    clear_placement(m);
    gm_network_free(m->net);
    memset(flat, 0, sizeof *flat);
    flat->kind = GM_NET_FLAT;
    m->net = flat;
}

void gm_machine_free(gm_machine *m)
{
    if (!m)
        return;
    clear_placement(m);
    gm_network_free(m->net);
    gm_nodetopo_free(m->topo);
    gm_lv_free(m->lv);
    for (int i = 0; i < m->n; i++)
        free(m->host[i]);
    free(m->host);
    free(m->slots);
    gm_strmap_free(&m->hosts);
    free(m);
}

int gm_machine_add_node(gm_machine *m, const char *host, int slots,
                        tg_error *err)
{
    if (slots < 1)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "node '%s' needs at least one slot", host);
    if (!host[0] || strpbrk(host, " \t\n\r#"))
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "bad host name '%s'", host);
    if (gm_machine_find(m, host) >= 0)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "node '%s' added twice", host);
    if (m->n == INT32_MAX)
        return tg_error_set(err, TG_EOVERFLOW, NULL, 0, "too many nodes");
    if (m->n == m->cap) {
        int cap = m->cap ? 2 * m->cap : 16;
        char **h = realloc(m->host, (size_t)cap * sizeof *h);
        if (!h)
            return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
        m->host = h;
        int *s = realloc(m->slots, (size_t)cap * sizeof *s);
        if (!s)
            return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
        m->slots = s;
        m->cap = cap;
    }
    char *copy = strdup(host);
    if (!copy || gm_strmap_put(&m->hosts, copy, m->n) < -1) {
        free(copy);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    /* A placement covers a fixed set of nodes: start again from flat. */
    gm_network *flat = calloc(1, sizeof *flat);
    if (!flat) {
        free(copy);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    to_flat(m, flat);
    gm_nodetopo_free(m->topo); /* checked against the old nodes' slots */
    m->topo = NULL;
    gm_lv_free(m->lv); /* levels too */
    m->lv = NULL;
    m->host[m->n] = copy;
    m->slots[m->n] = slots;
    return m->n++;
}

int gm_machine_uniform(int nodes, int slots, gm_machine **out,
                       tg_error *err)
{
    if (nodes < 1 || slots < 1)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "need at least one node and one slot, got %d "
                            "nodes x %d slots",
                            nodes, slots);
    if ((long long)nodes * slots > GM_UNIFORM_SLOTS_MAX)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "%d nodes x %d slots is %lld slots, more than "
                            "the limit of %d",
                            nodes, slots, (long long)nodes * slots,
                            GM_UNIFORM_SLOTS_MAX);
    gm_machine *m = gm_machine_new();
    if (!m)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    for (int i = 0; i < nodes; i++) {
        char name[32];
        snprintf(name, sizeof name, "node%d", i);
        int rc = gm_machine_add_node(m, name, slots, err);
        if (rc < 0) {
            gm_machine_free(m);
            return rc;
        }
    }
    *out = m;
    return 0;
}

char *gm_text_line(tg_text *t)
{
    char *line;
    while ((line = tg_text_next(t, "#", 1))) {
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        if (!tg_lex_at_end(line))
            return line;
    }
    return NULL;
}

/* One hostfile line: "host [slots=S] [max_slots=M]"; *total counts the
 * file's slots so far. */
static int hostfile_line(gm_machine *m, const tg_text *t, char *line,
                         long long *total, tg_error *err)
{
    char *save;
    char *host = strtok_r(line, " \t", &save);
    long long slots = 1;
    for (char *tok; (tok = strtok_r(NULL, " \t", &save));) {
        int is_slots = strncmp(tok, "slots=", 6) == 0;
        if (!is_slots && strncmp(tok, "max_slots=", 10) != 0)
            return tg_error_set(err, TG_EPARSE, t->source, t->line,
                                "expected slots=N, got '%.40s'", tok);
        char *v = strchr(tok, '=') + 1, *end;
        long long x = strtoll(v, &end, 10);
        if (end == v || *end || x < 1 || x > INT32_MAX)
            return tg_error_set(err, TG_EPARSE, t->source, t->line,
                                "bad slot count '%.40s'", v);
        if (is_slots)
            slots = x;
    }
    /* A few bytes ("slots=2147483647") must not make a machine that
     * costs gigabytes to map onto. */
    if (*total + slots > GM_HOSTFILE_SLOTS_MAX)
        return tg_error_set(err, TG_EPARSE, t->source, t->line,
                            "slots=%lld takes the hostfile to %lld slots, "
                            "more than the limit of %d", slots,
                            *total + slots, GM_HOSTFILE_SLOTS_MAX);
    *total += slots;
    int node = gm_machine_find(m, host);
    if (node >= 0) { /* mpirun adds the slots of a repeated host */
        if ((long long)m->slots[node] + slots > INT32_MAX)
            return tg_error_set(err, TG_EOVERFLOW, t->source, t->line,
                                "too many slots on '%s'", host);
        m->slots[node] += (int)slots;
        return 0;
    }
    int rc = gm_machine_add_node(m, host, (int)slots, err);
    if (rc < 0 && err && !err->source[0]) {
        char msg[sizeof err->text];
        snprintf(msg, sizeof msg, "%s", err->text);
        tg_error_set(err, rc, t->source, t->line, "%s", msg);
    }
    return rc < 0 ? rc : 0;
}

int gm_machine_read_hostfile(const char *path, gm_machine **out,
                             tg_error *err)
{
    tg_text t;
    int rc = tg_text_load(&t, path, err);
    if (rc)
        return rc;
    gm_machine *m = gm_machine_new();
    if (!m)
        rc = tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    char *line;
    long long total = 0;
    while (!rc && (line = gm_text_line(&t)))
        rc = hostfile_line(m, &t, line, &total, err);
    if (!rc && m->n == 0)
        rc = tg_error_set(err, TG_EPARSE, path, 0, "no hosts");
    tg_text_free(&t);
    if (rc) {
        gm_machine_free(m);
        return rc;
    }
    *out = m;
    return 0;
}

int gm_machine_nodes(const gm_machine *m)
{
    return m->n;
}

int gm_machine_slots(const gm_machine *m, int node)
{
    return m->slots[node];
}

int64_t gm_machine_total_slots(const gm_machine *m)
{
    int64_t s = 0;
    for (int i = 0; i < m->n; i++)
        s += m->slots[i];
    return s;
}

const char *gm_machine_hostname(const gm_machine *m, int node)
{
    return m->host[node];
}

int gm_machine_find(const gm_machine *m, const char *host)
{
    return gm_strmap_get(&m->hosts, host);
}

int gm_machine_set_network(gm_machine *m, gm_network *net,
                           const char *positions, tg_error *err)
{
    gm_network *flat = calloc(1, sizeof *flat);
    if (!flat) {
        gm_network_free(net);
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    }
    clear_placement(m);
    gm_network_free(m->net);
    m->net = net;
    int rc = gm_place_nodes(m, positions, err);
    if (rc)
        to_flat(m, flat);
    else
        free(flat);
    return rc;
}

int gm_machine_set_network_spec(gm_machine *m, const char *spec,
                                const char *positions, tg_error *err)
{
    gm_network *net;
    int rc = gm_network_parse(spec, &net, err);
    return rc ? rc : gm_machine_set_network(m, net, positions, err);
}

const gm_network *gm_machine_network(const gm_machine *m)
{
    return m->net;
}

int gm_machine_position(const gm_machine *m, int node)
{
    return m->pos ? m->pos[node] : node;
}

const int *gm_machine_coords(const gm_machine *m, int node)
{
    return m->coord ? m->coord + (size_t)node * m->net->ndims : NULL;
}
