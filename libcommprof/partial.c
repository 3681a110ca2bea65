/* partial.c: what a rank leaves when the application never reaches
 * MPI_Finalize.
 *
 * Three ways out are covered, each writing this rank's partial profile
 * (<COMMPROF_OUT>.rank<R>, see topomap-formats(5)) once, if it recorded
 * anything: MPI_Abort (lifecycle.c writes it before PMPI_Abort), exit()
 * or a return from main without MPI_Finalize (an atexit hook), and SIGTERM
 * or SIGINT, which mpirun sends to the other ranks once one has aborted or
 * died, and a user's Ctrl-C.  The handlers are installed at MPI_Init only
 * where the application has none (nor ignores the signal); they write the
 * file with async-signal-safe calls (fixed buffer, open, write, fsync,
 * rename), put the previous disposition back and raise the signal again,
 * so the process ends as it would have.
 *
 * mpirun (Open MPI 4.1) ends the other ranks with SIGCONT, SIGTERM and
 * SIGKILL, a second apart, but each pause is cut short as soon as one of
 * its children ends: the first rank to die after SIGTERM brings SIGKILL to
 * the rest.  So a rank does not die the moment its own file is written: it
 * lingers LINGER_MS first, time for the others to finish theirs.
 *
 * Limits: SIGKILL (which mpirun sends if a rank outlives its grace period
 * after SIGTERM), a crash (SIGSEGV, SIGBUS), _exit() and the loss of the
 * node leave nothing; a call in progress when the end comes is not
 * counted; an application's own SIGTERM handler is left alone, and then
 * nothing is written on that signal.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cp_internal.h"

static char *path, *tmp; /* made at MPI_Init: no allocation at the end */
static pid_t owner;       /* a forked child is not the rank */
static int started, finished;
static struct sigaction old_term, old_int;

#define LINGER_MS 500

static const int signals[] = {SIGTERM, SIGINT};
static struct sigaction *const olds[] = {&old_term, &old_int};

void cp_partial_write(void)
{
    if (!path || !cp.initialized || cp.finalized || getpid() != owner)
        return;
    if (__atomic_exchange_n(&started, 1, __ATOMIC_ACQ_REL)) {
        /* Another thread is writing it (this one was interrupted by a
         * signal, or raced it to MPI_Abort): wait until it is whole. */
        struct timespec ms = {0, 1000000};
        while (!__atomic_load_n(&finished, __ATOMIC_ACQUIRE))
            nanosleep(&ms, NULL);
        return;
    }
    /* No handler of ours may cut this thread's write short. */
    sigset_t block, saved;
    sigemptyset(&block);
    for (size_t i = 0; i < sizeof signals / sizeof *signals; i++)
        sigaddset(&block, signals[i]);
    pthread_sigmask(SIG_BLOCK, &block, &saved);
    if (cp_recorded_anything())
        cp_write_partial(tmp, path);
    __atomic_store_n(&finished, 1, __ATOMIC_RELEASE);
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
}

static void on_signal(int sig)
{
    int saved_errno = errno;
    cp_partial_write();
    struct timespec linger = {0, LINGER_MS * 1000000L};
    while (nanosleep(&linger, &linger) != 0 && errno == EINTR)
        ;
    for (size_t i = 0; i < sizeof signals / sizeof *signals; i++)
        if (signals[i] == sig)
            sigaction(sig, olds[i], NULL);
    errno = saved_errno;
    raise(sig); /* delivered, with the old disposition, on return */
}

static void at_exit(void)
{
    cp_partial_write();
}

void cp_partial_setup(void)
{
    const char *out = getenv("COMMPROF_OUT");
    if (!out || !*out)
        out = "commprof.json";
    size_t len = strlen(out) + 32, tlen = len + 32;
    path = malloc(len);
    tmp = malloc(tlen);
    if (!path || !tmp) {
        free(path);
        free(tmp);
        path = tmp = NULL;
        return;
    }
    snprintf(path, len, "%s.rank%d", out, cp.world_rank);
    cp_tmp_name(tmp, tlen, path);
    owner = getpid();
    atexit(at_exit);
    for (size_t i = 0; i < sizeof signals / sizeof *signals; i++) {
        if (sigaction(signals[i], NULL, olds[i]) != 0 ||
            olds[i]->sa_handler != SIG_DFL)
            continue; /* the application's own handler, or SIG_IGN */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        for (size_t j = 0; j < sizeof signals / sizeof *signals; j++)
            sigaddset(&sa.sa_mask, signals[j]);
        sa.sa_flags = SA_RESTART;
        sigaction(signals[i], &sa, NULL);
    }
}

void cp_partial_teardown(void)
{
    for (size_t i = 0; i < sizeof signals / sizeof *signals; i++) {
        struct sigaction now;
        if (sigaction(signals[i], NULL, &now) == 0 &&
            now.sa_handler == on_signal)
            sigaction(signals[i], olds[i], NULL);
    }
}
