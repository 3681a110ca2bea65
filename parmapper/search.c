/* search.c: the portfolio on every rank until the time limit (papers/001,
 * 4.2 and 4.5).
 *
 * Jobs.  The runs of the whole job form one sequence, and rank r of K
 * runs jobs r, r + K, r + 2K, ...  Jobs 0 to C - 1 are round 0: job j
 * runs the j-th of the C configurations.  Later jobs run only the F
 * configurations of the focus: job C + i runs the (i mod F)-th of them in
 * round 1 + i div F.  The focus is what round 0 found worth more seeds:
 * the configurations whose round-0 point no other beats by more than
 * FOCUS_MARGIN in both average and maximum (pm_focus), less those whose
 * mapping does not depend on the seed (block, decompose), which would
 * only repeat themselves; when that leaves none (such a mapping won by
 * more than the margin, as decompose on a grid), every configuration that
 * takes a seed.  Where seeds matter, many seeds of the good
 * configurations are worth more than a few of all: on a random geometric
 * graph, 2 rounds of everything (10 s) ended 2.7 % above 12 rounds
 * (60 s).  A rank that reaches job C before every rank has finished round
 * 0 waits for the focus, which the main threads agree on at a tick
 * (agree_focus).
 *
 * The configurations go cheapest first (by_cost), so that a short time
 * limit still sees many of them: a GPART or GPARTRB order costs METIS
 * partitions, which cannot be interrupted, Delta = all nodes costs N
 * candidates per task, and a refinement (refine=1) costs several passes
 * over all tasks.  Round 0 uses the seed of --seed (0: ties broken
 * without randomness, which keeps regular structure); round r > 0 of
 * configuration c gets the first output of tg_rng seeded with
 * S xor (c << 32 | r), or 1 if that is 0.  A run depends only on its
 * configuration and seed, and the focus only on round 0's runs, so
 * --rounds R (rounds 0 to R - 1; --first is R = 1) that end before the
 * time limit give the same runs, and the same front, for any K and any
 * machine speed.
 *
 * Threads.  A worker thread does the runs; the main thread keeps time.
 * Every TICK seconds (and at once when its worker is done) the main
 * threads of all ranks meet in nonblocking reductions, polled with short
 * sleeps so that no core spins: whether some rank reached the time limit,
 * whether some rank's worker is still busy, whether one failed, whether
 * one is still in round 0 (else the focus is agreed on), the runs so far,
 * and the best average and maximum so far (for the progress line, which
 * rank 0 prints unless --quiet: progress()).  All ranks see the same
 * reduced values and so stop at the same
 * reduction: when the limit is reached, when every worker is done
 * (--rounds), or after a failure.  The main thread then asks its worker to
 * stop; a GreedyMap run sees that before its next task
 * (gm_greedymap_run), so the search ends within a tick's reductions of
 * the limit.  The steps that cannot be interrupted are the task lists
 * (GPART's METIS partition above all) and gm_evaluate; a worker still in
 * one GRACE seconds after the stop is left behind: its run is dropped,
 * it runs on until the process exits, and the search keeps the graph and
 * the machine alive for it.  The last tick falls on the limit, so the
 * search ends within GRACE seconds and one reduction of it, whatever the
 * graph.
 *
 * Results.  The worker adds each finished run to this rank's front
 * (pareto.h) and keeps the mapping of every point on it, numbered by
 * `id`; the mappings of points that leave the front are freed. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "parmapper.h"

#define TICK 0.25
#define GRACE 0.5
/* A configuration leaves the focus when another's round-0 point is more
 * than this below it in both average and maximum: 5 %, the band of the
 * alpha rule's default 1.05. */
#define FOCUS_MARGIN 0.05

