/* parmapper.h: what the files of the parmapper program share (prefix
 * pm_).  parmapper is the parallel mapper of papers/001, 4.2: every rank
 * runs GreedyMap configurations until a time limit, rank 0 keeps the
 * Pareto front of the results and writes the chosen mapping as an Open
 * MPI rankfile, a Slurm hostfile, a topomap mapping and a report.
 *
 * The steps, in main.c: options (options.c); the job's hosts and the
 * cores it may use (discover.c); the machine and the graph, built or read
 * on rank 0 and sent to every rank (share.c); where each slot is on its
 * host, checked before the search (slots.c); the search (search.c); the
 * fronts gathered and one point chosen (gather.c); with --hetero, the
 * placement of each node's ranks on CPUs and GPUs (hetero.c); the outputs
 * (outputs.c, report.c).  Errors are agreed on by every rank (pm_agree),
 * reported once (by rank 0 unless only another rank failed), and every
 * rank exits with the same code after MPI_Finalize. */
#ifndef TOPOMAP_PARMAPPER_H
#define TOPOMAP_PARMAPPER_H

#include <mpi.h>
#include <stdint.h>

#include "cmd.h"
#include "ht_cli.h"
#include "pareto.h"
#include "tg_internal.h"

/* ---------------------------------------------------------------- options */

/* The launcher that started the job (launcher.c). */
typedef enum pm_launcher {
    PM_LAUNCH_NONE,  /* not known */
    PM_LAUNCH_OMPI4, /* Open MPI 4.1's mpirun (ORTE) */
    PM_LAUNCH_OMPI5, /* Open MPI 5's mpirun, PRRTE's prterun */
    PM_LAUNCH_HYDRA, /* MPICH's mpiexec (Hydra) */
    PM_LAUNCH_SLURM  /* Slurm's srun */
} pm_launcher;

/* The most --hetero inputs. */
#define PM_HETERO_MAX 16

typedef struct pm_options {
    cmd_args a;          /* graph, machine and --seed, as greedymap's */
    int offline;         /* --nodes, --slots or --hostfile was given */
    int tasks_per_slot;  /* --tasks-per-slot; 0 when not given: per host,
                          * pm_hosts_tasks_per_slot */
    const char *check_rankfile; /* --check-rankfile FILE: only that */
    double time;         /* --time in seconds; 0: none (only with --rounds) */
    int rounds;          /* --rounds (--first: 1); 0: until the time */
    double alpha;        /* --alpha (1.05) */
    pm_criterion select; /* --select (alpha) */
    int quiet;           /* --quiet: no progress lines */
    int no_levels;       /* --no-levels: no in-job levels (share.c) */
    const char *rankfile, *slurm_hostfile, *mapping, *report;
    const char *hydra_hostfile; /* --hydra-hostfile: MPICH's mpiexec -f */
    const char *hetero[PM_HETERO_MAX]; /* --hetero INPUT, in order */
    int nhetero;
    const char *placement; /* --placement (required with --hetero) */
    ht_cli het;            /* --calibration, --gpu-speedup, ... */
    pm_launcher launcher;  /* pm_default_outputs */
} pm_options;

/* Parse argv.  Returns -1 after printing help, an exit code after a usage
 * error, or 0.  Without MPI_Init too (parmapper --check-options, main.c):
 * it reads no file (paths only compared, tg_out_same) and calls no MPI
 * function but MPI_Get_library_version, which MPI allows before
 * MPI_Init. */
int pm_parse(int argc, char **argv, pm_options *o);

/* The launcher of this job: from the ranks' environment, else from the
 * MPI library (launcher.c has the rules; also before MPI_Init). */
pm_launcher pm_launcher_detect(void);
/* After pm_parse: o->launcher, and when no output option was given, the
 * launcher's form in the current folder: rankfile (Open MPI),
 * hydra-hostfile (Hydra), slurm-hostfile (srun).  Returns 0, or the exit
 * code after the message when the launcher is not known. */
int pm_default_outputs(pm_options *o);
/* The launch line of the rankfile on stdout: Open MPI 5's (--map-by
 * rankfile:file=) under Open MPI 5, else 4.1's (--rankfile). */
void pm_print_launch_rankfile(const pm_options *o);

/* --------------------------------------------------------------- the job */

