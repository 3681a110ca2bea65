/* abort.c: an application that never reaches MPI_Finalize, for
 * tests/commprof_abort.sh (the partial files each rank must leave are in
 * tests/commprof_check.py, mode partial).  Run on 4 ranks.
 *
 * Rank r of n:
 *   3 Sendrecv of 100(r+1) bytes to r+1 (from r-1)
 *   Allreduce of 2 ints on MPI_COMM_WORLD
 *   Bcast of 16 bytes from comm rank 0 on the halves from
 *     Comm_split(color r%2, key r): world ranks 0 and 1 are the roots
 *   rank 3 only: MPI_Pcontrol(2), so it has recorded nothing
 *   MPI_Pcontrol(0) and a Barrier: everything recorded is recorded by
 *   every rank before any of them ends, so the partial files are exact
 * Then, by the argument:
 *   abort   rank 1 calls MPI_Abort; the others wait in a Recv until
 *           mpirun ends them with SIGTERM
 *   exit    rank 1 calls exit(3) without MPI_Finalize; the others wait
 *   signal  rank 1 raises SIGINT on itself; rank 2 installed its own
 *           SIGTERM handler before MPI_Init, which creates
 *           <COMMPROF_OUT>.own and waits to be killed, so libcommprof
 *           left that signal alone and rank 2 leaves no partial file
 */
#include <fcntl.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char marker[4096];

/* Leaves a mark and waits for mpirun's SIGKILL (ending at once would
 * bring that SIGKILL to the other ranks before they have written). */
static void own_handler(int sig)
{
    (void)sig;
    int fd = open(marker, O_WRONLY | O_CREAT, 0644);
    if (fd >= 0)
        close(fd);
    struct timespec wait = {5, 0};
    nanosleep(&wait, NULL);
    _exit(0);
}

int main(int argc, char **argv)
{
    const char *how = argc > 1 ? argv[1] : "abort";
    int rank_env = -1;
    const char *e = getenv("OMPI_COMM_WORLD_RANK");
    if (e)
        rank_env = atoi(e);
    if (strcmp(how, "signal") == 0 && rank_env == 2) {
        const char *out = getenv("COMMPROF_OUT");
        snprintf(marker, sizeof marker, "%s.own", out ? out : "commprof.json");
        signal(SIGTERM, own_handler);
    }
    MPI_Init(&argc, &argv);
    int r, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    char s[400] = {0}, t[400];
    for (int i = 0; i < 3; i++)
        MPI_Sendrecv(s, 100 * (r + 1), MPI_BYTE, (r + 1) % n, 1, t, 400,
                     MPI_BYTE, (r + n - 1) % n, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    int a[2] = {0}, b[2];
    MPI_Allreduce(a, b, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, r % 2, r, &half);
    MPI_Bcast(s, 16, MPI_BYTE, 0, half);
    if (r == 3)
        MPI_Pcontrol(2);
    MPI_Pcontrol(0);
    MPI_Barrier(MPI_COMM_WORLD);

    if (r == 1) {
        if (strcmp(how, "exit") == 0)
            exit(3);
        if (strcmp(how, "signal") == 0)
            raise(SIGINT);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    MPI_Recv(t, 1, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
