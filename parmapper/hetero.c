/* hetero.c: parmapper --hetero.  GreedyMap has chosen each rank's node;
 * on rank 0, libhetero (hetero.h) then decides for the ranks of each node
 * CPU cores or a GPU and where their data lives (papers/000's search from
 * papers/002's GPU-first default), as topomap-place does on one node.
 * The inputs and the node are read before the search, so that a bad file
 * is reported before any time is spent. */
#include <stdlib.h>
#include <string.h>

#include "parmapper.h"

int pm_hetero_load(const pm_options *o, const tg_graph *g, pm_hetero *h)
{
    memset(h, 0, sizeof *h);
    tg_error err;
    if (ht_input_load(o->hetero, o->nhetero, &h->in, &err))
        return cli_fail(&err);
    if (h->in->n != g->n) {
        fprintf(stderr,
                "parmapper: --hetero: the input has %d ranks, but the graph "
                "has %d tasks\n",
                h->in->n, g->n);
        return 1;
    }
    if (ht_cli_node(&o->het, o->a.node_topology, &h->node, &err))
        return cli_fail(&err);
    return 0;
}

/* Rank t's host and local rank from the mapping. */
static int hosts_from_map(ht_input *in, const gm_machine *m,
                          const gm_place *map, tg_error *err)
{
    int *next = calloc((size_t)gm_machine_nodes(m) + 1, sizeof *next);
    if (!next)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    int rc = 0;
    for (int t = 0; t < in->n && !rc; t++) {
        ht_rank *r = &in->ranks[t];
        free(r->host);
        if (!(r->host = strdup(gm_machine_hostname(m, map[t].node))))
            rc = tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
        r->local_rank = next[map[t].node]++;
    }
    free(next);
    return rc;
}

/* The cost of a baseline placement into *cost; 0 when it does not fit. */
static int baseline(const ht_problem *p, int all_cpu, int *choice,
                    ht_cost *cost)
{
    tg_error ignored;
    int rc = all_cpu ? ht_all_cpu(p, choice, &ignored)
                     : ht_gpu_first(p, choice, &ignored);
    return !rc && !ht_evaluate(p, choice, cost, &ignored);
}

static const char *makespan_text(int have, const ht_cost *c, char *buf,
                                 size_t size)
{
    if (have)
        snprintf(buf, size, "%.6g s", c->makespan);
    else
        snprintf(buf, size, "does not fit");
    return buf;
}

int pm_hetero_place(pm_hetero *h, const pm_options *o, const gm_machine *m,
                    const gm_place *map)
{
    tg_error err;
    ht_problem *p = NULL;
    int *choice = malloc(((size_t)h->in->n + 1) * sizeof *choice);
    int rc = choice ? 0 : tg_error_set(&err, TG_ENOMEM, NULL, 0,
                                       "out of memory");
    if (!rc)
        rc = hosts_from_map(h->in, m, map, &err);
    if (!rc)
        rc = ht_problem_new(h->in, h->node, &o->het.par, &p, &err);
    if (!rc) {
        h->have_gpu_first = baseline(p, 0, choice, &h->gpu_first);
        h->have_all_cpu = baseline(p, 1, choice, &h->all_cpu);
        ht_search_stats st;
        double t0 = MPI_Wtime();
        rc = ht_search(p, choice, &h->chosen, &st, &err);
        h->seconds = MPI_Wtime() - t0;
        h->evaluations = st.evaluations;
    }
    if (!rc)
        rc = ht_place(p, choice, &h->pl, &err);
    for (int t = 0; !rc && t < h->in->n; t++)
        h->gpu_ranks += h->pl->entries[t].proc == HT_PROC_GPU;
    free(choice);
    ht_problem_free(p);
    if (rc)
        return cli_fail(&err);
    char gf[32], ac[32];
    printf("hetero: %d of %d ranks on GPUs; predicted makespan %.6g s, sum "
           "%.6g s (GPU-first %s, all-CPU %s)\n",
           h->gpu_ranks, h->in->n, h->chosen.makespan, h->chosen.sum,
           makespan_text(h->have_gpu_first, &h->gpu_first, gf, sizeof gf),
           makespan_text(h->have_all_cpu, &h->all_cpu, ac, sizeof ac));
    return 0;
}

void pm_hetero_free(pm_hetero *h)
{
    ht_placement_free(h->pl);
    ht_node_free(h->node);
    ht_input_free(h->in);
    memset(h, 0, sizeof *h);
}