/* One host of the job, as its first rank saw it with hwloc. */
typedef struct pm_host {
    char *name;      /* MPI_Get_processor_name */
    int cores;       /* cores of the host (hwloc, logical) */
    int packages;    /* packages (1 when hwloc shows none) */
    int ranks;       /* ranks of the job on it */
    int nusable;     /* cores the job may use: the union of its ranks'
                      * bindings (a core counts when one of its PUs is in) */
    int *core;       /* their logical indexes, ascending (nusable) */
    int *pu;         /* every core's first PU, by OS index (cores) */
    int *groups;     /* the levels of the usable cores: GM_NODE_LEVELS
                      * groups per core (gm_node_levels_describe) */
    int nnuma;       /* hwloc's NUMA latency costs, nnuma x nnuma */
    uint64_t *numa_cost; /* (nnuma 0: hwloc has no latency matrix) */
    int tasks_per_slot; /* ranks per usable core in the machine
                         * (pm_hosts_tasks_per_slot) */
} pm_host;

typedef struct pm_hosts {
    int n;
    pm_host *h;      /* in the order of their first rank */
} pm_hosts;

/* Collective over comm: the hosts of the job, on rank 0 (empty elsewhere).
 * Returns 0 or a TG_E* code (with err) on the rank that failed; agree
 * on it with pm_agree. */
int pm_discover(MPI_Comm comm, pm_hosts *out, tg_error *err);
void pm_hosts_free(pm_hosts *h);
/* The host called name, or NULL. */
const pm_host *pm_hosts_find(const pm_hosts *h, const char *name);
/* Rank 0, after pm_discover: every host's tasks per usable core, given
 * (--tasks-per-slot T > 0) or, when given is 0, the fewest that give each
 * of the host's ranks a slot: ceil(ranks on the host / usable cores), so
 * that a job with more ranks than cores on a host needs no option and
 * every slot of the rankfile is a core the host has. */
void pm_hosts_tasks_per_slot(pm_hosts *h, int given);
/* The tasks per core of a node with `slots` slots (a hostfile's slots=S)
 * on a host with `cores` cores: given when > 0, else ceil(slots / cores)
 * (1 when cores is 0, the host unknown).  Slot s is then core s / it. */
int pm_per_core(int given, int slots, int cores);

/* --check-rankfile (rankfile.c), rank 0 after pm_discover: every line of
 * the Open MPI rankfile at path names a host of the job (by name, first
 * label or +nK) and cores it has (logical, or SOCKET:CORES), no rank
 * twice.  Prints a line on stdout and returns 0, or returns 1 after a
 * message naming the file and line. */
int pm_rankfile_check(const char *path, const pm_hosts *hosts);

/* --------------------------------------------------------------- sharing */

/* The machine on every rank: built on rank 0 from the options (offline)
 * or from the hosts (each host's usable cores x --tasks-per-slot slots),
 * sent to the others, and placed on --network and --node-topology
 * everywhere.  Collective; returns the agreed exit code. */
int pm_share_machine(MPI_Comm comm, const pm_options *o,
                     const pm_hosts *hosts, gm_machine **out);
/* The graph on every rank: read on rank 0 (which checks that it fits on
 * m), sent to the others.  Collective; returns the agreed exit code. */
int pm_share_graph(MPI_Comm comm, const pm_options *o, const gm_machine *m,
                   tg_graph **out);

/* The end of a step every rank of comm ran: this rank's exit code rc (0,
 * 1 or 2) and, when not NULL, its error not yet printed.  Rank 0 prints
 * its own; another rank prints its own ("parmapper: rank R: ...") only
 * when rank 0 did not fail, so a failure that every rank meets is told
 * once.  Returns the largest rc of all ranks. */
int pm_agree(MPI_Comm comm, int rc, const tg_error *err);

/* ----------------------------------------------------------------- slots */

/* Where each slot of the machine lands on its host, for the rankfile and
 * the Slurm binding: core[n][s] is the logical core index ("slot=" of an
 * Open MPI rankfile) of node n's slot s, cpu[n][s] the OS index of its
 * first PU (Slurm's map_cpu). */
typedef struct pm_slots {
    int n;
    int **core, **cpu;
} pm_slots;

/* Check every slot of m against the hosts' hwloc topologies (rank 0) and
 * fill s.  Discovered machines: slot s of a host is its (s / its tasks
 * per slot)-th usable core.  Offline machines: on a node that is a host
 * of the job, slot s of S is core s / pm_per_core(--tasks-per-slot, S,
 * the host's cores), checked (with --tasks-per-slot, a core that the host
 * does not have is an error naming host and core); on any other node core
 * s / --tasks-per-slot (1 when not given), PU = core index.  Returns the
 * exit code. */
