/* options.c: parmapper's command line and help. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "parmapper.h"

static const char help[] =
    "usage: mpirun [MPIRUN-ARGS...] parmapper GRAPH [--time SECONDS]\n"
    "           [--rounds R | --first] [--seed S] [--alpha A]\n"
    "           [--select alpha|avg|max|maxload] [--quiet] [--rankfile FILE]\n"
    "           [--slurm-hostfile FILE] [--hydra-hostfile FILE]\n"
    "           [--mapping FILE] [--report FILE]\n"
    "           [--hetero INPUT... --placement FILE] [placement options]\n"
    "           [--tasks-per-slot T] [--no-levels] [machine options]\n"
    "           [graph options]\n"
    "       parmapper GRAPH --nodes N --slots S [--network SPEC] ...\n"
    "                                                (offline, one rank)\n"
    "       mpirun [MPIRUN-ARGS...] --map-by ppr:1:node parmapper\n"
    "           --check-rankfile FILE\n"
    "       parmapper --check-options ARGS...\n"
    "\n"
    "Map GRAPH's tasks onto the processors of this job (papers/001, 4.2):\n"
    "every rank runs GreedyMap configurations of the portfolio and the\n"
    "baselines block, rb, drb and (graphs with a grid) decompose once,\n"
    "then again and again with new seeds those that take a seed and that\n"
    "no other beat by more than 5 % in both average and maximum hop-bytes,\n"
    "until the time limit; rank 0 keeps the\n"
    "Pareto front of average and maximum hop-bytes and writes the chosen\n"
    "mapping.  Run it in the application's allocation, before the\n"
    "application, with as many ranks as the application will have (bound\n"
    "to cores).\n"
    "\n"
    "  --check-rankfile FILE\n"
    "                       map nothing: check that every line of the Open\n"
    "                       MPI rankfile FILE names a host of this job and\n"
    "                       cores that host has (hwloc), and that no rank\n"
    "                       appears twice; a message naming the line, exit\n"
    "                       1, when not.  Run it with the application's\n"
    "                       launcher options and one rank per node\n"
    "                       (topomap-run --rankfile does)\n"
    "  --check-options ARGS...\n"
    "                       (first, for scripts) map nothing: read ARGS,\n"
    "                       GRAPH and options, as a run would, without MPI\n"
    "                       and without opening a file: exit 0 and no\n"
    "                       output when a run would take them, else the\n"
    "                       run's message and exit 2.  GRAPH, --network\n"
    "                       SPEC and the other inputs are read, and the\n"
    "                       outputs tried, only by the run\n"
    "\n"
    "search:\n"
    "  --time SECONDS       time limit of the search (> 0)\n"
    "  --rounds R           stop after R rounds: every configuration once\n"
    "                       (with --seed), then R - 1 runs of each one of\n"
    "                       the focus (with seeds mixed from --seed); the\n"
    "                       result is then the same for any number\n"
    "                       of ranks and any machine speed.  At least one of\n"
    "                       --time and --rounds; with both, what comes first\n"
    "  --first              --rounds 1\n"
    "  --seed S             seed of the first run of every configuration\n"
    "                       (default 0: ties broken without randomness);\n"
    "                       later runs get seeds mixed from S\n"
    "  --select CRITERION   alpha (default): among the points whose average\n"
    "                       is <= A x the smallest average, the smallest\n"
    "                       maximum; avg, max: the smallest average, maximum;\n"
    "                       maxload: the smallest max link load\n"
    "  --alpha A            A >= 1 (default 1.05)\n"
    "  --quiet              no progress lines (by default rank 0 prints one\n"
    "                       on standard error every 3 s of the search: time,\n"
    "                       runs, best average and maximum so far, time\n"
    "                       left; on a terminal, one line rewritten)\n"
    "\n"
    "output (each written only when the whole run succeeds; without any,\n"
    "the form of the launcher that started the job, found from the ranks'\n"
    "environment or the MPI library, in this folder: rankfile (Open MPI),\n"
    "hydra-hostfile (MPICH's Hydra) or slurm-hostfile (srun)):\n"
    "  --rankfile FILE      Open MPI rankfile: \"rank N=host slot=CORE\",\n"
    "                       CORE the logical core index on host; the\n"
    "                       matching mpirun line (Open MPI 4.1's or 5's)\n"
    "                       is printed\n"
    "  --slurm-hostfile FILE\n"
    "                       one host per rank, for SLURM_HOSTFILE with\n"
    "                       srun --distribution=arbitrary; the matching\n"
    "                       --cpu-bind=map_cpu: list is printed, or, when\n"
    "                       no one list binds every node's ranks to their\n"
    "                       cores, FILE.placement.json is written for\n"
    "                       topomap-exec and the line runs it\n"
    "  --hydra-hostfile FILE\n"
    "                       one host per rank, for MPICH's mpiexec -f FILE\n"
    "                       (Hydra); the matching -bind-to user: list is\n"
    "                       printed (or topomap-exec's, as for Slurm)\n"
    "  --mapping FILE       topomap mapping: \"task host slot\"\n"
    "  --report FILE        JSON: the Pareto front, the chosen point, the\n"
    "                       default (block) mapping, times and runs\n"
    "  --placement FILE     with --hetero: each rank's processor, GPU, cores\n"
    "                       and memory, for topomap-exec\n"
    "\n"
    "heterogeneous placement (after the choice, on each node's ranks):\n"
    "  --hetero INPUT       what each rank needs, as topomap-place reads it:\n"
    "                       libcommprof profiles (repeat the option: one per\n"
    "                       variant, cpu:FILE or gpu:FILE without\n"
    "                       TOPOMAP_PROC_KIND) or one topomap-hetero-input;\n"
    "                       the node is --node-topology, else this host.\n"
    "                       Run: mpirun --rankfile FILE topomap-exec\n"
    "                       PLACEMENT -- ./app\n"
    "  --calibration FILE   memprobe's file, for figures hwloc lacks\n"
    HT_CLI_HELP
    "                       (--seed also seeds the search's kicks)\n"
    "\n"
    "machine (default: the job's own hosts and the cores its ranks may use):\n"
    "  --nodes N            offline: N nodes node0 .. node{N-1} (default:\n"
    "                       every host position of --network)\n"
    "  --slots S            offline: processors per node (default 1)\n"
    "  --hostfile FILE      offline: Open MPI hostfile (\"host slots=S\")\n"
    "  --tasks-per-slot T   T tasks on each core.  Default: in a job, per\n"
    "                       host, its ranks / its usable cores rounded up\n"
    "                       (1 when it has a core per rank); offline, 1, and\n"
    "                       on a node that is a host of this job its slots\n"
    "                       share its cores evenly (slots=S on C cores: S/C\n"
    "                       rounded up per core)\n"
    "  --network SPEC       flat (default), torus:AxBx.., mesh:AxB..,\n"
    "                       fattree:FILE, dragonfly:G,R,N or graph:FILE\n"
    "  --positions FILE     where each host sits on the network\n"
    "  --node-topology T    hwloc synthetic string or XML file, the same for\n"
    "                       every node.  Without it, in a job, each host's\n"
    "                       own hwloc topology gives the levels of the\n"
    "                       cores the job may use there (package, NUMA\n"
    "                       node, L3, core), and the search counts bytes\n"
    "                       across them (J in the report)\n"
    "  --no-levels          in a job, leave the hosts' levels out (every\n"
    "                       two cores of a host cost the same), for\n"
    "                       comparison\n"
    "\n" CMD_GRAPH_HELP "\n"
    "  -h, --help           this help\n"
    "man parmapper has the details.\n";

/* The machine, graph and seed options are greedymap's (CMD_*, cmd.h). */
enum {
    OPT_TASKS_PER_SLOT = CMD_CODES_END, OPT_TIME, OPT_ROUNDS, OPT_FIRST,
    OPT_ALPHA, OPT_SELECT, OPT_RANKFILE, OPT_SLURM, OPT_HYDRA, OPT_MAPPING,
    OPT_REPORT,
    OPT_HETERO, OPT_PLACEMENT, OPT_CHECK_RANKFILE, OPT_QUIET, OPT_NO_LEVELS
};