struct pm_search {
    pm_search_input in;
    int rank, size;
    int *by_cost; /* configuration indexes, cheapest first */
    /* Task lists, computed on first use; those that depend on the seed
     * (GPART's and GPARTRB's, through METIS) are for seed_of[kind]. */
    int *order[GM_ORDER_FILE + 1];
    int have[GM_ORDER_FILE + 1];
    uint64_t seed_of[GM_ORDER_FILE + 1];
    gm_place *spare; /* where the next run writes */
    atomic_int stop;
    /* Shared by the two threads, under lock. */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    pm_front front;
    gm_place **maps; /* by point id; NULL when free */
    int nmaps;
    int64_t runs, stopped;
    int finished;    /* the worker returned */
    int closed;      /* the results are final: the worker adds nothing */
    int64_t final_runs, final_stopped; /* the counts when closed */
    /* Round 0's point of each configuration, total[c] then max[c]: r0
     * of the runs of this rank (UINT64_MAX for the others), r0_all of all
     * ranks (the MIN of their r0); whether the worker is past round 0. */
    uint64_t *r0, *r0_all;
    int r0_done;
    int *focus; /* configuration indexes, cheapest first */
    int nfocus; /* 0 until the ranks agreed on the focus */
    int rc;          /* the worker's failure, with err */
    tg_error err;
    /* The main thread's. */
    pthread_t thread;
    int started, abandoned;
    int complete; /* every worker had run all its jobs */
    double t0, seconds;
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

uint64_t pm_seed(uint64_t seed, int config, int round)
{
    if (round == 0)
        return seed;
    tg_rng r;
    tg_rng_seed(&r, seed ^ ((uint64_t)config << 32 | (uint32_t)round));
    uint64_t x = tg_rng_next(&r);
    return x ? x : 1;
}

static int stop_requested(void *arg)
{
    pm_search *s = arg;
    return atomic_load_explicit(&s->stop, memory_order_relaxed);
}

/* The task list of c, computed once per kind (GPART, GPARTRB: per
 * seed). */
static int order_for(pm_search *s, const gm_config *c, const int **out,
                     tg_error *err)
{
    const tg_graph *g = s->in.g;
    gm_order k = c->order;
    int **o = &s->order[k];
    int seeded = k == GM_ORDER_GPART || k == GM_ORDER_GPARTRB;
    int fresh = !s->have[k] || (seeded && s->seed_of[k] != c->seed);
    if (!*o && !(*o = malloc(((size_t)g->n + 1) * sizeof **o)))
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    if (fresh) {
        s->have[k] = 0;
        int rc = gm_task_order(g, s->in.m, c, *o, err);
        if (rc)
            return rc;
        s->have[k] = 1;
        s->seed_of[k] = c->seed;
    }
    *out = *o;
    return 0;
}

/* Under lock: put p (whose mapping is s->spare) on the front, keeping its
 * mapping, and free the mappings of the points it pushes out. */
static int keep(pm_search *s, pm_point *p, tg_error *err)
{
    int id = 0;
    while (id < s->nmaps && s->maps[id])
        id++;
    if (id == s->nmaps) {
        gm_place **m = realloc(s->maps, ((size_t)id + 1) * sizeof *m);
        if (!m)
            return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
        s->maps = m;
        s->maps[s->nmaps++] = NULL;
    }
    p->id = id;
    int added = pm_front_add(&s->front, p);
    if (added < 0)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    if (!added)
        return 0;
    s->maps[id] = s->spare;
    s->spare = NULL;
    for (int i = 0; i < s->front.nremoved; i++) {
        int gone = s->front.removed[i].id;
        if (!s->spare)
            s->spare = s->maps[gone];
        else
            free(s->maps[gone]);
        s->maps[gone] = NULL;
    }
    if (!s->spare &&
        !(s->spare = malloc(((size_t)s->in.g->n + 1) * sizeof *s->spare)))
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    return 0;
}

/* One job; returns 0, 1 when it was stopped or the results were closed,
 * or a TG_E* code. */
static int run_job(pm_search *s, int config, int round, tg_error *err)
{
    const pm_search_input *in = &s->in;
    gm_config c = in->configs[config];
    c.seed = pm_seed(in->seed, config, round);
    const int *order = NULL;
    int rc = order_for(s, &c, &order, err);
    if (!rc)
        rc = gm_greedymap_run(in->g, in->m, &c, order, stop_requested, s,
                              s->spare, err);
    if (rc == 1) {
        pthread_mutex_lock(&s->lock);
        s->stopped++;
        pthread_mutex_unlock(&s->lock);
        return 1;
    }
    gm_metrics r;
    gm_level_metrics lm;
    if (!rc)
        rc = gm_evaluate(in->g, in->m, s->spare, in->eval_flags, NULL, &r,
                         err);
    if (!rc) /* J breaks ties of hop-bytes (pareto.h) */
        rc = gm_evaluate_levels(in->g, in->m, s->spare, &lm, err);
    if (rc)
        return rc;
    pm_point p = {r.hop_bytes_total, r.hop_bytes_max,
                  (in->eval_flags & GM_METRICS_NO_LOAD)
                      ? 0
                      : r.load_max_heuristic,
                  config, round, c.seed, s->rank, -1, lm.comm_cost};
    pthread_mutex_lock(&s->lock);
    if (s->closed) {
        pthread_mutex_unlock(&s->lock);
        return 1;
    }
    rc = keep(s, &p, err);
    s->runs++;
    if (round == 0) {
        s->r0[config] = p.total;
        s->r0[s->in.nconfigs + config] = p.max;
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

/* s->by_cost: the portfolio's indexes, cheapest first (pm_cost_order). */
static int sort_by_cost(pm_search *s)
{
    const int nc = s->in.nconfigs;
    if (!(s->by_cost = malloc(((size_t)nc + 1) * sizeof *s->by_cost)))
        return -1;
    pm_cost_order(s->in.configs, nc, s->by_cost);
    return 0;
}

/* The worker past round 0: say so, and wait for the focus (or a stop).
 * Returns the focus's size, 0 on a stop. */
static int await_focus(pm_search *s)
{
    pthread_mutex_lock(&s->lock);
    s->r0_done = 1;
    pthread_cond_broadcast(&s->cond);
    while (!s->nfocus && !stop_requested(s))
        pthread_cond_wait(&s->cond, &s->lock);
    int n = stop_requested(s) ? 0 : s->nfocus;
    pthread_mutex_unlock(&s->lock);
    return n;
}

static void *worker(void *arg)
{
    pm_search *s = arg;
    const int nc = s->in.nconfigs;
    const int64_t rounds = s->in.rounds ? s->in.rounds : (int64_t)INT32_MAX + 1;
    tg_error err;
    int rc = 0, nf = 0;
    for (int64_t j = s->rank; !rc && !stop_requested(s); j += s->size) {
        if (j < nc) {
            rc = run_job(s, s->by_cost[j], 0, &err);
            continue;
        }
        if (rounds == 1 || (!nf && !(nf = await_focus(s))))
            break;
        int64_t round = 1 + (j - nc) / nf;
        if (round >= rounds)
            break;
        rc = run_job(s, s->focus[(j - nc) % nf], (int)round, &err);
    }
    pthread_mutex_lock(&s->lock);
    if (rc < 0) {
        s->rc = rc;
        s->err = err;
    }
    s->r0_done = 1;
    s->finished = 1;
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

/* ---------------------------------------------------------- main thread */

/* Wait on s->cond until the worker is done or the clock reads `until`. */
static void wait_worker(pm_search *s, double until)
{
    while (!s->finished && now() < until) {
        double t = until;
        struct timespec ts = {(time_t)t, (long)((t - (double)(time_t)t) *
                                                1e9)};
        pthread_cond_timedwait(&s->cond, &s->lock, &ts);
    }
}

/* s->focus and s->nfocus from every configuration's round-0 point (the
 * top of this file).  Under lock. */
static void make_focus(pm_search *s, const uint64_t *total,
                       const uint64_t *max)
{
    const gm_config *cf = s->in.configs;
    int n = pm_focus(total, max, s->by_cost, s->in.nconfigs, FOCUS_MARGIN,
                     s->focus);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (gm_config_seeded(&cf[s->focus[i]]))
            s->focus[k++] = s->focus[i];
    if (!k) /* a mapping that takes no seed won by more than the margin */
        for (int i = 0; i < s->in.nconfigs; i++)
            if (gm_config_seeded(&cf[s->by_cost[i]]))
                s->focus[k++] = s->by_cost[i];
    /* (No configuration takes a seed: the focus as pm_focus found it.) */
    s->nfocus = k ? k : n;
}

/* MPI_Waitall without spinning: test, then sleep a millisecond. */
static void wait_quietly(MPI_Request *req, int n)
{
    int done = 0;
    const struct timespec ms = {0, 1000000};
    for (;;) {
        MPI_Testall(n, req, &done, MPI_STATUSES_IGNORE);
        if (done)
            return;
        nanosleep(&ms, NULL);
    }
}

/* Rank 0's progress line: on a terminal one line rewritten (\r) every
 * second, elsewhere (a file, a pipe, mpirun's forwarding) a line every
 * PERIOD seconds. */
#define PERIOD 3.0
static void progress(const pm_search *s, int tty, double el, int64_t runs,
                     const uint64_t *best)
{
    char line[256];
    int k = snprintf(line, sizeof line, "parmapper: %.0f s, %lld runs", el,
                     (long long)runs);
    if (best[0] == UINT64_MAX)
        k += snprintf(line + k, sizeof line - (size_t)k,
                      ", none finished yet");
    else
        k += snprintf(line + k, sizeof line - (size_t)k,
                      ", best avg %.1f, best max %llu",
                      (double)best[0] / (s->in.g->n ? s->in.g->n : 1),
                      (unsigned long long)best[1]);
    if (s->in.time > 0)
        snprintf(line + k, sizeof line - (size_t)k, ", %.0f s left",
                 el < s->in.time ? s->in.time - el : 0.0);
    if (tty)
        fprintf(stderr, "\r%s   ", line);
    else
        fprintf(stderr, "%s\n", line);
    fflush(stderr);
}

/* Every rank past round 0, so no worker writes r0 any more: the ranks'
 * round-0 points met, the focus made and the worker woken.  Returns 0 when
 * there is none (no configuration finished round 0), which every rank
 * sees. */
static int agree_focus(MPI_Comm comm, pm_search *s)
{
    const int nc = s->in.nconfigs;
    MPI_Request req;
    MPI_Iallreduce(s->r0, s->r0_all, 2 * nc, MPI_UINT64_T, MPI_MIN, comm,
                   &req);
    wait_quietly(&req, 1);
    pthread_mutex_lock(&s->lock);
    make_focus(s, s->r0_all, s->r0_all + nc);
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
    return s->nfocus > 0;
}

/* The ticks, until every rank agrees to stop. */
static void keep_time(MPI_Comm comm, pm_search *s)
{
    const int show = s->rank == 0 && !s->in.quiet;
    const int tty = show && isatty(STDERR_FILENO);
    const double period = tty ? 1 : PERIOD;
    const double limit = s->in.time;
    double shown_at = 0;
    int shown = 0;
    for (;;) {
        double el = now() - s->t0;
        double wake = s->t0 + ((double)(int64_t)(el / TICK) + 1) * TICK;
        if (limit > 0 && wake > s->t0 + limit)
            wake = s->t0 + limit;
        pthread_mutex_lock(&s->lock);
        wait_worker(s, wake);
        int local[4] = {0, !s->finished, s->rc != 0, !s->r0_done};
        int64_t runs = s->runs;
        uint64_t best[2] = {UINT64_MAX, UINT64_MAX};
        if (s->front.n) {
            best[0] = s->front.p[0].total;
            best[1] = s->front.p[s->front.n - 1].max;
        }
        pthread_mutex_unlock(&s->lock);
        el = now() - s->t0;
        local[0] = limit > 0 && el >= limit;
        int all[4];
        int64_t all_runs;
        uint64_t all_best[2];
        MPI_Request req[3];
        MPI_Iallreduce(local, all, 4, MPI_INT, MPI_MAX, comm, &req[0]);
        MPI_Iallreduce(&runs, &all_runs, 1, MPI_INT64_T, MPI_SUM, comm,
                       &req[1]);
        MPI_Iallreduce(best, all_best, 2, MPI_UINT64_T, MPI_MIN, comm,
                       &req[2]);
        wait_quietly(req, 3);
        if (show && el - shown_at >= period) {
            progress(s, tty, el, all_runs, all_best);
            shown = tty;
            shown_at = el;
        }
        if (all[0] || !all[1] || all[2]) {
            s->complete = !all[1] && !all[2];
            break;
        }
        if (!all[3] && !s->nfocus && !agree_focus(comm, s))
            break;
    }
    if (shown)
        fputc('\n', stderr);
}

static void search_free(pm_search *s)
{
    for (int i = 0; i <= GM_ORDER_FILE; i++)
        free(s->order[i]);
    for (int i = 0; i < s->nmaps; i++)
        free(s->maps[i]);
    free(s->maps);
    free(s->spare);
    free(s->by_cost);
    free(s->r0);
    free(s->focus);
    pm_front_free(&s->front);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->cond);
    free(s);
}

int pm_search_run(MPI_Comm comm, const pm_search_input *in, pm_search **out,
                  tg_error *err)
{
    pm_search *s = calloc(1, sizeof *s);
    if (!s)
        return tg_error_set(err, TG_ENOMEM, NULL, 0, "out of memory");
    s->in = *in;
    MPI_Comm_rank(comm, &s->rank);
    MPI_Comm_size(comm, &s->size);
    pm_front_init(&s->front);
    atomic_init(&s->stop, 0);
    pthread_mutex_init(&s->lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&s->cond, &ca);
    pthread_condattr_destroy(&ca);
    *out = s;
    s->spare = malloc(((size_t)in->g->n + 1) * sizeof *s->spare);
    s->r0 = malloc(4 * ((size_t)in->nconfigs + 1) * sizeof *s->r0);
    s->focus = malloc(((size_t)in->nconfigs + 1) * sizeof *s->focus);
    for (int c = 0; s->r0 && c < 2 * in->nconfigs; c++)
        s->r0[c] = UINT64_MAX;
    if (s->r0)
        s->r0_all = s->r0 + 2 * in->nconfigs;
    if (!s->spare || !s->r0 || !s->focus || sort_by_cost(s)) {
        s->rc = tg_error_set(&s->err, TG_ENOMEM, NULL, 0, "out of memory");
        s->finished = 1;
    }
    MPI_Barrier(comm);
    s->t0 = now();
    if (!s->rc && pthread_create(&s->thread, NULL, worker, s) == 0)
        s->started = 1;
    else if (!s->rc)
        s->rc = tg_error_set(&s->err, TG_ENOMEM, NULL, 0,
                             "cannot start a thread");
    if (!s->started)
        s->finished = 1;
    keep_time(comm, s);
    atomic_store(&s->stop, 1);
    pthread_mutex_lock(&s->lock);
    pthread_cond_broadcast(&s->cond); /* a worker waiting for the focus */
    wait_worker(s, now() + GRACE);
    int done = s->finished;
    s->closed = 1;
    /* A worker left behind is in a run that will not count. */
    s->final_runs = s->runs;
    s->final_stopped = s->stopped + (s->started && !done);
    /* Read under the lock: an abandoned worker may still fail and write
     * them. */
    int rc = s->rc;
    if (rc)
        *err = s->err;
    pthread_mutex_unlock(&s->lock);
    if (s->started && done)
        pthread_join(s->thread, NULL);
    else if (s->started) {
        pthread_detach(s->thread);
        s->abandoned = 1;
    }
    s->seconds = now() - s->t0;
    return rc;
}

const pm_front *pm_search_front(const pm_search *s)
{
    return &s->front;
}

const gm_place *pm_search_mapping(const pm_search *s, int id)
{
    return s->maps[id];
}

void pm_search_counts(const pm_search *s, int64_t *runs, int64_t *stopped)
{
    *runs = s->final_runs;
    *stopped = s->final_stopped;
}

int pm_search_complete(const pm_search *s)
{
    return s->complete;
}

int pm_search_focus(const pm_search *s, const int **configs)
{
    *configs = s->focus;
    return s->nfocus;
}

double pm_search_seconds(const pm_search *s)
{
    return s->seconds;
}

int pm_search_abandoned(const pm_search *s)
{
    return s->abandoned;
}

void pm_search_free(pm_search *s)
{
    if (s && !s->abandoned)
        search_free(s);
}