int pm_slots_make(const pm_options *o, const gm_machine *m,
                  const pm_hosts *hosts, pm_slots *s);
void pm_slots_free(pm_slots *s);

/* ---------------------------------------------------------------- search */

typedef struct pm_search pm_search;

/* What the search needs. */
typedef struct pm_search_input {
    const tg_graph *g;
    const gm_machine *m;
    const gm_config *configs;
    int nconfigs;
    uint64_t seed;
    double time;       /* seconds, 0: no limit */
    int rounds;        /* rounds of the portfolio, 0: no limit */
    unsigned eval_flags; /* for gm_evaluate */
    int quiet;         /* no progress lines (rank 0 prints them) */
} pm_search_input;

/* The seed of configuration `config` in round `round`: the user's seed in
 * round 0, later a splitmix64 mix of the three (never 0). */
uint64_t pm_seed(uint64_t seed, int config, int round);

/* Collective: run the portfolio on every rank of comm until the time
 * limit or the number of rounds and return this rank's results in *out
 * (always, also on failure: free with pm_search_free).  Returns 0 or a
 * TG_E* code with err. */
int pm_search_run(MPI_Comm comm, const pm_search_input *in, pm_search **out,
                  tg_error *err);
/* This rank's front, and the mapping of its point with number id. */
const pm_front *pm_search_front(const pm_search *s);
const gm_place *pm_search_mapping(const pm_search *s, int id);
/* Runs finished and runs cut short by the time limit on this rank. */
void pm_search_counts(const pm_search *s, int64_t *runs, int64_t *stopped);
/* 1 when the search ended because every rank had run all its jobs of
 * --rounds (not at the time limit): the result is then reproducible. */
int pm_search_complete(const pm_search *s);
/* The focus (search.c): the configurations that rounds after the first
 * run, cheapest first, in *configs; returns their number, 0 when the
 * search ended in round 0. */
int pm_search_focus(const pm_search *s, const int **configs);
/* Seconds from the start of the search to its end (the same on every
 * rank up to clock skew). */
double pm_search_seconds(const pm_search *s);
/* Frees s unless a run could not be stopped in time (its thread then
 * still uses the graph and the machine, which must stay alive). */
void pm_search_free(pm_search *s);
/* 1 when pm_search_free would leave the search to run until exit. */
int pm_search_abandoned(const pm_search *s);

/* ---------------------------------------------------------------- choice */

/* The global result on rank 0. */
typedef struct pm_result {
    pm_front front;       /* the global front */
    int chosen;           /* index into front.p */
    gm_place *map;        /* its mapping (g->n) */
    int64_t *runs, *stopped; /* per rank */
    int nranks;
    double seconds;       /* the search, as rank 0 timed it */
    int rounds_complete;  /* every rank ran all its jobs of --rounds */
    int *focus, nfocus;   /* pm_search_focus, copied */
} pm_result;

/* Collective: gather the fronts on rank 0, choose a point, and bring its
 * mapping to rank 0.  Returns the agreed exit code (1 when no run
 * finished, reported by rank 0). */
int pm_choose(MPI_Comm comm, const pm_options *o, const tg_graph *g,
              const pm_search *s, pm_result *r);
void pm_result_free(pm_result *r);

/* ---------------------------------------------------------------- hetero */

/* --hetero (papers/000 after papers/001's choice of nodes): on rank 0,
 * once GreedyMap has chosen each rank's node, libhetero decides per rank
 * CPU cores or a GPU and its memory kind, node by node. */
typedef struct pm_hetero {
    ht_input *in;     /* from the --hetero inputs (ht_input_load) */
    ht_node *node;    /* --node-topology, else this host (hwloc) */
    ht_placement *pl; /* the chosen placement, by rank */
    ht_cost gpu_first, all_cpu, chosen; /* predicted */
    int have_gpu_first, have_all_cpu;   /* 0: that placement does not fit */
    int gpu_ranks;    /* ranks the placement puts on a GPU */
    long evaluations; /* placements the search costed */
    double seconds;   /* of the search */
} pm_hetero;

/* Before the search: read the inputs, describe the node (with
 * --calibration), and check that the input has the graph's task count.
 * Returns the exit code after the message. */
int pm_hetero_load(const pm_options *o, const tg_graph *g, pm_hetero *h);
/* After the choice: every rank's host and local rank from the mapping
 * (rank t on node map[t].node, local rank its position among the tasks of
 * that node in rank order, as Open MPI numbers them with a rankfile), the
 * GPU-first and all-CPU placements for comparison, ht_search (seeded by
 * --seed) and ht_place.  Returns the exit code after the message. */
