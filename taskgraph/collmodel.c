/* collmodel.c: the collective models of `taskgraph build`: what one
 * member's record of a collective sends to each other member (see
 * build_internal.h for each model and taskgraph(1) for why). */
#include "build_internal.h"

/* Append a send of `bytes` to `peer` unless it is empty or to oneself. */
static int put(tg_send *out, int k, const tg_coll_in *in, int peer,
               double bytes)
{
    if (bytes <= 0 || peer == in->me)
        return k;
    out[k] = (tg_send){peer, bytes};
    return k + 1;
}

/* Largest power of two <= n (n >= 1). */
static int pow2_floor(int n)
{
    int p = 1;
    while (p <= n / 2)
        p *= 2;
    return p;
}

/* ------------------------------------------- what the record says itself */

int tg_model_recorded(const tg_coll_in *in, tg_send *out)
{
    int k = 0;
    for (int i = 0; i < in->npeers; i++)
        k = put(out, k, in, in->peers[i].index, (double)in->peers[i].bytes);
    return k;
}

int tg_model_alltoall(const tg_coll_in *in, tg_send *out)
{
    int k = 0;
    for (int j = 0; j < in->n; j++)
        k = put(out, k, in, j, in->bytes / in->n);
    return k;
}

int tg_model_allgather(const tg_coll_in *in, tg_send *out)
{
    int k = 0;
    for (int j = 0; j < in->n; j++)
        k = put(out, k, in, j, in->bytes);
    return k;
}

/* ------------------------------------------------------------- allreduce */

int tg_model_allreduce_ring(const tg_coll_in *in, tg_send *out)
{
    int n = in->n;
    if (n < 2)
        return 0;
    return put(out, 0, in, (in->me + 1) % n,
               2.0 * (n - 1) / n * in->bytes);
}

/* The fold to a power of two shared by recursive doubling and recursive
 * halving (Open MPI: the odd member of each of the first x pairs stays,
 * renumbered me/2; members from 2x on become me - x).  Returns the new
 * number of the member, or -1 for an even member of a pair. */
static int fold_odd(int me, int x)
{
    if (me < 2 * x)
        return me % 2 ? me / 2 : -1;
    return me - x;
}

/* World index of new number v in fold_odd's renumbering. */
static int unfold_odd(int v, int x)
{
    return v < x ? 2 * v + 1 : v + x;
}

int tg_model_allreduce_recdoubling(const tg_coll_in *in, tg_send *out)
{
    int n = in->n, me = in->me, p = pow2_floor(n), x = n - p, k = 0;
    double v = in->bytes;
    if (n < 2)
        return 0;
    int nr = fold_odd(me, x);
    if (me < 2 * x) /* the even member sends first, the odd one last */
        k = put(out, k, in, me % 2 ? me - 1 : me + 1, v);
    for (int d = 1; nr >= 0 && d < p; d *= 2)
        k = put(out, k, in, unfold_odd(nr ^ d, x), v);
    return k;
}

int tg_model_allreduce_rabenseifner(const tg_coll_in *in, tg_send *out)
{
    int n = in->n, me = in->me, p = pow2_floor(n), x = n - p, k = 0;
    double v = in->bytes;
    if (n < 2)
        return 0;
    int vr = -1; /* here the even member of a pair stays, renumbered me/2 */
    if (me < 2 * x) {
        if (me % 2) /* its left half, then the reduced right half */
            k = put(out, k, in, me - 1, v);
        else {      /* its right half, then the whole result */
            k = put(out, k, in, me + 1, 1.5 * v);
            vr = me / 2;
        }
    } else {
        vr = me - x;
    }
    double part = v; /* V / 2^k to the partner at distance 2^k */
    for (int d = 1; vr >= 0 && d < p; d *= 2, part /= 2) {
        int vd = vr ^ d;
        k = put(out, k, in, vd < x ? 2 * vd : vd + x, part);
    }
    return k;
}

int tg_model_allreduce_clique(const tg_coll_in *in, tg_send *out)
{
    int k = 0;
    for (int j = 0; j < in->n; j++)
        k = put(out, k, in, j, 2.0 * in->bytes / in->n);
    return k;
}

/* -------------------------------------------------------- reduce_scatter */

int tg_model_reduce_scatter_ring(const tg_coll_in *in, const double *block,
                                 tg_send *out)
{
    int n = in->n;
    if (n < 2)
        return 0;
    double v = 0;
    for (int j = 0; j < n; j++)
        v += j == in->me ? 0 : block[j];
    return put(out, 0, in, (in->me + 1) % n, v);
}

int tg_model_reduce_scatter_halving(const tg_coll_in *in,
                                    const double *block, tg_send *out)
{
    int n = in->n, me = in->me, p = pow2_floor(n), x = n - p, k = 0;
    if (n < 2)
        return 0;
    int nr = fold_odd(me, x);
    if (me < 2 * x && !(me % 2)) {
        double v = 0;
        for (int j = 0; j < n; j++)
            v += block[j];
        return put(out, k, in, me + 1, v);
    }
    /* Halve the window [lo, lo + 2d) of new numbers around nr: send the
     * blocks of the partner's half, keep one's own. */
    int lo = 0;
    for (int d = p / 2; d >= 1; d /= 2) {
        int peer = nr ^ d, half = peer < nr ? lo : lo + d;
        double v = 0;
        for (int w = half; w < half + d; w++)
            v += w < x ? block[2 * w] + block[2 * w + 1] : block[w + x];
        k = put(out, k, in, unfold_odd(peer, x), v);
        if (nr >= lo + d)
            lo += d;
    }
    if (me < 2 * x) /* the odd member hands the even one its block */
        k = put(out, k, in, me - 1, block[me - 1]);
    return k;
}

int tg_model_reduce_scatter_clique(const tg_coll_in *in,
                                   const double *block, tg_send *out)
{
    int k = 0;
    for (int j = 0; j < in->n; j++)
        k = put(out, k, in, j, block[j]);
    return k;
}

/* ------------------------------------------------------------ scan, exscan */

int tg_model_scan_chain(const tg_coll_in *in, tg_send *out)
{
    return in->me + 1 < in->n ? put(out, 0, in, in->me + 1, in->bytes) : 0;
}

int tg_model_scan_recdoubling(const tg_coll_in *in, tg_send *out)
{
    int k = 0;
    for (int d = 1; d < in->n; d *= 2)
        if ((in->me ^ d) < in->n)
            k = put(out, k, in, in->me ^ d, in->bytes);
    return k;
}

int tg_model_scan_clique(const tg_coll_in *in, tg_send *out)
{
    int k = 0;
    for (int j = in->me + 1; j < in->n; j++)
        k = put(out, k, in, j, in->bytes);
    return k;
}
