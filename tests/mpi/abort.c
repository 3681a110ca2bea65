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
 *   segv    rank 1 raises SIGSEGV on itself
 *   null    rank 1 writes through a null pointer (SIGSEGV from the CPU)
 *   stack   rank 1 recurses until its stack overflows (SIGSEGV, which
 *           only a handler on an alternate stack can catch)
 *   fpe     rank 1 divides an integer by zero (SIGFPE)
 *   abrt    rank 1 calls abort() (SIGABRT)
 *   own     rank 1 installed its own SIGSEGV handler before MPI_Init and
 *           writes through a null pointer: the handler creates
 *           <COMMPROF_OUT>.own, puts the default action back and returns,
 *           so the write faults again and the rank dies by SIGSEGV
 *   late    the same with the handler installed after MPI_Init
 *   kill    rank 1 sleeps 1 s, then SIGKILL ends it (run with
 *           COMMPROF_CHECKPOINT: only a checkpoint leaves its file)
 *   finalize rank 1 sleeps 0.3 s and sends the others the message they
 *           wait for: every rank reaches MPI_Finalize
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

/* Marks that it ran, then lets the default action happen (the fault
 * happens again on return; a sent signal is raised again). */
static void own_fatal(int sig)
{
    int fd = open(marker, O_WRONLY | O_CREAT, 0644);
    if (fd >= 0)
        close(fd);
    signal(sig, SIG_DFL);
}

static void own_fatal_handler(void)
{
    const char *out = getenv("COMMPROF_OUT");
    snprintf(marker, sizeof marker, "%s.own", out ? out : "commprof.json");
    signal(SIGSEGV, own_fatal);
}

/* Deep enough to overflow any stack; the array keeps each frame big and
 * the addition after the call keeps it from becoming a loop. */
static int recurse(volatile int depth)
{
    volatile char frame[1024];
    frame[0] = (char)depth;
    if (depth > (1 << 30)) /* never: 1 GiB of frames */
        return 0;
    return recurse(depth + 1) + frame[0];
}

static volatile int *volatile null_pointer;
static volatile int seven = 7, zero;

/* The faults from the CPU: a write through a null pointer, an integer
 * division by zero.  Not instrumented by UBSan (configure
 * --enable-sanitize), which would otherwise end the rank with its own
 * report before the signal that is the point here. */
__attribute__((no_sanitize_undefined)) static void fault(const char *how)
{
    if (strcmp(how, "null") == 0 || strcmp(how, "own") == 0 ||
        strcmp(how, "late") == 0)
        *null_pointer = 1;
    if (strcmp(how, "fpe") == 0)
        printf("%d\n", seven / zero);
}

int main(int argc, char **argv)
{
    const char *how = argc > 1 ? argv[1] : "abort";
    int rank_env = -1;
    /* The rank before MPI_Init: Open MPI's mpirun, or MPICH's Hydra. */
    const char *e = getenv("OMPI_COMM_WORLD_RANK");
    if (!e)
        e = getenv("PMI_RANK");
    if (e)
        rank_env = atoi(e);
    if (strcmp(how, "signal") == 0 && rank_env == 2) {
        const char *out = getenv("COMMPROF_OUT");
        snprintf(marker, sizeof marker, "%s.own", out ? out : "commprof.json");
        signal(SIGTERM, own_handler);
    }
    if (strcmp(how, "own") == 0 && rank_env == 1)
        own_fatal_handler();
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
        if (strcmp(how, "segv") == 0)
            raise(SIGSEGV);
        if (strcmp(how, "late") == 0)
            own_fatal_handler();
        fault(how);
        if (strcmp(how, "stack") == 0)
            printf("%d\n", recurse(0));
        if (strcmp(how, "abrt") == 0)
            abort();
        if (strcmp(how, "kill") == 0 || strcmp(how, "finalize") == 0) {
            struct timespec wait = {0, 0};
            if (strcmp(how, "kill") == 0)
                wait.tv_sec = 1;
            else
                wait.tv_nsec = 300000000;
            while (nanosleep(&wait, &wait) != 0)
                ;
            if (strcmp(how, "kill") == 0)
                raise(SIGKILL);
            for (int i = 0; i < n; i++)
                if (i != 1)
                    MPI_Send(s, 1, MPI_BYTE, i, 2, MPI_COMM_WORLD);
            MPI_Finalize();
            return 0;
        }
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    MPI_Recv(t, 1, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