int pm_hetero_place(pm_hetero *h, const pm_options *o, const gm_machine *m,
                    const gm_place *map);
void pm_hetero_free(pm_hetero *h);

/* --------------------------------------------------------------- signals */

/* First thing in main, before MPI_Init: block SIGTERM, SIGINT and SIGHUP
 * in every thread to come and take them in a thread of our own, which
 * waits for pm_files_lock, tells (rank 0) and exits with 128 + the
 * signal (signals.c).  A signal ignored at the start stays ignored.
 * Returns 0, or -1 when that could not be set up (the signals then act
 * as they did at the start). */
int pm_signals_start(void);
/* This process's rank, for the message (only rank 0 prints it). */
void pm_signals_rank(int rank);
/* parmapper is ending with `status` (not 0) after saying why: a signal
 * from here on (mpirun ends a job's other ranks when one exits non-zero)
 * ends it quietly with that status, instead of a second message. */
void pm_signals_failing(int status);
/* Held while an output's temporary is on disk: a signal then ends the
 * process only after pm_files_unlock.  committed: the outputs were
 * written (the message then says so). */
void pm_files_lock(void);
void pm_files_unlock(int committed);

/* --------------------------------------------------------------- outputs */

/* The output files on rank 0, tried before the search (so that an
 * unwritable path is found at once), written and committed together at
 * the end. */
enum { PM_OUT_RANKFILE, PM_OUT_SLURM, PM_OUT_MAPPING, PM_OUT_REPORT,
       PM_OUT_PLACEMENT, PM_OUT_HYDRA, PM_OUT_BINDING, PM_OUTS };
typedef struct pm_outputs {
    tg_out f[PM_OUTS];
    int open[PM_OUTS];
} pm_outputs;

/* Check that every requested output can be created (a temporary made and
 * removed at once: nothing stays on disk during the search).  Returns
 * the exit code (after the message). */
int pm_outputs_check(const pm_options *o);
/* Remove the temporaries of every open output. */
void pm_outputs_abort(pm_outputs *out);
/* How srun and Hydra bind the ranks to the chosen cores (binding.c): one
 * map_cpu (-bind-to user:) list for every node when the k-th rank of
 * every node is on the same CPU; otherwise a topomap-exec placement that
 * binds each rank to its CPU, written to pm_binding_path. */
typedef struct pm_binding {
    int *cpus, ncpus;        /* the list; NULL when none fits */
    ht_placement *placement; /* else each rank's CPU */
    char *path;              /* where the placement goes */
} pm_binding;

/* The placement's path: the Slurm hostfile's (else Hydra's) path with
 * ".placement.json" added; NULL without either (or out of memory). */
char *pm_binding_path(const pm_options *o);
/* The binding of mapping map (n ranks) with --slurm-hostfile or
 * --hydra-hostfile (empty without).  Returns 0, or 1 after a message. */
int pm_binding_make(const pm_options *o, const gm_machine *m,
                    const pm_slots *s, const gm_place *map, int n,
                    pm_binding *b);
void pm_binding_free(pm_binding *b);

/* What the report describes besides the result. */
typedef struct pm_report_input {
    const pm_options *o;
    const tg_graph *g;
    const gm_machine *m;
    const pm_hosts *hosts;      /* discovered hosts (may be empty) */
    const gm_config *configs;
    int nconfigs;
    const pm_result *r;
    const gm_metrics *chosen;   /* every metric of the chosen mapping */
    const gm_metrics *deflt;    /* every metric of the block mapping */
    const gm_level_metrics *chosen_levels, *deflt_levels; /* J */
    const pm_binding *bind;     /* srun's and Hydra's binding */
    const pm_hetero *hetero;    /* --hetero's result, NULL without */
    double total_seconds;
    int nranks;
} pm_report_input;

/* Open, write and commit every requested output for the chosen mapping.
 * The Slurm hostfile lists the nodes of the ranks in rank order; the
 * rankfile binds rank t to the core of its slot; the placement is
 * in->hetero's; in->bind's placement, when it has one, goes to its path.  Returns the exit code;
 * on failure nothing is left behind. */
int pm_outputs_write(pm_outputs *out, const pm_report_input *in,
                     const pm_slots *s);

/* The report ("topomap-parmapper-report", version 1) into fp, which
 * becomes path; 0, or a TG_E* code with err naming path. */
int pm_report_write(FILE *fp, const char *path, const pm_report_input *in,
                    tg_error *err);

#endif