static const struct option longopts[] = {
    {"help", no_argument, NULL, 'h'},
    CMD_SHARED_LONGOPTS,
    {"tasks-per-slot", required_argument, NULL, OPT_TASKS_PER_SLOT},
    {"time", required_argument, NULL, OPT_TIME},
    {"rounds", required_argument, NULL, OPT_ROUNDS},
    {"first", no_argument, NULL, OPT_FIRST},
    {"alpha", required_argument, NULL, OPT_ALPHA},
    {"select", required_argument, NULL, OPT_SELECT},
    {"rankfile", required_argument, NULL, OPT_RANKFILE},
    {"slurm-hostfile", required_argument, NULL, OPT_SLURM},
    {"hydra-hostfile", required_argument, NULL, OPT_HYDRA},
    {"mapping", required_argument, NULL, OPT_MAPPING},
    {"report", required_argument, NULL, OPT_REPORT},
    {"hetero", required_argument, NULL, OPT_HETERO},
    {"placement", required_argument, NULL, OPT_PLACEMENT},
    {"check-rankfile", required_argument, NULL, OPT_CHECK_RANKFILE},
    {"quiet", no_argument, NULL, OPT_QUIET},
    {"no-levels", no_argument, NULL, OPT_NO_LEVELS},
    HT_CLI_LONGOPTS,
    {NULL, 0, NULL, 0}};

/* --time: a positive number of seconds. */
static int parse_time(const char *s, double *t)
{
    if (cli_double("--time", s, 0, 1e9, t))
        return -1;
    if (*t <= 0) {
        cli_usage_error("--time wants a number of seconds > 0, not '%s'", s);
        return -1;
    }
    return 0;
}

