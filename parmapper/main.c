/* main.c: parmapper, the parallel mapper (papers/001, 4.2): the steps of
 * parmapper.h in order, every failure agreed on by all ranks, which then
 * finalize MPI and exit with the same code. */
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parmapper.h"

/* pm_parse on every rank, printing on rank 0 only: every rank reads the
 * same arguments and comes to the same result. */
static int parse_quietly(int rank, int argc, char **argv, pm_options *o)
{
    if (rank == 0)
        return pm_parse(argc, argv, o);
    fflush(stdout);
    fflush(stderr);
    int out = dup(STDOUT_FILENO), err = dup(STDERR_FILENO);
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
        close(null);
    }
    int rc = pm_parse(argc, argv, o);
    fflush(stdout);
    fflush(stderr);
    if (out >= 0) {
        dup2(out, STDOUT_FILENO);
        close(out);
    }
    if (err >= 0) {
        dup2(err, STDERR_FILENO);
        close(err);
    }
    return rc;
}

/* Everything a run holds, freed in one place. */
typedef struct job {
    pm_options o;
    pm_hosts hosts;
    gm_machine *m;
    tg_graph *g;
    pm_slots slots;
    pm_binding bind;
    pm_outputs outs;
    gm_config *configs;
    int nconfigs;
    pm_search *search;
    pm_result result;
    pm_hetero het;
    double t0;
} job;

static void job_free(job *j)
{
    pm_outputs_abort(&j->outs);
    pm_result_free(&j->result);
    pm_hetero_free(&j->het);
    if (j->search && pm_search_abandoned(j->search))
        return; /* its thread still reads the machine, graph and configs */
    pm_search_free(j->search);
    free(j->configs);
    pm_binding_free(&j->bind);
    pm_slots_free(&j->slots);
    tg_graph_free(j->g);
    gm_machine_free(j->m);
    pm_hosts_free(&j->hosts);
}

/* The levels line: bytes per level and J, the default's J beside. */
static void print_levels(const gm_level_metrics *c, const gm_level_metrics *d)
{
    fputs("levels:", stdout);
    for (int i = 0; i < c->nlevels; i++)
        printf(" %s %" PRIu64 "%s", c->name[i], c->bytes[i],
               i + 1 < c->nlevels ? "," : ";");
    printf(" J %" PRIu64 " (default: J %" PRIu64 ")\n", c->comm_cost,
           d->comm_cost);
}

/* Rank 0, after the choice: every metric of the chosen and of the block
 * mapping, the outputs, and a summary line.  Returns the exit code. */
static int finish(job *j, int nranks)
{
    tg_error err;
    gm_metrics chosen, deflt;
    gm_level_metrics chosen_lv, deflt_lv;
    const pm_result *r = &j->result;
    gm_place *block = malloc(((size_t)j->g->n + 1) * sizeof *block);
    if (!block) {
        fputs("parmapper: out of memory\n", stderr);
        return 1;
    }
    /* Slots nothing tells apart in rank order: one map_cpu list then
     * fits wherever the nodes' cores do (binding.c). */
    int rc = gm_slots_task_order(j->m, r->map, j->g->n, &err);
    if (!rc)
        rc = gm_evaluate(j->g, j->m, r->map, 0, NULL, &chosen, &err);
    if (!rc)
        rc = gm_evaluate_levels(j->g, j->m, r->map, &chosen_lv, &err);
    if (!rc)
        rc = gm_baseline_map(j->g, j->m, GM_BASE_BLOCK, 0, block, &err);
    if (!rc)
        rc = gm_evaluate(j->g, j->m, block, 0, NULL, &deflt, &err);
    if (!rc)
        rc = gm_evaluate_levels(j->g, j->m, block, &deflt_lv, &err);
    free(block);
    if (rc)
        return cli_fail(&err);
    if (j->o.nhetero && (rc = pm_hetero_place(&j->het, &j->o, j->m, r->map)))
        return rc;
    if ((rc = pm_binding_make(&j->o, j->m, &j->slots, r->map, j->g->n,
                              &j->bind)))
        return rc;
    pm_report_input in = {&j->o,      j->g,        j->m,     &j->hosts,
                          j->configs, j->nconfigs, r,        &chosen,
                          &deflt,     &chosen_lv,  &deflt_lv, &j->bind,
                          j->o.nhetero ? &j->het : NULL,      0,
                          nranks};
    in.total_seconds = MPI_Wtime() - j->t0;
    if ((rc = pm_outputs_write(&j->outs, &in, &j->slots)))
        return rc;
    const pm_point *p = &r->front.p[r->chosen];
    gm_config c = j->configs[p->config];
    c.seed = p->seed;
    char text[256];
    int64_t runs = 0;
    for (int i = 0; i < r->nranks; i++)
        runs += r->runs[i];
    printf("chosen: %s: hop-bytes avg %.2f, max %" PRIu64
           " (default: avg %.2f, max %" PRIu64 "); %d on the front, %" PRId64
           " runs on %d ranks in %.2f s\n",
           gm_config_format(&c, text, sizeof text), chosen.hop_bytes_avg,
           chosen.hop_bytes_max, deflt.hop_bytes_avg, deflt.hop_bytes_max,
           r->front.n, runs, nranks, r->seconds);
    if (gm_machine_has_packages(j->m))
        print_levels(&chosen_lv, &deflt_lv);
    return 0;
}

