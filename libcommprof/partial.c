/* partial.c: what a rank leaves when the application never reaches
 * MPI_Finalize.
 *
 * Each way out writes this rank's partial profile (<COMMPROF_OUT>.rank<R>,
 * see topomap-formats(5)) once, if it recorded anything: MPI_Abort
 * (lifecycle.c writes it before PMPI_Abort), exit() or a return from main
 * without MPI_Finalize (an atexit hook), SIGTERM or SIGINT, which mpirun
 * sends to the other ranks once one has aborted or died, and a user's
 * Ctrl-C, and the fatal signals of a crash: SIGSEGV, SIGBUS, SIGFPE,
 * SIGILL and SIGABRT.  The file is written with async-signal-safe calls
 * only (a static buffer, open, write, fsync, rename: no malloc, no stdio,
 * no lock), from names made at MPI_Init.
 *
 * SIGTERM and SIGINT: handled only where the application has no handler
 * (nor ignores the signal) at MPI_Init; the handler writes, puts the
 * previous disposition back and raises the signal again, so the process
 * ends as it would have.  mpirun (Open MPI 4.1) ends the other ranks with
 * SIGCONT, SIGTERM and SIGKILL, a second apart, but each pause is cut short
 * as soon as one of its children ends: the first rank to die after SIGTERM
 * brings SIGKILL to the rest.  So a rank does not die the moment its own
 * file is written: it lingers LINGER_MS first, time for the others to
 * finish theirs.
 *
 * Fatal signals: handled from MPI_Init whatever was there before (Open MPI
 * installs its own backtrace handler for most of them in MPI_Init, and an
 * application may have one), on an alternate stack (SA_ONSTACK; one is set
 * up for the thread that calls MPI_Init when it has none) so that a stack
 * overflow still writes.  The handler writes the file, puts the previous
 * disposition back (the application's handler, Open MPI's, or the default)
 * and lets the signal happen again: a fault (SIGSEGV from a bad address,
 * SIGFPE from a division...) by returning, so that the instruction faults
 * anew with the same siginfo, and a signal that was sent (raise, kill,
 * abort) by raising it again.  The previous handler or the default action
 * (core dump, the exit status of a death by that signal) then happens as
 * without the profiler.  The kernel calls one handler per signal: when the
 * application installs its own after MPI_Init, that one replaces ours and
 * libcommprof writes nothing on that signal (the application's choice is
 * respected, not undone).  Once our handler has run, the previous
 * disposition stays: an application whose handler survives the signal
 * (a handler that recovers) has its partial file rewritten by a later end
 * (MPI_Abort, exit, SIGTERM, a checkpoint), with the counters of then, or
 * removed at MPI_Finalize, which writes the whole profile.  A fault inside the writer itself (a
 * heap the crash corrupted) is blocked during the handler, so the kernel
 * ends the process with the default action of that signal.
 *
 * SIGKILL cannot be caught: COMMPROF_CHECKPOINT=SECONDS starts a thread
 * that writes the partial file every SECONDS (through its own buffer and
 * temporary name, "checkpoint": true in the file), so a killed rank leaves
 * its counters as they were at most SECONDS before.  The thread has every
 * signal blocked, sleeps on a condition variable in between, and adds
 * nothing to the wrappers; it stops before MPI_Finalize writes the profile
 * and its file is removed then.  A checkpoint never overwrites a final
 * partial file: whichever of the two starts second waits for, or gives
 * way to, the other.
 *
 * Limits: SIGKILL without checkpoints, _exit() and the loss of the node
 * leave nothing; a call in progress when the end comes is not counted; an
 * application's own SIGTERM handler is left alone, and then nothing is
 * written on that signal.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cp_internal.h"

/* Made at MPI_Init: no allocation at the end. */
static char *path, *tmp, *ckpt_tmp;
static pid_t owner; /* a forked child is not the rank */
/* The partial file: 0 not written, 1 being written, 2 written; back to 0
 * when a fatal signal's write is done (the application's handler may
 * survive it: a later end writes again). */
enum { NOT_WRITTEN, WRITING, WRITTEN };
static int state;
static int written;
static struct sigaction old_term, old_int;

#define LINGER_MS 500
/* How long a fatal signal's handler waits for a write in progress in
 * another thread (or in its own, which it cannot know) before it lets the
 * signal go on. */
#define FATAL_WAIT_MS 2000

static const int signals[] = {SIGTERM, SIGINT};
static struct sigaction *const olds[] = {&old_term, &old_int};

static const int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
#define NFATAL (sizeof fatal / sizeof *fatal)
static struct sigaction old_fatal[NFATAL];
static int fatal_installed[NFATAL];

/* The alternate stack set up for the thread that called MPI_Init. */
#define ALT_STACK_SIZE (64 * 1024)
static void *alt_stack;
static pthread_t alt_thread;

/* Checkpoints (COMMPROF_CHECKPOINT). */
static pthread_t ckpt_thread;
static int ckpt_running, ckpt_stop, ckpt_busy, ckpt_written;
static pthread_mutex_t ckpt_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ckpt_cv;
static struct timespec ckpt_period;

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0 && errno == EINTR)
        ;
}

