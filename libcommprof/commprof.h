/*
 * commprof.h: libcommprof, topomap's PMPI communication profiler.
 *
 * The library has no API of its own to call: it interposes on MPI.  Load
 * it into an unmodified application with LD_PRELOAD (Open MPI:
 * `mpirun -x LD_PRELOAD=.../libcommprof.so ./app`) or link it before the
 * MPI library.  At MPI_Finalize rank 0 writes the profile.
 *
 * Fortran programs are profiled too, whether they use mpif.h, `use mpi`
 * or `use mpi_f08`: libcommprof also defines the Fortran bindings of the
 * functions it intercepts (mpi_send_, MPI_SEND, mpi_send_f08_, ...), which
 * call the C ones, so a Fortran call is recorded once, exactly as the same
 * call from C, and the profile has the same form.
 *
 * It records point-to-point calls (probes and matched receives
 * included), every collective, blocking and nonblocking, the neighbourhood
 * collectives (peers from the communicator's topology), and one-sided
 * calls with their synchronisation; it is safe under MPI_THREAD_MULTIPLE.
 *
 * Controls, read at MPI_Init:
 *   COMMPROF_OUT     path of the profile (default commprof.json in the
 *                    working directory)
 *   COMMPROF_ENABLE  off: load but record and write nothing (default on)
 *   COMMPROF_START   off: record nothing until MPI_Pcontrol(1) (default
 *                    on, from MPI_Init)
 *                    Both take 0/off/no/false and 1/on/yes/true in any
 *                    case; any other value is warned and the default taken
 *   COMMPROF_CLOCK   tsc or monotonic: how calls are timed (default: the
 *                    TSC where the CPU's is invariant and the kernel
 *                    keeps time with it, else CLOCK_MONOTONIC; times are
 *                    written in ns either way)
 *   COMMPROF_CHECKPOINT  SECONDS (e.g. 10, 0.5): a thread writes each
 *                    rank's partial profile every SECONDS, so that a rank
 *                    SIGKILL ends leaves its counters as they were then
 *                    (removed at MPI_Finalize; default: no checkpoints)
 *   TOPOMAP_PROC_KIND  cpu or gpu: the variant this rank runs, recorded
 *                    (topomap-exec sets it)
 * When the application has loaded the CUDA driver itself, the bytes sent
 * are split by the memory kind of their buffers (pageable, pinned, device,
 * managed) and the GPU of the current context is recorded; libcommprof
 * never loads the driver or creates a context.
 * MPI_Pcontrol(0) stops recording, (1) starts it, (2) clears what was
 * recorded so far (the standard's and mpiP's levels); (k), k >= 3, starts
 * phase k (and recording): the profile then also holds what each rank
 * recorded in each phase, and `taskgraph build --phase k` builds from one
 * (at most 16 phases, the first, level 1, from MPI_Init).  The Cartesian
 * communicators the application creates are recorded with their dims,
 * periods and ranks.  A nonblocking receive (or a probed message) belongs to
 * the phase it was posted (probed) in: its bytes count when it completes,
 * recording or not.
 *
 * An application that never reaches MPI_Finalize (MPI_Abort, exit(),
 * SIGTERM/SIGINT, which mpirun sends the other ranks after an abort, or a
 * crash: SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) gets one partial
 * profile per rank that recorded anything, COMMPROF_OUT.rankR; `taskgraph
 * merge` combines them.  The SIGTERM/SIGINT handlers are installed at
 * MPI_Init only where the application has none; those of the fatal
 * signals always, handing the signal on to the handler that was there
 * before (or the default action) once the file is written; a handler the
 * application installs after MPI_Init replaces them.  SIGKILL leaves only
 * checkpoints (COMMPROF_CHECKPOINT).
 *
 * The profile is JSON, described in topomap-formats(5); these constants
 * are what its "format" and "version" members hold.
 */
#ifndef TOPOMAP_COMMPROF_H
#define TOPOMAP_COMMPROF_H

#define COMMPROF_FORMAT "topomap-commprof"
#define COMMPROF_VERSION 1

#endif
