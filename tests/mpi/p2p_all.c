/* p2p_all.c: every point-to-point function libcommprof intercepts, with
 * known bytes, for tests/commprof_p2p.sh (expected values, derived step by
 * step, in tests/commprof_check.py, mode p2p).  Run on 4 ranks.
 *
 * Rank r sends each step's message to next = r+1 and receives the same
 * from prev = r-1 (mod n), on MPI_COMM_WORLD, with the step number as tag:
 *
 *   1 Send 10 B; Irecv + Wait (status ignored)
 *   2 Isend 20 B + Wait; Recv with a status
 *   3 Bsend 30 B (buffer attached); Recv from MPI_ANY_SOURCE, status ignored
 *   4 Ibsend 40 B; Irecv; Waitall, statuses ignored
 *   5 Ssend 50 B; Irecv completed by a Test loop
 *   6 Issend 60 B; Irecv; a Testall loop
 *   7 Rsend 70 B after a Barrier (receive posted); Irecv, a Testany loop
 *   8 Irsend 80 B after a Barrier; Irecv; a Testsome loop
 *   9 Sendrecv 90 B
 *  10 Sendrecv_replace 100 B
 *  11 Send_init 110 B, Bsend_init 120 B, Ssend_init 130 B, Rsend_init
 *     140 B and four Recv_init, made between MPI_Pcontrol(0) and
 *     MPI_Pcontrol(1), each started twice: round 1 receives by
 *     Startall and sends by Start, completed by Waitany; round 2 both by
 *     Startall, completed by a Waitsome loop; a Barrier before each round's
 *     sends (for Rsend)
 *  12 Isend 150 B; Mprobe + Mrecv (status ignored); Wait
 *  13 Isend 160 B; an Improbe loop + Imrecv; Waitall
 *  14 Isend 170 B, Probe + Recv; Isend 180 B, an Iprobe loop + Recv;
 *     Waitall
 *  15 to and from MPI_PROC_NULL (no bytes): Send, Isend + Wait, Recv,
 *     Mprobe + Mrecv
 *  16 on a communicator with the ranks in reverse order: Send 2 elements
 *     of a vector type (3 blocks of 2 ints: 24 B each, 48 B) to comm rank
 *     +1, which is world rank r-1; Irecv from comm rank -1 (world r+1);
 *     Wait
 *  17 an Irecv that no message matches, cancelled, then Wait: nothing
 *     received
 *  18 under MPI_ERRORS_RETURN, a Send with the invalid tag -5, which
 *     fails: nothing sent
 *
 * The loops poll until their request completes; how often is not known in
 * advance, so each rank prints "rank R polls P" (P: the calls of all the
 * loops) for the checker.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char sbuf[256], rbuf[256];

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int r, n, polls = 0, flag;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    const int next = (r + 1) % n, prev = (r + n - 1) % n;
    const MPI_Comm w = MPI_COMM_WORLD;
    MPI_Request rq[8];
    MPI_Status st, sts[8];
    int bsize = 65536;
    char *attached = malloc((size_t)bsize);
    MPI_Buffer_attach(attached, bsize);

    /* 1 */
    MPI_Irecv(rbuf, 10, MPI_BYTE, prev, 1, w, &rq[0]);
    MPI_Send(sbuf, 10, MPI_BYTE, next, 1, w);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    /* 2 */
    MPI_Isend(sbuf, 20, MPI_BYTE, next, 2, w, &rq[0]);
    MPI_Recv(rbuf, 20, MPI_BYTE, prev, 2, w, &st);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    /* 3 */
    MPI_Bsend(sbuf, 30, MPI_BYTE, next, 3, w);
    MPI_Recv(rbuf, 30, MPI_BYTE, MPI_ANY_SOURCE, 3, w, MPI_STATUS_IGNORE);
    /* 4 */
    MPI_Irecv(rbuf, 40, MPI_BYTE, prev, 4, w, &rq[1]);
    MPI_Ibsend(sbuf, 40, MPI_BYTE, next, 4, w, &rq[0]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    /* 5 */
    MPI_Irecv(rbuf, 50, MPI_BYTE, prev, 5, w, &rq[0]);
    MPI_Ssend(sbuf, 50, MPI_BYTE, next, 5, w);
    for (flag = 0; !flag; polls++)
        MPI_Test(&rq[0], &flag, MPI_STATUS_IGNORE);
    /* 6 */
    MPI_Irecv(rbuf, 60, MPI_BYTE, prev, 6, w, &rq[0]);
    MPI_Issend(sbuf, 60, MPI_BYTE, next, 6, w, &rq[1]);
    for (flag = 0; !flag; polls++)
        MPI_Testall(2, rq, &flag, sts);
    /* 7 */
    MPI_Irecv(rbuf, 70, MPI_BYTE, prev, 7, w, &rq[0]);
    MPI_Barrier(w);
    MPI_Rsend(sbuf, 70, MPI_BYTE, next, 7, w);
    for (flag = 0; !flag; polls++) {
        int index;
        MPI_Testany(1, rq, &index, &flag, MPI_STATUS_IGNORE);
    }
    /* 8 */
    MPI_Irecv(rbuf, 80, MPI_BYTE, prev, 8, w, &rq[0]);
    MPI_Barrier(w);
    MPI_Irsend(sbuf, 80, MPI_BYTE, next, 8, w, &rq[1]);
    for (int done = 0; done < 2; polls++) {
        int out, idx[2];
        MPI_Testsome(2, rq, &out, idx, sts);
        done += out == MPI_UNDEFINED ? 0 : out;
    }
    /* 9, 10 */
    MPI_Sendrecv(sbuf, 90, MPI_BYTE, next, 9, rbuf, 90, MPI_BYTE, prev, 9, w,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv_replace(rbuf, 100, MPI_BYTE, next, 10, prev, 10, w, &st);
    /* 11: rq[0..3] receives, rq[4..7] sends */
    static char pin[4][140], pout[4][140];
    /* Made while not recording, as an application that profiles only its
     * main loop does: each start while recording still counts. */
    MPI_Pcontrol(0);
    for (int i = 0; i < 4; i++)
        MPI_Recv_init(pin[i], 110 + 10 * i, MPI_BYTE, prev, 110 + i, w, &rq[i]);
    MPI_Send_init(pout[0], 110, MPI_BYTE, next, 110, w, &rq[4]);
    MPI_Bsend_init(pout[1], 120, MPI_BYTE, next, 111, w, &rq[5]);
    MPI_Ssend_init(pout[2], 130, MPI_BYTE, next, 112, w, &rq[6]);
    MPI_Rsend_init(pout[3], 140, MPI_BYTE, next, 113, w, &rq[7]);
    MPI_Pcontrol(1);
    MPI_Startall(4, rq);
    MPI_Barrier(w);
    for (int i = 4; i < 8; i++)
        MPI_Start(&rq[i]);
    for (int i = 0; i < 8; i++) {
        int index;
        MPI_Waitany(8, rq, &index, &st);
    }
    MPI_Startall(4, rq);
    MPI_Barrier(w);
    MPI_Startall(4, rq + 4);
    for (int done = 0; done < 8; polls++) {
        int out, idx[8];
        MPI_Waitsome(8, rq, &out, idx, MPI_STATUSES_IGNORE);
        done += out;
    }
    for (int i = 0; i < 8; i++)
        MPI_Request_free(&rq[i]);
    /* 12 */
    MPI_Message msg;
    int count;
    MPI_Isend(sbuf, 150, MPI_BYTE, next, 12, w, &rq[0]);
    MPI_Mprobe(prev, 12, w, &msg, &st);
    MPI_Get_count(&st, MPI_BYTE, &count);
    MPI_Mrecv(rbuf, count, MPI_BYTE, &msg, MPI_STATUS_IGNORE);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    /* 13 */
    MPI_Isend(sbuf, 160, MPI_BYTE, next, 13, w, &rq[0]);
    for (flag = 0; !flag; polls++)
        MPI_Improbe(prev, 13, w, &flag, &msg, MPI_STATUS_IGNORE);
    MPI_Imrecv(rbuf, 160, MPI_BYTE, &msg, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    /* 14 */
    MPI_Isend(sbuf, 170, MPI_BYTE, next, 14, w, &rq[0]);
    MPI_Probe(prev, 14, w, MPI_STATUS_IGNORE);
    MPI_Recv(rbuf, 170, MPI_BYTE, prev, 14, w, MPI_STATUS_IGNORE);
    MPI_Isend(sbuf + 50, 180, MPI_BYTE, next, 15, w, &rq[1]);
    for (flag = 0; !flag; polls++)
        MPI_Iprobe(prev, 15, w, &flag, MPI_STATUS_IGNORE);
    MPI_Recv(rbuf, 180, MPI_BYTE, prev, 15, w, MPI_STATUS_IGNORE);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    /* 15 */
    MPI_Send(sbuf, 200, MPI_BYTE, MPI_PROC_NULL, 16, w);
    MPI_Isend(sbuf, 200, MPI_BYTE, MPI_PROC_NULL, 16, w, &rq[0]);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    MPI_Recv(rbuf, 200, MPI_BYTE, MPI_PROC_NULL, 16, w, MPI_STATUS_IGNORE);
    MPI_Mprobe(MPI_PROC_NULL, 16, w, &msg, MPI_STATUS_IGNORE);
    MPI_Mrecv(rbuf, 200, MPI_BYTE, &msg, MPI_STATUS_IGNORE);
    /* 16 */
    MPI_Comm rev;
    MPI_Comm_split(w, 0, n - 1 - r, &rev);
    int rr;
    MPI_Comm_rank(rev, &rr);
    MPI_Datatype vec;
    MPI_Type_vector(3, 2, 4, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int vout[24] = {0}, vin[24];
    MPI_Irecv(vin, 2, vec, (rr + n - 1) % n, 17, rev, &rq[0]);
    MPI_Send(vout, 2, vec, (rr + 1) % n, 17, rev);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    MPI_Type_free(&vec);
    MPI_Comm_free(&rev);
    /* 17 */
    MPI_Irecv(rbuf, 10, MPI_BYTE, prev, 18, w, &rq[0]);
    MPI_Cancel(&rq[0]);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    /* 18 */
    MPI_Comm ret;
    MPI_Comm_dup(w, &ret);
    MPI_Comm_set_errhandler(ret, MPI_ERRORS_RETURN);
    if (MPI_Send(sbuf, 190, MPI_BYTE, next, -5, ret) == MPI_SUCCESS)
        printf("rank %d: a send with tag -5 worked\n", r);
    MPI_Comm_free(&ret);

    MPI_Buffer_detach(&attached, &bsize);
    free(attached);
    printf("rank %d polls %d\n", r, polls);
    MPI_Finalize();
    return 0;
}
