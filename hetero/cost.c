/* cost.c: the cost model.  A rank's time is its compute time for its
 * choice (problem.c) plus the time of every transfer it takes part in;
 * the objective is the slowest rank (makespan), then the sum (papers/003:
 * execution = work / rate, transfer = bytes / bandwidth + latency).
 *
 * A transfer of w bytes in m messages between ranks a and b:
 *   - host to host: one shared-memory copy on one node, the network
 *     between nodes;
 *   - MPI not CUDA-aware: each side whose buffers sit in device or managed
 *     memory first stages them through the host (a pageable copy), then
 *     host to host;
 *   - MPI CUDA-aware: between nodes the network (GPUDirect); on one node a
 *     pinned host-device copy, or a device copy when both sit on one GPU.
 */
#include <math.h>

#include "ht_internal.h"

static double path_host(const ht_problem *p, int same, double w, double m)
{
    if (same)
        return ht_seconds(w, p->par.shm_bandwidth) +
               m * p->par.shm_latency * 1e-9;
    return ht_seconds(w, p->par.net_bandwidth) + m * p->par.net_latency * 1e-9;
}

static double stage(const ht_gpu_rates *g, double w, double m)
{
    return ht_seconds(w, g->copy_pageable) + m * g->lat_pageable * 1e-9;
}

double ht_pair_time(const ht_problem *p, int same, int ca, int cb, double w,
                    double m)
{
    int da = p->on_device[ca], db = p->on_device[cb];
    const ht_choice *a = &p->choice[ca], *b = &p->choice[cb];
    if (!p->par.cuda_aware) {
        double t = path_host(p, same, w, m);
        if (da)
            t += stage(&p->rates[a->gpu], w, m);
        if (db)
            t += stage(&p->rates[b->gpu], w, m);
        return t;
    }
    if (!same || (!da && !db))
        return path_host(p, same, w, m);
    if (da && db && a->gpu == b->gpu)
        return ht_seconds(w, p->rates[a->gpu].device);
    const ht_gpu_rates *g = &p->rates[da ? a->gpu : b->gpu];
    double bw = g->copy_pinned, lat = g->lat_pinned;
    if (da && db) { /* two GPUs: the slower of the two */
        const ht_gpu_rates *h = &p->rates[b->gpu];
        bw = fmin(bw, h->copy_pinned);
        lat = fmax(lat, h->lat_pinned);
    }
    return ht_seconds(w, bw) + m * lat * 1e-9;
}

double ht_arc_time(const ht_problem *p, const int *choice, int r, int64_t e)
{
    int q = p->adj[e];
    return ht_pair_time(p, p->host[r] == p->host[q], choice[r], choice[q],
                        p->bytes[e], p->msgs[e]);
}

/* The sum of arcs [lo, lo + len) of rank r's (len a power of two; arcs
 * past the last count 0), halves added pairwise: the order of the search
 * state's tree (state.c), so that both give the same figure. */
static double pair_sum(const ht_problem *p, const int *choice, int r,
                       int64_t lo, int64_t len)
{
    int64_t end = p->xadj[r + 1];
    if (lo >= end)
        return 0;
    if (len == 1)
        return ht_arc_time(p, choice, r, lo);
    return pair_sum(p, choice, r, lo, len / 2) +
           pair_sum(p, choice, r, lo + len / 2, len / 2);
}

double ht_comm_time(const ht_problem *p, const int *choice, int r)
{
    int64_t deg = p->xadj[r + 1] - p->xadj[r];
    if (deg >= HT_COMM_TREE_MIN)
        return pair_sum(p, choice, r, p->xadj[r], ht_comm_leaves(deg));
    double t = 0;
    for (int64_t e = p->xadj[r]; e < p->xadj[r + 1]; e++)
        t += ht_arc_time(p, choice, r, e);
    return t;
}

void ht_rank_time(const ht_problem *p, const int *choice, int r,
                  double *compute, double *comm)
{
    *compute = p->comp[(size_t)r * (size_t)p->nchoices + (size_t)choice[r]];
    *comm = ht_comm_time(p, choice, r);
}

int ht_evaluate(const ht_problem *p, const int *choice, ht_cost *cost,
                tg_error *err)
{
    ht_load l;
    int rc = ht_load_init(&l, p, err);
    for (int r = 0; !rc && r < p->n; r++) {
        int c = choice[r];
        if (c < 0 || c >= p->nchoices || !ht_problem_allows(p, r, c))
            rc = tg_error_set(err, TG_EINVAL, NULL, 0,
                              "rank %d: choice %d is not one it has", r, c);
        else {
            ht_load_add(&l, p, r, c, 1);
            rc = ht_load_check(&l, p, r, c, err);
        }
    }
    ht_load_free(&l);
    if (rc)
        return rc;
    cost->makespan = cost->sum = 0;
    for (int r = 0; r < p->n; r++) {
        double comp, comm;
        ht_rank_time(p, choice, r, &comp, &comm);
        cost->makespan = fmax(cost->makespan, comp + comm);
        cost->sum += comp + comm;
    }
    return 0;
}

/* -1, 0, 1 for a < b, a ~ b, a > b to a relative 1e-12, so that sums taken
 * in different orders do not decide. */
static int compare(double a, double b)
{
    double tol = 1e-12 * fmax(fabs(a), fabs(b));
    return a < b - tol ? -1 : a > b + tol;
}

int ht_cost_compare(const ht_cost *a, const ht_cost *b)
{
    int c = compare(a->makespan, b->makespan);
    return c ? c : compare(a->sum, b->sum);
}