static int parse_one(int c, const char *v, pm_options *o)
{
    int k;
    if (c < CMD_CODES_END) {
        /* A described machine instead of the job's own hosts. */
        o->offline |= c == CMD_NODES || c == CMD_SLOTS || c == CMD_HOSTFILE;
        return cmd_option(c, v, &o->a);
    }
    switch (c) {
    case OPT_TASKS_PER_SLOT:
        return cli_int("--tasks-per-slot", v, 1, 1 << 16, &o->tasks_per_slot);
    case OPT_TIME: return parse_time(v, &o->time);
    case OPT_ROUNDS: return cli_int("--rounds", v, 1, INT32_MAX, &o->rounds);
    case OPT_FIRST: o->rounds = 1; return 0;
    case OPT_ALPHA: return cli_double("--alpha", v, 1, 1e9, &o->alpha);
    case OPT_SELECT:
        k = pm_criterion_parse(v);
        if (k < 0) {
            cli_usage_error("--select: alpha, avg, max or maxload, not '%s'",
                            v);
            return -1;
        }
        o->select = (pm_criterion)k;
        return 0;
    case OPT_RANKFILE: o->rankfile = v; return 0;
    case OPT_SLURM: o->slurm_hostfile = v; return 0;
    case OPT_HYDRA: o->hydra_hostfile = v; return 0;
    case OPT_MAPPING: o->mapping = v; return 0;
    case OPT_REPORT: o->report = v; return 0;
    case OPT_HETERO:
        if (o->nhetero == PM_HETERO_MAX) {
            cli_usage_error("--hetero: at most %d inputs", PM_HETERO_MAX);
            return -1;
        }
        o->hetero[o->nhetero++] = v;
        return 0;
    case OPT_PLACEMENT: o->placement = v; return 0;
    case OPT_CHECK_RANKFILE: o->check_rankfile = v; return 0;
    case OPT_QUIET: o->quiet = 1; return 0;
    case OPT_NO_LEVELS: o->no_levels = 1; return 0;
    default:
        k = ht_cli_option(&o->het, c, v);
        if (k > 0) /* getopt_long returns only the table's values */
            cli_usage_error("unknown option");
        return k ? -1 : 0;
    }
}

/* --hetero and the options that go with it. */
static int check_hetero(pm_options *o)
{
    if (o->nhetero && !o->placement)
        return cli_usage_error("--hetero needs --placement FILE");
    if (!o->nhetero && o->placement)
        return cli_usage_error("--placement needs --hetero INPUT");
    if (!o->nhetero && o->het.given[0])
        return cli_usage_error("%s is for --hetero", o->het.given);
    o->het.par.seed = o->a.seed;
    return 0;
}

int pm_parse(int argc, char **argv, pm_options *o)
{
    memset(o, 0, sizeof *o);
    ht_cli_init(&o->het);
    o->alpha = 1.05;
    opterr = 0;
    optind = 1;
    int c, nopts = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        nopts++;
        if (c == 'h') {
            fputs(help, stdout);
            return -1;
        }
        if (c == ':')
            return cli_usage_error("option '%s' needs a value",
                                   argv[optind - 1]);
        if (c == '?')
            return cli_usage_error("unknown option '%s'", argv[optind - 1]);
        if (parse_one(c, optarg, o))
            return CLI_EXIT_USAGE;
    }
    if (o->check_rankfile) {
        if (nopts > 1 || optind < argc)
            return cli_usage_error("--check-rankfile FILE takes no task "
                                   "graph and no other option");
        return 0;
    }
    if (optind == argc)
        return cli_usage_error("no task graph given");
    if (optind + 1 < argc)
        return cli_usage_error("unexpected argument '%s'", argv[optind + 1]);
    o->a.pos[0] = argv[optind];
    o->a.npos = 1;
    if (!o->time && !o->rounds)
        return cli_usage_error("give --time SECONDS, --rounds R or --first");
    int rc = cmd_check(&o->a);
    if (!rc)
        rc = check_hetero(o);
    if (!rc)
        rc = pm_default_outputs(o);
    if (rc)
        return rc;
    char *bind = pm_binding_path(o);
    const char *outs[PM_OUTS] = {o->rankfile, o->slurm_hostfile, o->mapping,
                                 o->report, o->placement, o->hydra_hostfile,
                                 bind};
    static const char *const names[PM_OUTS] = {
        "--rankfile", "--slurm-hostfile", "--mapping", "--report",
        "--placement", "--hydra-hostfile",
        "the hostfile's binding placement (FILE.placement.json)"};
    for (int i = 0; i < PM_OUTS; i++) {
        for (int k = 0; k < i; k++)
            if (outs[i] && outs[k] && tg_out_same(outs[i], outs[k])) {
                free(bind);
                return cli_usage_error("%s and %s name the same file",
                                       names[k], names[i]);
            }
    }
    free(bind);
    return 0;
}