/* In the job's own machine the mapping is for a job of this size: a rank
 * without a task would have no line in the rankfile, which mpirun then
 * refuses ("A rank is missing its location specification").  Returns the
 * exit code (after the message).  Offline, the ranks only share the
 * search. */
static int check_ranks(const pm_options *o, const tg_graph *g, int nranks)
{
    if (o->offline || g->n >= nranks)
        return 0;
    fprintf(stderr,
            "parmapper: %s has %d task%s but the job has %d ranks: the "
            "rankfile would give %d rank%s no place; run parmapper with as "
            "many ranks as the graph has tasks (mpirun -np %d)\n",
            o->a.pos[0], g->n, g->n == 1 ? "" : "s", nranks, nranks - g->n,
            nranks - g->n == 1 ? "" : "s", g->n);
    return 1;
}

static int run(MPI_Comm comm, int argc, char **argv, job *j)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    tg_error err;
    int rc = parse_quietly(rank, argc, argv, &j->o);
    if (rc)
        return rc < 0 ? 0 : rc;
    rc = pm_discover(comm, &j->hosts, &err) ? 1 : 0;
    if ((rc = pm_agree(comm, rc, &err)))
        return rc;
    if (j->o.check_rankfile) {
        if (rank == 0)
            rc = pm_rankfile_check(j->o.check_rankfile, &j->hosts);
        return pm_agree(comm, rc, NULL);
    }
    if (rank == 0)
        pm_hosts_tasks_per_slot(&j->hosts, j->o.tasks_per_slot);
    if ((rc = pm_share_machine(comm, &j->o, &j->hosts, &j->m)) ||
        (rc = pm_share_graph(comm, &j->o, j->m, &j->g)))
        return rc;
    if (rank == 0) {
        rc = check_ranks(&j->o, j->g, size);
        if (!rc)
            rc = pm_slots_make(&j->o, j->m, &j->hosts, &j->slots);
        if (!rc && j->o.nhetero)
            rc = pm_hetero_load(&j->o, j->g, &j->het);
        if (!rc)
            rc = pm_outputs_check(&j->o);
    }
    if ((rc = pm_agree(comm, rc, NULL)))
        return rc;
    rc = gm_portfolio(j->g, j->m, &j->configs, &j->nconfigs, &err) ? 1 : 0;
    if ((rc = pm_agree(comm, rc, &err)))
        return rc;
    pm_search_input in = {j->g,
                          j->m,
                          j->configs,
                          j->nconfigs,
                          j->o.a.seed,
                          j->o.time,
                          j->o.rounds,
                          j->o.select == PM_SELECT_MAXLOAD
                              ? 0u
                              : (unsigned)GM_METRICS_NO_LOAD,
                          j->o.quiet};
    rc = pm_search_run(comm, &in, &j->search, &err) ? 1 : 0;
    if ((rc = pm_agree(comm, rc, &err)) ||
        (rc = pm_choose(comm, &j->o, j->g, j->search, &j->result)))
        return rc;
    if (rank == 0)
        rc = finish(j, size);
    return pm_agree(comm, rc, NULL);
}

/* parmapper --check-options ARGS...: ARGS parsed as a run parses them
 * (pm_parse), for scripts that check a command line before they launch
 * it: no MPI, no signal thread, no file opened or written (pm_parse only
 * compares paths: tg_out_same).  Exit 0 when a run would take ARGS, 2
 * after the usage message when not. */
static int check_options(int argc, char **argv)
{
    pm_options o;
    int rc = pm_parse(argc, argv, &o);
    return rc < 0 ? 0 : rc; /* -1: --help among ARGS, printed */
}

int main(int argc, char **argv)
{
    cli_name = "parmapper";
    /* First, alone: before pm_signals_start and MPI_Init. */
    if (argc > 1 && !strcmp(argv[1], "--check-options"))
        return check_options(argc - 1, argv + 1);
    /* Before MPI_Init: its threads, as the search's, inherit the mask. */
    int no_catcher = pm_signals_start();
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    job j = {0};
    j.t0 = MPI_Wtime();
    int rc, rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    pm_signals_rank(rank);
    if (no_catcher && rank == 0)
        fputs("parmapper: warning: cannot keep SIGTERM, SIGINT and SIGHUP "
              "to one thread; such a signal during a METIS partition may "
              "crash parmapper\n",
              stderr);
    if (provided < MPI_THREAD_FUNNELED) {
        /* The search runs in a thread that makes no MPI call. */
        if (rank == 0)
            fputs("parmapper: the MPI library offers no thread support "
                  "(MPI_THREAD_FUNNELED)\n",
                  stderr);
        rc = 1;
    } else {
        rc = run(MPI_COMM_WORLD, argc, argv, &j);
    }
    /* Before MPI_Finalize, which no rank leaves before all have come. */
    if (rc)
        pm_signals_failing(rc);
    job_free(&j);
    MPI_Finalize();
    return rc;
}
