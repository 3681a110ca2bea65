/* fuzz_machine.c: libFuzzer harness of the machine descriptions: Open MPI
 * hostfiles, Slurm topology.conf (fattree:FILE), edge lists (graph:FILE),
 * positions files, Slurm hostlists, task-order files (order=file:PATH),
 * network specs and GreedyMap configurations.  The first byte picks the
 * reader (below), the rest is the file or text.  A network read is put
 * under a machine of as many nodes as it has hosts (at most 16), and the
 * distances and routes between them are taken. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_file.h"
#include "gm_internal.h"
#include "greedymap.h"

/* Nodes put on a fuzzed network: enough to walk its routes. */
#define MAX_NODES 16
/* Tasks of the order file. */
#define ORDER_TASKS 8

/* A machine of min(hosts of net, MAX_NODES) nodes on net (consumed);
 * positions may be NULL.  Every pair's distance must equal its route. */
static void place(gm_network *net, const char *positions, int nodes)
{
    tg_error err;
    int hosts = gm_network_positions(net);
    if (nodes <= 0)
        nodes = hosts < 1 ? 1 : hosts < MAX_NODES ? hosts : MAX_NODES;
    gm_machine *m = NULL;
    if (gm_machine_uniform(nodes, 2, &m, &err))
        fz_fail("gm_machine_uniform", &err);
    if (!gm_machine_set_network(m, net, positions, &err)) {
        int links[256];
        for (int a = 0; a < nodes; a++)
            for (int b = 0; b < nodes; b++) {
                int d = gm_distance(m, a, b);
                int len = gm_route(m, a, b, links, 256);
                if (d != len || d > gm_max_distance(m)) {
                    fprintf(stderr, "fuzz_machine: nodes %d and %d: distance "
                            "%d, route of %d links, max distance %d\n", a, b,
                            d, len, gm_max_distance(m));
                    abort();
                }
            }
    }
    gm_machine_free(m);
}

/* fattree:FILE or graph:FILE, with an optional positions file after a
 * NUL byte. */
static void network_file(const char *kind, const uint8_t *data, size_t size)
{
    const uint8_t *rest;
    size_t rest_size, n = fz_split(data, size, &rest, &rest_size);
    char spec[4200];
    snprintf(spec, sizeof spec, "%s:%s", kind, fz_file("net.conf", data, n));
    const char *positions =
        rest ? fz_file("positions", rest, rest_size) : NULL;
    gm_network *net = NULL;
    tg_error err;
    if (!gm_network_parse(spec, &net, &err))
        place(net, positions, 0);
}

static int count_name(void *arg, const char *name)
{
    (void)name;
    ++*(long long *)arg;
    return 0;
}

/* A hostlist: what gm_hostlist_count says is what expand makes. */
static void hostlist(const char *text)
{
    char why[512];
    long long made = 0;
    if (gm_hostlist_expand("Nodes", "hosts", text, count_name, &made, why,
                           sizeof why))
        return;
    long long counted = gm_hostlist_count(text, GM_HOSTLIST_MAX + 1LL);
    if (counted != made) {
        fprintf(stderr, "fuzz_machine: hostlist '%.200s': counted %lld, "
                "expanded %lld names\n", text, counted, made);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned k = data[0] % 8;
    data++;
    size--;
    tg_error err;
    /* the readers of text (not files) take a string */
    char *text = malloc(size + 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = 0;
    switch (k) {
    case 0: {
        gm_machine *m = NULL;
        if (!gm_machine_read_hostfile(fz_file("hostfile", data, size), &m,
                                      &err))
            gm_machine_free(m);
        break;
    }
    case 1:
        network_file("fattree", data, size);
        break;
    case 2:
        network_file("graph", data, size);
        break;
    case 3: {
        /* a positions file on a 4x4 torus of which the machine uses 6 */
        gm_network *net = NULL;
        if (gm_network_parse("torus:4x4", &net, &err))
            fz_fail("gm_network_parse", &err);
        place(net, fz_file("positions", data, size), 6);
        break;
    }
    case 4:
        hostlist(text);
        break;
    case 5: {
        int order[ORDER_TASKS];
        gm_order_file(fz_file("order", data, size), ORDER_TASKS, order, &err);
        break;
    }
    case 6:
        /* a network spec; the FILE kinds are cases 1 and 2 (a spec here
         * could name any file of the machine) */
        if (strncmp(text, "fattree:", 8) && strncmp(text, "graph:", 6)) {
            gm_network *net = NULL;
            if (!gm_network_parse(text, &net, &err))
                gm_network_free(net);
        }
        break;
    case 7: {
        gm_config c;
        if (!gm_config_parse(text, &c, &err)) {
            char buf[4096];
            gm_config back;
            gm_config_format(&c, buf, sizeof buf);
            if (strlen(buf) < sizeof buf - 1 &&
                gm_config_parse(buf, &back, &err))
                fz_fail("a configuration does not survive a round trip", &err);
        }
        break;
    }
    }
    free(text);
    return 0;
}
