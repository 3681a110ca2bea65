/* mpi4.c: the MPI-4 calls libcommprof wraps, for tests/commprof_mpi4.sh
 * (checked exactly by tests/commprof_check.py, mode mpi4 or large).
 *
 *   mpi4          4 ranks: a pattern with each kind of MPI-4 call that
 *                 this MPI has (config.h's CP_HAVE_* blocks, as configure
 *                 found them), described block by block below
 *   mpi4 large    2 ranks: rank 0 sends 2^31 + 3 MPI_BYTEs to rank 1
 *                 with MPI_Send_c, received with MPI_Recv_c
 *   mpi4 isendrecv   the MPI_Isendrecv block alone, which Open MPI's pml
 *                 monitoring counts as user point-to-point (it does not
 *                 see partitioned data as such, and counts the
 *                 collectives' messages apart)
 *
 * Rank 0 prints "blocks B..." (the blocks it ran; none: "blocks"), then
 * "rank R ok" from each rank whose data arrived as sent.
 */
#include "config.h"

#include <mpi.h>
#ifndef CP_HAVE_ISENDRECV
#define CP_HAVE_ISENDRECV 0
#endif
#ifndef CP_HAVE_PARTITIONED
#define CP_HAVE_PARTITIONED 0
#endif
#ifndef CP_HAVE_COLL_INIT
#define CP_HAVE_COLL_INIT 0
#endif
#ifndef CP_HAVE_LARGE_COUNT
#define CP_HAVE_LARGE_COUNT 0
#endif
#ifndef CP_HAVE_MPIX_COLL_INIT
#define CP_HAVE_MPIX_COLL_INIT 0
#endif
#if CP_HAVE_MPIX_COLL_INIT
/* Open MPI 4.1: the persistent collectives of coll_init by their
 * extension's names, which libcommprof wraps there. */
#include <mpi-ext.h>
#define MPI_Bcast_init MPIX_Bcast_init
#define MPI_Allreduce_init MPIX_Allreduce_init
#define MPI_Alltoallv_init MPIX_Alltoallv_init
#define MPI_Barrier_init MPIX_Barrier_init
#define MPI_Gather_init MPIX_Gather_init
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int r, n, bad;

/* (inline: unused, and not warned about, under an MPI with no block) */
static inline void expect(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "rank %d: wrong data after %s\n", r, what);
        bad = 1;
    }
}

static inline int at(int d)
{
    return (r + d + n) % n;
}

#if CP_HAVE_ISENDRECV
/* 10 ints (40 B) to r+1 with MPI_Isendrecv; 6 doubles (48 B) to r+2 with
 * MPI_Isendrecv_replace; 2 ints (8 B) to r+1 with MPI_Isendrecv from
 * MPI_PROC_NULL (nothing received), received by an MPI_Recv; 3 ints (12 B)
 * to r+1 with MPI_Isendrecv from MPI_ANY_SOURCE (the source only its
 * status tells, which MPICH leaves unset: counted under Open MPI only).
 * p2p calls: 4 + 3 + 2. */
