/* signals.c: SIGTERM, SIGINT and SIGHUP end parmapper in one place.
 *
 * Slurm's time limit and scancel send SIGTERM, ^C sends SIGINT.  METIS
 * (5.1, GKlib's gk_sigtrap) sets its own SIGTERM handler for the whole
 * process while a partition runs; the handler longjmps to a jump buffer
 * that is thread-local (GKlib's __thread gk_jbufs) and so valid only in
 * the thread that called METIS.  A SIGTERM that the kernel gave to any
 * other thread (the main thread keeping time, an MPI progress thread)
 * longjmped through an empty buffer: parmapper crashed with SIGSEGV.
 *
 * So the three signals are blocked in every thread from the start of
 * main, before MPI_Init and the search start theirs (threads inherit the
 * mask), and one thread of ours takes them with sigwait: no handler,
 * METIS's included, ever runs for them.  That thread waits until no output
 * temporary is on disk (pm_files_lock: outputs.c holds it while its
 * temporaries exist), says so on rank 0 and ends the process with
 * 128 + the signal's number, the status a shell gives a process the
 * signal killed.  It does not re-raise the signal: a worker inside METIS
 * may set METIS's handler again at any moment, and a raised signal
 * would then run it in a thread without a jump buffer.  Under mpirun the
 * other ranks are ended by mpirun when this one exits without MPI_Finalize;
 * under Slurm every task gets the signal.
 *
 * A signal ignored when parmapper starts (nohup's SIGHUP, SIGINT in a
 * shell's background job) stays ignored: blocked, never waited for.  A
 * process that parmapper forks (Open MPI's singleton starts orted) gets
 * the mask parmapper started with. */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "parmapper.h"

static const int caught[] = {SIGTERM, SIGINT, SIGHUP};
static sigset_t blocked, waited, original;
static pthread_mutex_t files = PTHREAD_MUTEX_INITIALIZER;
static atomic_int rank_of = -1; /* -1: not known yet */
static atomic_int written;      /* the outputs were committed */
static atomic_int failing;      /* the exit status of a failure already
                                   reported, 0 when none */

/* fork's child: the mask parmapper started with (no catcher there). */
static void restore_in_child(void)
{
    pthread_sigmask(SIG_SETMASK, &original, NULL);
}

static void say(const char *s)
{
    size_t n = strlen(s);
    while (n) {
        ssize_t w = write(STDERR_FILENO, s, n);
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

static void *catcher(void *arg)
{
    (void)arg;
    int sig = 0;
    while (sigwait(&waited, &sig) != 0)
        ;
    /* From here on no temporary is on disk and none will be made. */
    pthread_mutex_lock(&files);
    int rank = atomic_load(&rank_of), status = atomic_load(&failing);
    if (status)
        _exit(status); /* said already; mpirun ends the job's other ranks */
    if (rank <= 0) {
        const char *name = sig == SIGTERM  ? "SIGTERM"
                           : sig == SIGINT ? "SIGINT"
                                           : "SIGHUP";
        char line[160];
        if (atomic_load(&written)) {
            fflush(stdout); /* what was written, when stdout is a file */
            snprintf(line, sizeof line,
                     "parmapper: stopped by %s after writing its outputs\n",
                     name);
        } else {
            snprintf(line, sizeof line,
                     "parmapper: stopped by %s: nothing written\n", name);
        }
        say(line);
    }
    _exit(128 + sig);
}

int pm_signals_start(void)
{
    sigemptyset(&blocked);
    sigemptyset(&waited);
    for (size_t i = 0; i < sizeof caught / sizeof *caught; i++) {
        struct sigaction sa;
        sigaddset(&blocked, caught[i]);
        if (sigaction(caught[i], NULL, &sa) == 0 &&
            sa.sa_handler != SIG_IGN)
            sigaddset(&waited, caught[i]);
    }
    if (pthread_sigmask(SIG_BLOCK, &blocked, &original))
        return -1;
    pthread_atfork(NULL, NULL, restore_in_child);
    pthread_attr_t attr;
    pthread_t t;
    int rc = pthread_attr_init(&attr);
    if (!rc) {
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        rc = pthread_create(&t, &attr, catcher, NULL);
        pthread_attr_destroy(&attr);
    }
    if (rc) {
        /* No catcher: the signals act as they did at the start. */
        pthread_sigmask(SIG_SETMASK, &original, NULL);
        return -1;
    }
    return 0;
}

void pm_signals_rank(int rank)
{
    atomic_store(&rank_of, rank);
}

void pm_files_lock(void)
{
    pthread_mutex_lock(&files);
}

void pm_files_unlock(int committed)
{
    if (committed)
        atomic_store(&written, 1);
    pthread_mutex_unlock(&files);
}

void pm_signals_failing(int status)
{
    atomic_store(&failing, status);
}