/* Write the partial file once.  wait_ms: how long to wait, when another
 * write is in progress, for it to finish (-1: as long as it takes).
 * Returns whether this call wrote it. */
static int partial_write(long wait_ms)
{
    if (!path || !cp.initialized || cp.finalized || getpid() != owner)
        return 0;
    for (;;) {
        int was = NOT_WRITTEN;
        if (__atomic_compare_exchange_n(&state, &was, WRITING, 0,
                                        __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
            break; /* this thread writes it */
        if (was == WRITTEN)
            return 0;
        /* Another thread is writing it (this one was interrupted by a
         * signal, or raced it to MPI_Abort): wait until it is whole. */
        long ms = 0;
        while ((was = __atomic_load_n(&state, __ATOMIC_ACQUIRE)) == WRITING &&
               (wait_ms < 0 || ms < wait_ms)) {
            sleep_ms(1);
            ms++;
        }
        if (was != NOT_WRITTEN)
            return 0;
        /* Written by a fatal signal's handler and open again: once more,
         * with the counters of now. */
    }
    /* No handler of ours may cut this thread's write short. */
    sigset_t block, saved;
    sigemptyset(&block);
    for (size_t i = 0; i < sizeof signals / sizeof *signals; i++)
        sigaddset(&block, signals[i]);
    pthread_sigmask(SIG_BLOCK, &block, &saved);
    /* A checkpoint being written finishes first (it saw no partial file
     * and will not rename after this), so this file is the last. */
    for (long ms = 0; __atomic_load_n(&ckpt_busy, __ATOMIC_SEQ_CST) &&
                      ms < FATAL_WAIT_MS;
         ms++)
        sleep_ms(1);
    if (cp_recorded_anything() && cp_write_partial(tmp, path) == 0)
        __atomic_store_n(&written, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&state, WRITTEN, __ATOMIC_RELEASE);
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    return 1;
}

void cp_partial_write(void)
{
    partial_write(-1);
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

/* A fatal signal: write, put the previous disposition back, and let the
 * signal happen again under it (see the top of the file). */
static void on_fatal(int sig, siginfo_t *info, void *ctx)
{
    (void)ctx;
    int saved_errno = errno;
    /* An application's handler may survive the signal: a later end
     * (MPI_Abort, exit, SIGTERM, a checkpoint) then writes the file again,
     * with the counters of then, instead of leaving those of the fault. */
    if (partial_write(FATAL_WAIT_MS))
        __atomic_store_n(&state, NOT_WRITTEN, __ATOMIC_SEQ_CST);
    for (size_t i = 0; i < NFATAL; i++)
        if (fatal[i] == sig) {
            sigaction(sig, &old_fatal[i], NULL);
            fatal_installed[i] = 0;
        }
    errno = saved_errno;
    /* si_code <= 0: sent by kill, raise, sigqueue, tgkill (abort raises
     * SIGABRT): send it again, delivered on return.  Else the kernel sent
     * it for an instruction, which faults again on return. */
    if (!info || info->si_code <= 0)
        raise(sig);
}

static void at_exit(void)
{
    cp_partial_write();
}

/* ------------------------------------------------------------ checkpoints */

static void *checkpoints(void *arg)
{
    (void)arg;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    pthread_mutex_lock(&ckpt_mu);
    for (;;) {
        next.tv_sec += ckpt_period.tv_sec;
        next.tv_nsec += ckpt_period.tv_nsec;
        if (next.tv_nsec >= 1000000000L) {
            next.tv_sec++;
            next.tv_nsec -= 1000000000L;
        }
        int rc = 0;
        while (!ckpt_stop && rc != ETIMEDOUT)
            rc = pthread_cond_timedwait(&ckpt_cv, &ckpt_mu, &next);
        if (ckpt_stop)
            break;
        pthread_mutex_unlock(&ckpt_mu);
        __atomic_store_n(&ckpt_busy, 1, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&state, __ATOMIC_SEQ_CST) == NOT_WRITTEN &&
            cp_recorded_anything() &&
            cp_write_checkpoint(ckpt_tmp, path) == 0)
            __atomic_store_n(&ckpt_written, 1, __ATOMIC_RELAXED);
        __atomic_store_n(&ckpt_busy, 0, __ATOMIC_SEQ_CST);
        pthread_mutex_lock(&ckpt_mu);
    }
    pthread_mutex_unlock(&ckpt_mu);
    return NULL;
}

/* COMMPROF_CHECKPOINT=SECONDS (a decimal number above 0): start the
 * thread. */
static void checkpoint_setup(void)
{
    const char *v = getenv("COMMPROF_CHECKPOINT");
    if (!v || !*v)
        return;
    char *end;
    double sec = strtod(v, &end);
    if (end == v || *end || !(sec >= 0.001 && sec <= 1e6)) {
        cp_warn("COMMPROF_CHECKPOINT=%s: not a number of seconds from "
                "0.001 to 1000000, no checkpoints",
                v);
        return;
    }
    ckpt_period.tv_sec = (time_t)sec;
    ckpt_period.tv_nsec = (long)((sec - (double)ckpt_period.tv_sec) * 1e9);
    size_t len = strlen(tmp) + 8;
    ckpt_tmp = malloc(len);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    int ok = ckpt_tmp && pthread_cond_init(&ckpt_cv, &ca) == 0;
    pthread_condattr_destroy(&ca);
    if (ok) {
        snprintf(ckpt_tmp, len, "%s.ckpt", tmp);
        ckpt_stop = 0;
        ok = pthread_create(&ckpt_thread, NULL, checkpoints, NULL) == 0;
        if (!ok)
            pthread_cond_destroy(&ckpt_cv);
    }
    if (!ok) {
        cp_warn("could not start the checkpoint thread: no checkpoints");
        free(ckpt_tmp);
        ckpt_tmp = NULL;
        return;
    }
    ckpt_running = 1;
}

/* Stop the thread (before MPI_Finalize's profile). */
static void checkpoint_stop(void)
{
    if (!ckpt_running)
        return;
    pthread_mutex_lock(&ckpt_mu);
    ckpt_stop = 1;
    pthread_cond_signal(&ckpt_cv);
    pthread_mutex_unlock(&ckpt_mu);
    pthread_join(ckpt_thread, NULL);
    pthread_cond_destroy(&ckpt_cv);
    ckpt_running = 0;
}

/* ------------------------------------------------------------ set-up */

/* An alternate stack for this thread, unless it has one. */
static void alt_stack_setup(void)
{
    stack_t now;
    if (sigaltstack(NULL, &now) != 0 || !(now.ss_flags & SS_DISABLE))
        return; /* the application's own, or none to be had */
    void *mem = malloc(ALT_STACK_SIZE);
    if (!mem)
        return;
    stack_t ss = {.ss_sp = mem, .ss_size = ALT_STACK_SIZE, .ss_flags = 0};
    if (sigaltstack(&ss, NULL) != 0) {
        free(mem);
        return;
    }
    alt_stack = mem;
    alt_thread = pthread_self();
}

static void fatal_setup(void)
{
    alt_stack_setup();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fatal;
    sigemptyset(&sa.sa_mask);
    for (size_t j = 0; j < NFATAL; j++)
        sigaddset(&sa.sa_mask, fatal[j]);
    for (size_t j = 0; j < sizeof signals / sizeof *signals; j++)
        sigaddset(&sa.sa_mask, signals[j]);
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    for (size_t i = 0; i < NFATAL; i++) {
        if (sigaction(fatal[i], NULL, &old_fatal[i]) != 0 ||
            (!(old_fatal[i].sa_flags & SA_SIGINFO) &&
             old_fatal[i].sa_handler == SIG_IGN))
            continue; /* ignored: left so */
        fatal_installed[i] = sigaction(fatal[i], &sa, NULL) == 0;
    }
}

void cp_partial_setup(void)
{
    const char *out = cp.out;
    if (!out)
        return;
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
    fatal_setup();
    checkpoint_setup();
}

/* Before MPI_Finalize writes the profile. */
void cp_partial_stop(void)
{
    checkpoint_stop();
}

void cp_partial_teardown(void)
{
    for (size_t i = 0; i < sizeof signals / sizeof *signals; i++) {
        struct sigaction now;
        if (sigaction(signals[i], NULL, &now) == 0 &&
            now.sa_handler == on_signal)
            sigaction(signals[i], olds[i], NULL);
    }
    for (size_t i = 0; i < NFATAL; i++) {
        struct sigaction now;
        if (fatal_installed[i] && sigaction(fatal[i], NULL, &now) == 0 &&
            (now.sa_flags & SA_SIGINFO) && now.sa_sigaction == on_fatal)
            sigaction(fatal[i], &old_fatal[i], NULL);
        fatal_installed[i] = 0;
    }
    /* The stack goes when it is this thread's and not in use; on another
     * thread it stays (the thread that called MPI_Init may still use it). */
    stack_t now;
    if (alt_stack && pthread_equal(alt_thread, pthread_self()) &&
        sigaltstack(NULL, &now) == 0 && now.ss_sp == alt_stack &&
        !(now.ss_flags & SS_ONSTACK)) {
        stack_t off = {.ss_sp = NULL, .ss_size = 0, .ss_flags = SS_DISABLE};
        if (sigaltstack(&off, NULL) == 0) {
            free(alt_stack);
            alt_stack = NULL;
        }
    }
    /* The whole profile is written: a checkpoint, or the file of a fatal
     * signal the application's handler survived, would only mislead. */
    if (path && getpid() == owner &&
        (__atomic_load_n(&ckpt_written, __ATOMIC_RELAXED) ||
         __atomic_load_n(&written, __ATOMIC_RELAXED)))
        unlink(path);
    free(ckpt_tmp);
    ckpt_tmp = NULL;
}
