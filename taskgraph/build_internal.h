/*
 * build_internal.h: what the modules of `taskgraph build` share (build.c,
 * build_write.c, collmodel.c, collmodel_auto.c); not installed.
 *
 * A collective model turns what one member of a communicator recorded into
 * the bytes it sends to each other member, in the index space of the
 * communicator's peer group (tg_prof_comm_world gives the world rank).
 * Every model is linear in the member's bytes, so the record of all its
 * calls (their bytes added) is modelled at once; what a per-call choice
 * needs (the message size of Open MPI's decision) is the record's bytes
 * divided by its calls.
 */
#ifndef TOPOMAP_BUILD_INTERNAL_H
#define TOPOMAP_BUILD_INTERNAL_H

#include <stdint.h>

#include "taskgraph.h"

/* Bytes one member sends to member `peer` of the peer group. */
typedef struct tg_send {
    int peer;
    double bytes;
} tg_send;

/* One member's record as a model sees it. */
typedef struct tg_coll_in {
    int n;        /* members in the peer group */
    int me;       /* this member's index in it; -1 on an intercommunicator,
                   * where the peer group is the remote group */
    double bytes; /* the record's bytes: its send buffers, all calls */
    const tg_prof_peer *peers; /* recorded per-peer bytes (may be none) */
    int npeers;
} tg_coll_in;

/* Every model writes at most n sends into out (room for n) and returns
 * how many; sends of 0 bytes are left out, a peer never comes twice. */

/* As recorded: the record's per-peer bytes (v and w variants, a root's
 * sends in Bcast and Scatter(v), a member's send to the root in Gather(v)
 * and Reduce, a neighbourhood collective's blocks). */
int tg_model_recorded(const tg_coll_in *in, tg_send *out);
/* Alltoall: the send buffer holds one equal block per member, so each
 * other member gets bytes / n.  Also what a collective without per-peer
 * bytes sends on an intercommunicator: its bytes spread evenly over the
 * remote group. */
int tg_model_alltoall(const tg_coll_in *in, tg_send *out);
/* Allgather(v): the member's one block goes to every other member. */
int tg_model_allgather(const tg_coll_in *in, tg_send *out);

/* Allreduce (V = bytes), as Open MPI 4.1 runs it (coll/base):
 *   ring: 2 (n-1)/n V to member me+1 (mod n);
 *   recursive doubling: V to each partner; with p the largest power of two
 *     <= n and x = n - p, even members below 2x first send V to the odd
 *     member above them and get the result back from it at the end, and
 *     the other p members exchange V with the partner at each distance
 *     1, 2, ..., p/2 of their renumbering;
 *   Rabenseifner: the same partners (even members survive the fold:
 *     V/2 to the odd one, then the whole result, 3V/2; the odd one sends
 *     V), V/2^k to the partner at distance 2^k: V/2^(k+1) while halving
 *     the vector and as much again while gathering it back;
 *   clique: 2V/n to every other member (a direct reduce-scatter, then a
 *     direct allgather). */
int tg_model_allreduce_ring(const tg_coll_in *in, tg_send *out);
int tg_model_allreduce_recdoubling(const tg_coll_in *in, tg_send *out);
int tg_model_allreduce_rabenseifner(const tg_coll_in *in, tg_send *out);
int tg_model_allreduce_clique(const tg_coll_in *in, tg_send *out);

/* Reduce_scatter(_block): block[j] is what member j receives, their sum
 * the whole vector V (n entries):
 *   ring: V - block[me] to member me+1 (every block but its own);
 *   recursive halving: the fold of recursive doubling (the even member
 *     sends V up, the odd one sends the even one's block back at the end),
 *     then at distances p/2, p/4, ..., 1 the blocks of the partner's half
 *     of the current window;
 *   clique: block[j] to each member j. */
int tg_model_reduce_scatter_ring(const tg_coll_in *in, const double *block,
                                 tg_send *out);
int tg_model_reduce_scatter_halving(const tg_coll_in *in,
                                    const double *block, tg_send *out);
int tg_model_reduce_scatter_clique(const tg_coll_in *in,
                                   const double *block, tg_send *out);

/* Scan and Exscan (V = bytes):
 *   chain (the ring model; Open MPI 4.1's coll/basic): V to member me+1;
 *   recursive doubling: V to member me XOR 2^k for each 2^k < n, where
 *     that member exists;
 *   clique: V to every higher member. */
int tg_model_scan_chain(const tg_coll_in *in, tg_send *out);
int tg_model_scan_recdoubling(const tg_coll_in *in, tg_send *out);
int tg_model_scan_clique(const tg_coll_in *in, tg_send *out);

/* What Open MPI 4.1's coll/tuned fixed decision runs, as one of RING,
 * RECURSIVE_DOUBLING and RABENSEIFNER (commutative operations assumed),
 * for a communicator of n members and a message of `bytes` per call. */
tg_coll_model tg_ompi_allreduce(int n, uint64_t bytes);
tg_coll_model tg_ompi_reduce_scatter(int n, uint64_t bytes);

#endif
