/* bound.h: lower bounds on hop-bytes that no mapping goes below, for
 * bench/mapper's cases (issue 12 asks for 0.9x Scotch; where a bound is
 * above 0.9x Scotch, no mapper can reach it).  Each bound is exact
 * arithmetic on a relaxation: bench/README.md, "Lower bounds". */
#ifndef TOPOMAP_BENCH_BOUND_H
#define TOPOMAP_BENCH_BOUND_H

#include <stdint.h>

#include "taskgraph.h"

/* Graphs bound_partition takes (a dense matrix of the weights). */
#define BOUND_PARTITION_MAX 64

/* The least cut (the weights of the edges between parts, each edge once)
 * over the partitions of g's tasks into parts of exactly `size` tasks
 * (g->n a multiple of size, at most BOUND_PARTITION_MAX tasks), by branch
 * and bound.  When `limit` search nodes do not suffice, *exact is 0 and
 * *cut is the bound at the root, still a lower bound.  Returns 0, or
 * TG_EINVAL / TG_EOVERFLOW (weights too large to add up) with err set. */
int bound_partition(const tg_graph *g, int size, long limit, uint64_t *cut,
                    int *exact, tg_error *err);

/* The most edges k points of Z^3 have among them when every two points at
 * Chebyshev distance 1 are joined (the 27-point stencil), 1 <= k <= 40;
 * -1 outside that range.  Exact: every set can be made centred in each
 * axis without losing an edge, and the centred sets of k points are the
 * plane partitions of k, all enumerated (k = 32: 12.7 million, 0.6 s). */
long bound_king_edges(int k);

/* The least sum of hops over the pairs of a clique of c tasks (c >= 1)
 * placed at most `cap` to a node, on a network whose distinct nodes are at
 * least 1 hop apart and whose 1-hop pairs join two sides (bipartite: a
 * mesh, or a torus with even sides).  Pairs on different nodes cost at least
 * 2 hops each except the 1-hop ones, at most floor(c/2) ceil(c/2) of them. */
long bound_clique_hops(int c, int cap);

#endif
