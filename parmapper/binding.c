/* binding.c: how srun and Hydra bind the ranks to the cores of the chosen
 * mapping.
 *
 * srun --distribution=arbitrary with SLURM_HOSTFILE puts rank t on line t's
 * node; --cpu-bind=map_cpu:LIST then binds the k-th task of EVERY node (its
 * SLURM_LOCALID, counted in rank order) to LIST's k-th CPU: one list for all
 * nodes (--cpu-bind=mask_cpu has the same form).  Hydra's -bind-to user:LIST
 * is one list too, but Hydra starts a proxy for each run of consecutive
 * lines of one host in its machinefile and counts k in each proxy (MPICH
 * 4.0 and 5.0: a node whose ranks are not consecutive has two proxies that
 * both start at LIST's first CPU).  Local ids follow from the ranks' nodes,
 * which the mapping fixes, so no renumbering inside a node keeps the
 * mapping: the list fits exactly when the k-th rank of every node (every
 * run, for Hydra; both, when both files are asked for) that has one is on
 * the same CPU.  When
 * it does not (the cores chosen, or the cores the job was given, differ
 * between nodes), parmapper binds each rank itself: a topomap-exec
 * placement (hetero/, "topomap-placement") gives every (host, local rank)
 * its CPU (topomap-exec finds a rank's entry by SLURM_LOCALID, or under
 * Hydra by PMI_RANK), and the launch line runs the application under
 * topomap-exec with the launcher's own binding off.  A map_cpu list that binds a rank to
 * another core than the mapping's is never written. */
#include <stdlib.h>
#include <string.h>

#include "parmapper.h"

char *pm_binding_path(const pm_options *o)
{
    const char *base = o->slurm_hostfile ? o->slurm_hostfile
                                         : o->hydra_hostfile;
    if (!base)
        return NULL;
    static const char suffix[] = ".placement.json";
    char *p = malloc(strlen(base) + sizeof suffix);
    if (p) {
        strcpy(p, base);
        strcat(p, suffix);
    }
    return p;
}

/* The placement of each rank on the CPU of its slot. */
static int make_placement(const gm_machine *m, const pm_slots *s,
                          const gm_place *map, const int *local, int n,
                          ht_placement **out)
{
    ht_placement *pl = ht_placement_new(n);
    if (!pl)
        return 1;
    for (int t = 0; t < n; t++) {
        ht_entry *e = &pl->entries[t];
        e->host = strdup(gm_machine_hostname(m, map[t].node));
        if (!e->host) {
            ht_placement_free(pl);
            return 1;
        }
        e->local_rank = local[t];
        e->rank = t;
        e->proc = HT_PROC_CPU;
        e->policy = HT_POLICY_NONE; /* memory left as it is */
        e->mem = HT_MEM_DRAM;
        hwloc_bitmap_only(e->cpus, (unsigned)s->cpu[map[t].node][map[t].slot]);
    }
    *out = pl;
    return 0;
}

/* The list of one numbering into list (*most CPUs): k counts a node's
 * ranks (per_run 0: Slurm) or the ranks of a run of consecutive ranks on
 * one node (per_run 1: Hydra's proxies); local[t] gets rank t's k when not
 * NULL.  Whether one list binds every rank to its mapping's CPU. */
static int one_list(const pm_slots *s, const gm_place *map, int n,
                    int per_run, int *count, int *local, int *list,
                    int *most)
{
    int fits = 1, k = 0;
    *most = 0;
    for (int t = 0; t < n; t++) {
        int node = map[t].node;
        if (!per_run)
            k = count[node]++;
        else
            k = t > 0 && map[t - 1].node == node ? k + 1 : 0;
        if (local)
            local[t] = k;
        int cpu = s->cpu[node][map[t].slot];
        if (k == *most)
            list[(*most)++] = cpu;
        else if (list[k] != cpu)
            fits = 0;
    }
    return fits;
}

int pm_binding_make(const pm_options *o, const gm_machine *m,
                    const pm_slots *s, const gm_place *map, int n,
                    pm_binding *b)
{
    memset(b, 0, sizeof *b);
    if (!o->slurm_hostfile && !o->hydra_hostfile)
        return 0;
    int nodes = gm_machine_nodes(m);
    int *count = calloc((size_t)nodes + 1, sizeof *count);
    int *local = malloc(((size_t)n + 1) * sizeof *local);
    int *list = malloc(((size_t)n + 1) * sizeof *list);
    int *runs = malloc(((size_t)n + 1) * sizeof *runs);
    int rc = !count || !local || !list || !runs, fits = 1, most = 0;
    if (!rc) {
        /* local[]: SLURM_LOCALID, the placement's local ranks either way */
        fits = one_list(s, map, n, 0, count, local, list, &most);
        if (o->hydra_hostfile) {
            int in_runs;
            int hydra = one_list(s, map, n, 1, NULL, NULL, runs, &in_runs);
            if (!o->slurm_hostfile) {
                fits = hydra;
                memcpy(list, runs, (size_t)in_runs * sizeof *list);
                most = in_runs;
            } else {
                fits = fits && hydra && in_runs == most &&
                       !memcmp(list, runs, (size_t)most * sizeof *list);
            }
        }
    }
    if (!rc && fits) {
        b->cpus = list;
        b->ncpus = most;
        list = NULL;
    } else if (!rc) {
        b->path = pm_binding_path(o);
        rc = !b->path || make_placement(m, s, map, local, n, &b->placement);
    }
    free(count);
    free(local);
    free(list);
    free(runs);
    if (rc) {
        pm_binding_free(b);
        fputs("parmapper: out of memory\n", stderr);
    }
    return rc;
}

void pm_binding_free(pm_binding *b)
{
    free(b->cpus);
    free(b->path);
    ht_placement_free(b->placement);
    memset(b, 0, sizeof *b);
}
