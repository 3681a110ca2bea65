/* fuzz_mapping.c: libFuzzer harness of the mapping readers: topomap's
 * mapping file (gm_mapping_read), Open MPI rankfiles (gm_rankfile_read,
 * with and without a node topology for SOCKET:CORE slots), Scotch .map
 * files (gm_scotch_map_read, by processor and by node) and parmapper
 * --check-rankfile (pm_rankfile_check, on two hosts as pm_discover would
 * find them).  The first byte picks the reader (its value mod 6) and
 * whether the task count is given (8) or taken from the file; the rest is
 * the file.  The machine: node0 .. node3, 4 slots each. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_file.h"
#include "greedymap.h"
#include "parmapper.h"

#define NODES 4
#define SLOTS 4
#define TASKS 8

/* The machine, made once (the readers only look at it): loading the node
 * topology at every input would cost more than the reading. */
static gm_machine *machine(int with_topology)
{
    static gm_machine *made[2];
    gm_machine *m = made[with_topology];
    if (m)
        return m;
    tg_error err;
    if (gm_machine_uniform(NODES, SLOTS, &m, &err) ||
        (with_topology &&
         gm_machine_set_node_topology(m, "pack:2 core:2 pu:1", &err)))
        fz_fail("the machine", &err);
    return made[with_topology] = m;
}

/* What a successful read returned: n places, each a slot of the machine,
 * none twice (the readers promise a checked mapping). */
static void check(const gm_machine *m, gm_place *map, int n, int ntasks)
{
    tg_error err;
    if ((ntasks >= 0 && n != ntasks) || gm_mapping_check(m, map, n, &err)) {
        fprintf(stderr, "fuzz_mapping: a mapping of %d tasks (%d asked) "
                "read that gm_mapping_check refuses\n", n, ntasks);
        abort();
    }
    free(map);
}

/* parmapper --check-rankfile on "node0.cluster" (2 sockets of 2 cores)
 * and "node1" (1 socket of 8 cores). */
static void check_rankfile(const char *path)
{
    pm_host h[2] = {{.name = "node0.cluster", .cores = 4, .packages = 2},
                    {.name = "node1", .cores = 8, .packages = 1}};
    pm_hosts hosts = {2, h};
    pm_rankfile_check(path, &hosts);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned k = data[0] % 6;
    int ntasks = (data[0] / 6) & 1 ? TASKS : -1;
    const char *path = fz_file("in.map", data + 1, size - 1);
    if (k == 5) {
        check_rankfile(path);
        return 0;
    }
    gm_machine *m = machine(k == 2);
    gm_place *map = NULL;
    int n = 0, rc;
    tg_error err;
    switch (k) {
    case 0:
        rc = gm_mapping_read(path, m, ntasks, &map, &n, &err);
        break;
    case 1:
    case 2:
        rc = gm_rankfile_read(path, m, ntasks, &map, &n, &err);
        break;
    default:
        rc = gm_scotch_map_read(path, m, ntasks, k == 4, &map, &n, &err);
        break;
    }
    if (!rc)
        check(m, map, n, ntasks);
    return 0;
}
