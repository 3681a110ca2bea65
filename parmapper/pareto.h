/* pareto.h: the Pareto front of (average, maximum) hop-bytes that every
 * parmapper rank keeps, and the choice of one point (papers/001, 4.2).
 * No MPI here: tests/test_parmapper.c checks it on hand-written fronts.
 *
 * A point stands for one GreedyMap run.  Averages are compared through
 * hop_bytes_total (= average x tasks, an exact integer; the task count is
 * the same for every point).  Point a dominates point b when a is no
 * worse in both metrics and better in one, or equal in both with a
 * smaller communication cost J (bytes x level distance, gm_evaluate_levels:
 * of mappings with the same hop-bytes, the one whose ranks cross fewer
 * packages, NUMA nodes and caches), or equal in that too with a smaller
 * key (config, seed, round).  That makes domination a strict
 * order, so of several runs with equal metrics exactly one stays on the
 * front, the one with the smallest key, and the front of the union of
 * the ranks' fronts is the front of all runs, whatever the ranks.
 *
 * Choice (pm_select):
 *   alpha    papers/001, 4.2: h0 = the smallest average on the front;
 *            among the points whose average is <= alpha x h0, the
 *            smallest maximum.  (The paper writes "<"; with "<=" alpha = 1
 *            picks the point of smallest average instead of nothing.)
 *            The comparison is total <= alpha x total0 in long double.
 *   avg      the smallest average.
 *   max      the smallest maximum.
 *   maxload  the smallest heuristic max link load (papers/001, 5.1).
 * Ties: the smaller average, then the smaller maximum, then the smaller
 * J, then the smaller key (config index, then seed, then round). */
#ifndef TOPOMAP_PARMAPPER_PARETO_H
#define TOPOMAP_PARMAPPER_PARETO_H

#include <stdint.h>

#include "greedymap.h"

typedef struct pm_point {
    uint64_t total; /* hop_bytes_total: the average x tasks */
    uint64_t max;   /* hop_bytes_max */
    uint64_t load;  /* load_max_heuristic (0 unless it was computed) */
    int config;     /* index in the portfolio */
    int round;      /* how many times this configuration ran before */
    uint64_t seed;
    int rank;       /* the rank that holds its mapping */
    int id;         /* the mapping's number on that rank */
    uint64_t cost;  /* J (gm_level_metrics.comm_cost) */
} pm_point;

typedef enum pm_criterion {
    PM_SELECT_ALPHA = 0,
    PM_SELECT_AVG,
    PM_SELECT_MAX,
    PM_SELECT_MAXLOAD
} pm_criterion;

/* "alpha", "avg", "max" or "maxload"; -1 for another name. */
int pm_criterion_parse(const char *name);
const char *pm_criterion_name(pm_criterion c);

/* 1 when a dominates b (above). */
int pm_dominates(const pm_point *a, const pm_point *b);

/* A front, sorted by increasing total (so by decreasing max). */
typedef struct pm_front {
    pm_point *p;
    int n, cap;
    pm_point *removed; /* the points the last pm_front_add pushed out */
    int nremoved, cap_removed;
} pm_front;

void pm_front_init(pm_front *f);
void pm_front_free(pm_front *f);
/* Add p unless a point of the front dominates it; the points p dominates
 * leave the front and are listed in f->removed.  Returns 1 when p was
 * added, 0 when it was not, -1 when out of memory (f unchanged). */
int pm_front_add(pm_front *f, const pm_point *p);

/* The index of the chosen point among pts[0 .. n) (any set of points,
 * normally a front), or -1 when n is 0. */
int pm_select(const pm_point *pts, int n, pm_criterion c, double alpha);

/* The order of round 0 of parmapper's search (search.c), cheapest first:
 * indexes 0 .. n-1 of configs into order, by class (the unrefined
 * baselines block and decompose, then rb and drb; then GreedyMap's; a
 * refinement after Algorithm 1 costing most, then Delta = all nodes, then
 * an order made with METIS; refined baselines with the refined), in
 * portfolio order within a class. */
void pm_cost_order(const gm_config *configs, int n, int *order);

/* The focus of parmapper's search (search.c): of n configurations, whose
 * first runs gave total[c] and max[c] (UINT64_MAX: none finished), those
 * that no other beats by more than `margin` in both: c stays unless some
 * d has (1 + margin) total[d] < total[c] and (1 + margin) max[d] <
 * max[c] (in long double).  Written to out in the order of order[0 ..
 * n); returns how many (at least 1 when one finished). */
int pm_focus(const uint64_t *total, const uint64_t *max, const int *order,
             int n, double margin, int *out);

#endif
