/* collmodel_auto.c: the allreduce and reduce_scatter algorithms that Open
 * MPI 4.1's coll/tuned component runs by default (its fixed decision
 * functions, coll_tuned_decision_fixed.c, for commutative operations), as
 * the model of `taskgraph build` closest to each:
 *
 *   allreduce       recursive doubling (3) -> recursive doubling;
 *                   ring (4), segmented ring (5) -> ring;
 *                   Rabenseifner (6) -> rabenseifner;
 *                   reduce then broadcast through rank 0 (nonoverlapping
 *                   2, basic linear 1) -> recursive doubling, whose
 *                   partners hold the edges of the binomial trees that
 *                   run them;
 *   reduce_scatter  ring (3) -> ring; recursive halving (2), butterfly
 *                   (4), reduce then scatterv (1) -> recursive doubling
 *                   (the recursive halving model).
 *
 * A table row holds, for communicators of fewer than `below` members,
 * the message sizes at which the choice changes and the choice below each
 * of them (the last for every larger size). */
#include <stddef.h>

#include "build_internal.h"

enum { R = TG_MODEL_RING, D = TG_MODEL_RECURSIVE_DOUBLING,
       B = TG_MODEL_RABENSEIFNER };

typedef struct row {
    int below;             /* communicator size bound (exclusive); 0: any */
    uint64_t upto[8];      /* ascending size bounds (exclusive), 0 ends */
    unsigned char pick[9]; /* the choice below upto[i]; after the last */
} row;

static const row allreduce_rows[] = {
    {4, {8, 4096, 8192, 16384, 65536, 262144}, {R, D, R, D, R, R, B}},
    {8, {16, 8192}, {R, D, B}},
    {16, {8192}, {D, B}},
    {32, {64, 4096}, {R, D, B}},
    {64, {128}, {R, B}},
    {128, {262144}, {D, B}},
    {256, {131072, 262144}, {D, D, B}},
    {512, {4096}, {D, B}},
    {2048, {2048, 16384}, {D, D, B}},
    {4096, {2048, 4096, 16384}, {D, R, D, B}},
    {0, {2048, 16384, 32768}, {D, R, D, B}},
};

static const row reduce_scatter_rows[] = {
    {4, {65536, 131072}, {R, D, R}},
    {8, {262144}, {D, R}},
    {32, {262144}, {D, R}},
    {64, {524288}, {D, R}},
    {0, {0}, {D}},
};

static tg_coll_model pick(const row *rows, int n, uint64_t bytes)
{
    const row *r = rows;
    while (r->below && n >= r->below)
        r++;
    int i = 0;
    while (i < 8 && r->upto[i] && bytes >= r->upto[i])
        i++;
    return (tg_coll_model)r->pick[i];
}

tg_coll_model tg_ompi_allreduce(int n, uint64_t bytes)
{
    return pick(allreduce_rows, n, bytes);
}

tg_coll_model tg_ompi_reduce_scatter(int n, uint64_t bytes)
{
    return pick(reduce_scatter_rows, n, bytes);
}
