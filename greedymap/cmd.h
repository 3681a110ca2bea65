/* cmd.h: what the subcommands of the greedymap command share: one option
 * parser, the machine options, reading the task graph, writing and
 * printing mappings. */
#ifndef TOPOMAP_GREEDYMAP_CMD_H
#define TOPOMAP_GREEDYMAP_CMD_H

#include <stdio.h>

#include "cli.h"
#include "greedymap.h"

/* The options every subcommand that describes a machine takes (help). */
#define CMD_MACHINE_HELP                                                     \
    "machine:\n"                                                             \
    "  --nodes N            N nodes called node0 .. node{N-1} (default: every\n" \
    "                       host position of --network; required on flat)\n" \
    "  --slots S            processors per node (default 1)\n"             \
    "  --hostfile FILE      Open MPI hostfile (\"host slots=S\") instead of\n" \
    "                       --nodes and --slots\n"                          \
    "  --network SPEC       flat (default), torus:AxBx.., mesh:AxB..,\n"    \
    "                       fattree:FILE, dragonfly:G,R,N or graph:FILE\n"   \
    "  --positions FILE     where each host sits on the network\n"          \
    "  --node-topology T    hwloc synthetic string (\"pack:2 core:16 pu:1\")\n" \
    "                       or hwloc XML file, the same for every node\n" \
    "  --hierarchy A1:A2:.. --distance D1:D2:..  KaHIP's and SharedMap's\n" \
    "                       machine: groups of A1 processors, A2 of those..;\n" \
    "                       two processors cost the D of the highest level\n" \
    "                       that separates them (J; the first levels make\n" \
    "                       a node, the rest group nodes in order)\n"

/* The options for reading the task graph (help). */
#define CMD_GRAPH_HELP                                                       \
    "graph (any format taskgraph reads):\n"                                  \
    "  --from FORMAT        json, metis, scotch or mtx, overriding the\n"   \
    "                       extension\n"                                     \
    "  --layer NAME         map type layer NAME of a .tg.json graph instead\n" \
    "                       of the graph itself (for a graph built from\n"  \
    "                       several types: their Sum or Weighted-sum)\n"   \
    "  --grid D0xD1x..[,P0,P1,..]  the tasks form this Cartesian grid in\n" \
    "                       row-major order (P = 1: the dimension wraps),\n" \
    "                       replacing the graph's own grid (decompose)\n"

/* Option groups a subcommand accepts. */
enum {
    CMD_OPT_MACHINE = 1 << 0, /* the CMD_MACHINE_HELP options */
    CMD_OPT_GRAPH = 1 << 1,   /* --from, --layer, --grid */
    CMD_OPT_WRITE = 1 << 2,   /* -o, --rankfile, -v */
    CMD_OPT_SEED = 1 << 3,    /* --seed */
    CMD_OPT_CONFIG = 1 << 4,  /* --config */
    CMD_OPT_EVAL = 1 << 5     /* --mapping, --mapping-format,
                               * --scotch-by-node, --json */
};

typedef struct cmd_args {
    const char *pos[2]; /* positional arguments */
    int npos;
    int nodes, slots;   /* 0: not given */
    const char *hostfile, *network, *positions, *node_topology;
    const char *hierarchy, *distance; /* greedymap only */
    tg_read_options read;
    const char *layer;
    const char *output, *rankfile;
    int verbose;
    uint64_t seed;
    int have_seed;
    const char *config;
    const char *mapping, *mapping_format;
    int by_node, json;
    const char *grid;   /* --grid */
} cmd_args;

/* getopt_long codes of the machine, graph and seed options, and their
 * entries of a struct option table, for a command with options of its
 * own (parmapper): its codes start at CMD_CODES_END. */
enum {
    CMD_NODES = 256, CMD_SLOTS, CMD_HOSTFILE, CMD_NETWORK, CMD_POSITIONS,
    CMD_NODE_TOPOLOGY, CMD_FROM, CMD_LAYER, CMD_SEED, CMD_GRID,
    CMD_CODES_END
};
#define CMD_SHARED_LONGOPTS                                                  \
    {"nodes", required_argument, NULL, CMD_NODES},                           \
        {"slots", required_argument, NULL, CMD_SLOTS},                       \
        {"hostfile", required_argument, NULL, CMD_HOSTFILE},                 \
        {"network", required_argument, NULL, CMD_NETWORK},                   \
        {"positions", required_argument, NULL, CMD_POSITIONS},               \
        {"node-topology", required_argument, NULL, CMD_NODE_TOPOLOGY},       \
        {"from", required_argument, NULL, CMD_FROM},                         \
        {"layer", required_argument, NULL, CMD_LAYER},                       \
        {"seed", required_argument, NULL, CMD_SEED},                         \
        {"grid", required_argument, NULL, CMD_GRID}

/* Take option c (a CMD_* code) with value v into a.  Returns 0, or the
 * exit code of a usage error (printed). */
int cmd_option(int c, const char *v, cmd_args *a);
/* The checks across the machine options (--hostfile against --nodes and
 * --slots, --positions without --network).  Returns 0 or the exit code
 * of a usage error (printed). */
int cmd_check(const cmd_args *a);

/* Parse argv (argv[0] is the subcommand) allowing the CMD_OPT_* groups in
 * `allowed` and exactly npos positional arguments.  Returns -1 when it
 * printed help, the exit code of a usage error, or 0. */
int cmd_parse(int argc, char **argv, const char *help, unsigned allowed,
              int npos, cmd_args *a);

/* The machine the options describe.  Returns an exit code. */
int cmd_machine(const cmd_args *a, gm_machine **out);

/* Read the task graph at path (the layer --layer names, if any) and check
 * that m has a slot for every task.  Returns an exit code. */
int cmd_graph(const cmd_args *a, const char *path, const gm_machine *m,
              tg_graph **out);

/* A library error about the value of option `opt`: a usage error (exit 2)
 * when it is about the text itself, else cli_fail (exit 1, a file's
 * error). */
int cmd_option_fail(const char *opt, const tg_error *err);

/* Every metric of a mapping as an aligned table: gm_evaluate's, then the
 * bytes of every level and J (gm_evaluate_levels); what eval prints and
 * map and baseline print with -v. */
void cmd_print_metrics(FILE *fp, const gm_machine *m, const gm_metrics *r,
                       const gm_level_metrics *lm);

int cmd_map(int argc, char **argv);
int cmd_baseline(int argc, char **argv);
int cmd_configs(int argc, char **argv);
int cmd_eval(int argc, char **argv);

#endif