static void isendrecv(void)
{
    int out[10], in[10];
    double both[6];
    MPI_Request q;
    MPI_Isendrecv(out, 2, MPI_INT, at(1), 5, in, 2, MPI_INT, MPI_PROC_NULL, 5,
                  MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    MPI_Recv(in, 2, MPI_INT, at(-1), 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Isendrecv(out, 3, MPI_INT, at(1), 6, in, 3, MPI_INT, MPI_ANY_SOURCE, 6,
                  MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    for (int i = 0; i < 10; i++)
        out[i] = 100 * r + i;
    MPI_Isendrecv(out, 10, MPI_INT, at(1), 1, in, 10, MPI_INT, at(-1), 1,
                  MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    expect(in[9] == 100 * at(-1) + 9, "MPI_Isendrecv");
    for (int i = 0; i < 6; i++)
        both[i] = r + 0.5 * i;
    MPI_Isendrecv_replace(both, 6, MPI_DOUBLE, at(2), 2, at(-2), 2,
                          MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    expect(both[5] == at(-2) + 2.5, "MPI_Isendrecv_replace");
}
#endif

#if CP_HAVE_PARTITIONED
/* 4 partitions of 5 ints (80 B) to r-1, three starts: 240 B in 3
 * messages.  p2p calls: the 2 inits, and per round 2 Start and a Waitall
 * (MPI_Pready_range and MPI_Parrived pass through uncounted): 11. */
static void partitioned(void)
{
    int out[20], in[20];
    MPI_Request s, q;
    MPI_Psend_init(out, 4, 5, MPI_INT, at(-1), 3, MPI_COMM_WORLD,
                   MPI_INFO_NULL, &s);
    MPI_Precv_init(in, 4, 5, MPI_INT, at(1), 3, MPI_COMM_WORLD, MPI_INFO_NULL,
                   &q);
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 20; i++)
            out[i] = 1000 * round + 10 * r + i;
        MPI_Start(&q);
        MPI_Start(&s);
        MPI_Pready_range(0, 3, s);
        MPI_Request both[2] = {s, q};
        MPI_Waitall(2, both, MPI_STATUSES_IGNORE);
        expect(in[19] == 1000 * round + 10 * at(1) + 19, "MPI_Precv_init");
    }
    MPI_Request_free(&s);
    MPI_Request_free(&q);
}
#endif

#if CP_HAVE_COLL_INIT || CP_HAVE_MPIX_COLL_INIT
/* Persistent collectives on MPI_COMM_WORLD (MPIX_ under Open MPI 4.1),
 * counted at each start:
 * Bcast_init of 25 ints (100 B) from 0, started 3 times; Allreduce_init
 * of 8 doubles and Alltoallv_init of i+1 ints to member i, started
 * together by MPI_Startall twice; Barrier_init started twice;
 * Gather_init of 3 ints to 1, started once.  Type calls: bcast 1 + 3 x
 * (Start, Wait) = 7; allreduce 1 + 2 x (Startall, Waitall) = 5, the time
 * of both going to the first request's type; alltoallv 1 (its init);
 * barrier 1 + 2 x 2 = 5; gather 1 + 2 = 3. */
static void coll_init(void)
{
    int b[25], sc[4], sd[4], rc[4], rd[4], so[10], ro[40], g[3], all[12];
    double x[8], y[8];
    MPI_Request q[2], one;
    for (int i = 0; i < 4; i++) {
        sc[i] = i + 1;
        sd[i] = i * (i + 1) / 2;
        rc[i] = r + 1;
        rd[i] = i * (r + 1);
    }
    MPI_Bcast_init(b, 25, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &one);
    for (int round = 0; round < 3; round++) {
        if (r == 0)
            for (int i = 0; i < 25; i++)
                b[i] = round * 100 + i;
        MPI_Start(&one);
        MPI_Wait(&one, MPI_STATUS_IGNORE);
        expect(b[24] == round * 100 + 24, "MPI_Bcast_init");
    }
    MPI_Request_free(&one);

    MPI_Allreduce_init(x, y, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD,
                       MPI_INFO_NULL, &q[0]);
    MPI_Alltoallv_init(so, sc, sd, MPI_INT, ro, rc, rd, MPI_INT,
                       MPI_COMM_WORLD, MPI_INFO_NULL, &q[1]);
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 8; i++)
            x[i] = r + round;
        for (int i = 0; i < 10; i++)
            so[i] = 10 * r + round;
        MPI_Startall(2, q);
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
        expect(y[7] == 6 + 4 * round, "MPI_Allreduce_init");
        expect(ro[3 * (r + 1)] == 30 + round, "MPI_Alltoallv_init");
    }
    MPI_Request_free(&q[0]);
    MPI_Request_free(&q[1]);

    MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &one);
    for (int round = 0; round < 2; round++) {
        MPI_Start(&one);
        MPI_Wait(&one, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&one);

    for (int i = 0; i < 3; i++)
        g[i] = 10 * r + i;
    MPI_Gather_init(g, 3, MPI_INT, all, 3, MPI_INT, 1, MPI_COMM_WORLD,
                    MPI_INFO_NULL, &one);
    MPI_Start(&one);
    MPI_Wait(&one, MPI_STATUS_IGNORE);
    expect(r != 1 || all[11] == 32, "MPI_Gather_init");
    MPI_Request_free(&one);
}
#endif

#if CP_HAVE_LARGE_COUNT
/* The large-count variants, one of each way of counting:
 *   Send_c 7 ints (28 B) to r+1, Recv_c; Isend_c 3 doubles (24 B) to r+2,
 *   Irecv_c, Waitall; Send_init_c 2 ints (8 B) to r+1 and Recv_init_c,
 *   2 rounds of Startall and Waitall; Isend_c 1 int to r+1 received by
 *   Mprobe and Mrecv_c, Wait; and with the block, Isendrecv_c 5 ints
 *   (20 B) to r+2, Wait -- p2p calls 2 + 3 + 2 + 2 x 2 + 4 = 15 (+ 2);
 *   Allreduce_c 5 ints (20 B); Alltoallv_c 2 ints (8 B) to each member;
 *   Scatterv_c from 3, i+2 ints to member i; Reduce_c 4 ints (16 B) to 0;
 *   Neighbor_alltoall_c 1 int to each out-neighbour of a periodic ring
 *   (r-1, r+1); and with the block, Bcast_init_c of 2 doubles (16 B) from
 *   2, started once (bcast calls 1 + 2);
 *   Put_c 4 ints (16 B) to r+1 between two fences (rma calls 3). */
static void large_count(void)
{
    int s7[7], r7[7], i1 = r, o1 = -1, x5[5], y5[5], a8[8], b8[8];
    double s3[3], r3[3];
    int p2[2], q2[2];
    MPI_Request q[2];
    MPI_Count c8[4], cs[4];
    MPI_Aint d8[4], ds[4];
    for (int i = 0; i < 7; i++)
        s7[i] = r * 7 + i;
    MPI_Send_c(s7, 7, MPI_INT, at(1), 10, MPI_COMM_WORLD);
    MPI_Recv_c(r7, 7, MPI_INT, at(-1), 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    expect(r7[6] == at(-1) * 7 + 6, "MPI_Send_c");
    s3[2] = r;
    MPI_Irecv_c(r3, 3, MPI_DOUBLE, at(-2), 11, MPI_COMM_WORLD, &q[0]);
    MPI_Isend_c(s3, 3, MPI_DOUBLE, at(2), 11, MPI_COMM_WORLD, &q[1]);
    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    expect(r3[2] == at(-2), "MPI_Isend_c");
    MPI_Send_init_c(p2, 2, MPI_INT, at(1), 12, MPI_COMM_WORLD, &q[1]);
    MPI_Recv_init_c(q2, 2, MPI_INT, at(-1), 12, MPI_COMM_WORLD, &q[0]);
    for (int round = 0; round < 2; round++) {
        p2[1] = 10 * round + r;
        MPI_Startall(2, q);
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
        expect(q2[1] == 10 * round + at(-1), "MPI_Send_init_c");
    }
    MPI_Request_free(&q[0]);
    MPI_Request_free(&q[1]);
    MPI_Message m;
    MPI_Isend_c(&i1, 1, MPI_INT, at(1), 13, MPI_COMM_WORLD, &q[0]);
    MPI_Mprobe(at(-1), 13, MPI_COMM_WORLD, &m, MPI_STATUS_IGNORE);
    MPI_Mrecv_c(&o1, 1, MPI_INT, &m, MPI_STATUS_IGNORE);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    expect(o1 == at(-1), "MPI_Mrecv_c");
#if CP_HAVE_ISENDRECV
    for (int i = 0; i < 5; i++)
        x5[i] = 5 * r + i;
    MPI_Isendrecv_c(x5, 5, MPI_INT, at(2), 14, y5, 5, MPI_INT, at(-2), 14,
                    MPI_COMM_WORLD, &q[0]);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    expect(y5[4] == 5 * at(-2) + 4, "MPI_Isendrecv_c");
#endif

    for (int i = 0; i < 5; i++)
        x5[i] = r;
    MPI_Allreduce_c(x5, y5, 5, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    expect(y5[4] == 6, "MPI_Allreduce_c");
    for (int i = 0; i < 4; i++) {
        c8[i] = 2;
        d8[i] = 2 * i;
        a8[2 * i] = a8[2 * i + 1] = 10 * r + i;
    }
    MPI_Alltoallv_c(a8, c8, d8, MPI_INT, b8, c8, d8, MPI_INT, MPI_COMM_WORLD);
    expect(b8[7] == 30 + r, "MPI_Alltoallv_c");
    int sv[14], rv[5];
    for (int i = 0; i < 4; i++) {
        cs[i] = i + 2;
        ds[i] = i == 0 ? 0 : ds[i - 1] + cs[i - 1];
    }
    for (int i = 0; i < 14; i++)
        sv[i] = i;
    MPI_Scatterv_c(sv, cs, ds, MPI_INT, rv, r + 2, MPI_INT, 3, MPI_COMM_WORLD);
    expect(rv[r + 1] == (int)ds[r] + r + 1, "MPI_Scatterv_c");
    MPI_Reduce_c(x5, y5, 4, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    expect(r != 0 || y5[3] == 6, "MPI_Reduce_c");
    MPI_Comm ring;
    int dims[1] = {n}, periods[1] = {1}, nb[2] = {r, r}, got[2];
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    MPI_Neighbor_alltoall_c(nb, 1, MPI_INT, got, 1, MPI_INT, ring);
    expect(got[0] == at(-1) && got[1] == at(1), "MPI_Neighbor_alltoall_c");
    MPI_Comm_free(&ring);
#if CP_HAVE_COLL_INIT
    double two[2] = {r, r};
    MPI_Bcast_init_c(two, 2, MPI_DOUBLE, 2, MPI_COMM_WORLD, MPI_INFO_NULL,
                     &q[0]);
    MPI_Start(&q[0]);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    MPI_Request_free(&q[0]);
    expect(two[1] == 2, "MPI_Bcast_init_c");
#endif

    int *win_buf, put[4] = {r, r, r, r};
    MPI_Win win;
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &win_buf, &win);
    MPI_Win_fence(0, win);
    MPI_Put_c(put, 4, MPI_INT, at(1), 0, 4, MPI_INT, win);
    MPI_Win_fence(0, win);
    expect(win_buf[3] == at(-1), "MPI_Put_c");
    MPI_Win_free(&win);
}

/* 2^31 + 3 bytes from rank 0 to rank 1: the sender's buffer is calloc'd
 * and never written (its pages stay the shared zero page), so the pair
 * holds about 2 GiB. */
static int large(void)
{
    const MPI_Count count = ((MPI_Count)1 << 31) + 3;
    char *buf = calloc((size_t)count, 1);
    if (!buf) {
        fprintf(stderr, "rank %d: no memory for %lld bytes\n", r,
                (long long)count);
        return 1;
    }
    if (r == 0) {
        MPI_Send_c(buf, count, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
    } else if (r == 1) {
        MPI_Status st;
        MPI_Count got = 0;
        buf[count - 1] = 1;
        MPI_Recv_c(buf, count, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &st);
        MPI_Get_count_c(&st, MPI_BYTE, &got);
        expect(got == count && buf[count - 1] == 0, "MPI_Recv_c");
    }
    free(buf);
    return 0;
}
#endif

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "all";
    int big = strcmp(mode, "large") == 0, all = strcmp(mode, "all") == 0;
    (void)all;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (r == 0)
        printf("blocks%s%s%s%s%s\n", CP_HAVE_ISENDRECV ? " isendrecv" : "",
               CP_HAVE_PARTITIONED ? " partitioned" : "",
               CP_HAVE_COLL_INIT ? " coll-init" : "",
               CP_HAVE_MPIX_COLL_INIT ? " mpix-coll-init" : "",
               CP_HAVE_LARGE_COUNT ? " large-count" : "");
    if (big) {
#if CP_HAVE_LARGE_COUNT
        if (large() != 0)
            MPI_Abort(MPI_COMM_WORLD, 1);
#endif
    } else {
#if CP_HAVE_ISENDRECV
        isendrecv();
#endif
#if CP_HAVE_PARTITIONED
        if (all)
            partitioned();
#endif
#if CP_HAVE_COLL_INIT || CP_HAVE_MPIX_COLL_INIT
        if (all)
            coll_init();
#endif
#if CP_HAVE_LARGE_COUNT
        if (all)
            large_count();
#endif
    }
    if (!bad)
        printf("rank %d ok\n", r);
    fflush(stdout);
    MPI_Finalize();
    return bad;
}
