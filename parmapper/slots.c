/* slots.c: the core behind every slot of the machine, checked against
 * the hosts' hwloc topologies before the search.
 *
 * Open MPI 4.1 reads "slot=N" in a rankfile as the logical core N of the
 * host (mpirun(1), "Rankfiles"; rmaps_rank_file_physical=1 would make it
 * a physical PU instead), and a slot the host does not have makes mpirun
 * exit without a word, so each one is checked here. */
#include <stdlib.h>
#include <string.h>

#include "parmapper.h"

/* The core and the first PU of slot s of node `name`, which has `slots`
 * slots; returns 0 or a TG_E* code with err. */
static int locate(const pm_options *o, const char *name, int node, int s,
                  int slots, const pm_hosts *hosts, int *core, int *pu,
                  tg_error *err)
{
    if (!o->offline) {
        /* Discovered: the nodes are the hosts, in order, each with its
         * usable cores x its tasks per slot. */
        const pm_host *h = &hosts->h[node];
        *core = h->core[s / h->tasks_per_slot];
        *pu = h->pu[*core];
        return 0;
    }
    const pm_host *h = pm_hosts_find(hosts, name);
    if (!h) {
        /* Not a host of this job: nothing to check against, slot s is
         * core s / --tasks-per-slot (parmapper --check-rankfile checks
         * the rankfile at launch). */
        *core = *pu = s / (o->tasks_per_slot ? o->tasks_per_slot : 1);
        return 0;
    }
    /* A host of this job: without --tasks-per-slot its slots share its
     * cores evenly, so every slot is a core it has. */
    int c = s / pm_per_core(o->tasks_per_slot, slots, h->cores);
    if (c >= h->cores)
        return tg_error_set(err, TG_EINVAL, NULL, 0,
                            "host %s has %d cores (hwloc), so its slot %d "
                            "(core %d) does not exist there",
                            name, h->cores, s, c);
    *core = c;
    *pu = h->pu[c];
    return 0;
}

int pm_slots_make(const pm_options *o, const gm_machine *m,
                  const pm_hosts *hosts, pm_slots *s)
{
    tg_error err;
    int n = gm_machine_nodes(m), rc = 0;
    s->n = n;
    s->core = calloc((size_t)n + 1, sizeof *s->core);
    s->cpu = calloc((size_t)n + 1, sizeof *s->cpu);
    if (!s->core || !s->cpu)
        rc = tg_error_set(&err, TG_ENOMEM, NULL, 0, "out of memory");
    for (int i = 0; i < n && !rc; i++) {
        int k = gm_machine_slots(m, i);
        s->core[i] = malloc((size_t)k * sizeof **s->core);
        s->cpu[i] = malloc((size_t)k * sizeof **s->cpu);
        if (!s->core[i] || !s->cpu[i]) {
            rc = tg_error_set(&err, TG_ENOMEM, NULL, 0, "out of memory");
            break;
        }
        for (int j = 0; j < k && !rc; j++)
            rc = locate(o, gm_machine_hostname(m, i), i, j, k, hosts,
                        &s->core[i][j], &s->cpu[i][j], &err);
    }
    return rc ? cli_fail(&err) : 0;
}

void pm_slots_free(pm_slots *s)
{
    for (int i = 0; s->core && i < s->n; i++)
        free(s->core[i]);
    for (int i = 0; s->cpu && i < s->n; i++)
        free(s->cpu[i]);
    free(s->core);
    free(s->cpu);
    memset(s, 0, sizeof *s);
}
