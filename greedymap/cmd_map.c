/* cmd_map.c: greedymap map (GreedyMap), greedymap baseline (the reference
 * mappers) and greedymap configs (the portfolio). */
#include <inttypes.h>
#include <stdlib.h>
#include <unistd.h>

#include "cmd.h"

#define WRITE_HELP                                                           \
    "output:\n"                                                              \
    "  -o, --output MAP     the mapping, \"task host slot\" per line\n"      \
    "  --rankfile FILE      also an Open MPI rankfile (\"rank N=host slot=S\")\n" \
    "  -v, --verbose        every metric of the mapping on stderr, not just\n" \
    "                       the summary line\n"

static const char map_help[] =
    "usage: greedymap map GRAPH [machine options] [graph options]\n"
    "                     [--config TEXT] [--seed S] -o MAP [--rankfile FILE]\n"
    "                     [-v]\n"
    "\n"
    "Map GRAPH's tasks onto the machine with GreedyMap (papers/001,\n"
    "Algorithm 1) and write the mapping.  Without --config, the default\n"
    "configuration and the baselines block, rb, drb and (when the graph\n"
    "has a grid: its own, --grid, or a stencil it is) decompose all run,\n"
    "and the mapping of least total hop-bytes is kept (ties: the earlier\n"
    "in that order) and, unless it is decompose's, refined by swaps\n"
    "(refine=1), so the default is never worse than any of them.  Every\n"
    "other candidate within 2 % of it (but decompose) is refined too, and\n"
    "replaces it only when its refined total is lower.\n"
    "\n"
    "  --config TEXT        order=oo|bfs|bfsdfs|gpart|rcm|gpartrb|file:PATH,\n"
    "                       delta=all|sqrt|N, pack=0|1,\n"
    "                       cost=hopbytes|maxhopbytes|maxlinkload, wrap=0|1,\n"
    "                       centre=last|nbr, refine=0|1, seed=S: any\n"
    "                       subset, comma-separated; defaults order=oo,\n"
    "                       delta=all,pack=1,cost=hopbytes,wrap=1,\n"
    "                       centre=last,refine=0,seed=0; refine=1 (with\n"
    "                       cost=hopbytes only) improves the mapping by\n"
    "                       swaps afterwards.  Or baseline=KIND: a KIND\n"
    "                       of 'greedymap baseline' instead of GreedyMap,\n"
    "                       with seed= and refine= only ('greedymap\n"
    "                       configs' lists the portfolio)\n"
    "  --seed S             the seed for ties (and METIS in gpart and\n"
    "                       gpartrb), overriding seed= of --config\n"
    "\n" WRITE_HELP "\n" CMD_MACHINE_HELP "\n" CMD_GRAPH_HELP;

static const char baseline_help[] =
    "usage: greedymap baseline KIND GRAPH [machine options] [graph options]\n"
    "                          [--seed S] -o MAP [--rankfile FILE] [-v]\n"
    "\n"
    "Map GRAPH's tasks with a reference mapper (papers/001, 5.1):\n"
    "  block     task i on the i-th processor (node by node, slot by slot)\n"
    "  cyclic    round-robin over the nodes\n"
    "  hilbert   tasks in order along a Hilbert curve of the processors\n"
    "            (tori and meshes)\n"
    "  rb        recursive bisection with METIS\n"
    "  drb       rb whose every cut also weighs the edges to the tasks\n"
    "            outside it (dual recursive bipartitioning, as Scotch)\n"
    "  random    a random bijection\n"
    "  decompose the grid of tasks (the graph's, --grid, or a stencil it\n"
    "            is) cut into one box per node, crossing fewest bytes,\n"
    "            boxes embedded in a torus/mesh or along the network's\n"
    "            node order (Mapple's decompose)\n"
    "\n"
    "  --seed S             seed of random and of METIS in rb and drb\n"
    "                       (default 0)\n"
    "\n" WRITE_HELP "\n" CMD_MACHINE_HELP "\n" CMD_GRAPH_HELP;

static const char configs_help[] =
    "usage: greedymap configs [machine options]\n"
    "\n"
    "List GreedyMap's standard portfolio of configurations for the machine,\n"
    "one per line, numbered, each as a --config text for 'greedymap map'.\n"
    "\n" CMD_MACHINE_HELP;

/* Write the mapping (and rankfile) together, then report on stdout and the
 * metrics on stderr; a failure leaves both destinations as they were.
 * Returns the exit code. */
static int finish(const cmd_args *a, const tg_graph *g, const gm_machine *m,
                  const gm_place *map, const char *what)
{
    tg_error err;
    gm_metrics r;
    gm_level_metrics lm;
    cli_step("evaluating");
    int rc = gm_evaluate(g, m, map, 0, NULL, &r, &err);
    if (!rc && a->verbose)
        rc = gm_evaluate_levels(g, m, map, &lm, &err);
    cli_done();
    if (rc)
        return cli_fail(&err);
    if (gm_mapping_write_files(m, map, g->n, a->output, a->rankfile, &err))
        return cli_fail(&err);
    printf("wrote %s%s%s: %d tasks on %d nodes, %s\n", a->output,
           a->rankfile ? " and " : "", a->rankfile ? a->rankfile : "", g->n,
           gm_machine_nodes(m), what);
    if (a->verbose) {
        cmd_print_metrics(stderr, m, &r, &lm);
        return 0;
    }
    char link[256];
    fprintf(stderr,
            "hop-bytes avg %.2f, max %" PRIu64 "; dilation avg %.2f; "
            "offnode %.2f%%; max link load %" PRIu64 " (%s)\n",
            r.hop_bytes_avg, r.hop_bytes_max, r.dilation_avg,
            100 * r.offnode_share, r.load_max_heuristic,
            r.load_max_heuristic_link < 0
                ? "no link"
                : gm_link_name(m, r.load_max_heuristic_link, link,
                               sizeof link));
    return 0;
}

/* What map and baseline run: GreedyMap with a configuration, or a
 * baseline with a seed, or (best) the best of the default configuration
 * and the baselines block, rb, drb and decompose. */
typedef struct mapper {
    const gm_config *config; /* GreedyMap when not NULL */
    gm_baseline baseline;
    uint64_t seed;
    int best;
} mapper;

/* Map `graph` (the GRAPH argument) onto the machine and write the result.
 * Returns the exit code. */
static int run(const cmd_args *a, const char *graph, const mapper *mp)
{
    gm_machine *m = NULL;
    tg_graph *g = NULL;
    gm_place *map = NULL;
    tg_error err;
    int rc = cmd_machine(a, &m);
    if (!rc)
        rc = cmd_graph(a, graph, m, &g);
    if (!rc && !(map = malloc(((size_t)g->n + 1) * sizeof *map))) {
        tg_error_set(&err, TG_ENOMEM, NULL, 0, "out of memory");
        rc = cli_fail(&err);
    }
    if (!rc) {
        char what[1200];
        cli_step("mapping");
        if (mp->best) {
            gm_config won;
            char text[1100];
            rc = gm_map_best(g, m, mp->config, map, &won, NULL, &err);
            snprintf(what, sizeof what,
                     "the least total hop-bytes of GreedyMap (default "
                     "configuration), block, rb, drb and decompose: %s",
                     gm_config_format(&won, text, sizeof text));
        } else if (mp->config) {
            rc = gm_greedymap(g, m, mp->config, map, &err);
            gm_config_format(mp->config, what, sizeof what);
        } else {
            rc = gm_baseline_map(g, m, mp->baseline, mp->seed, map, &err);
            snprintf(what, sizeof what, "baseline %s, seed %" PRIu64,
                     gm_baseline_name(mp->baseline), mp->seed);
        }
        cli_done();
        rc = rc ? cli_fail(&err) : finish(a, g, m, map, what);
    }
    free(map);
    tg_graph_free(g);
    gm_machine_free(m);
    return rc;
}

int cmd_map(int argc, char **argv)
{
    cmd_args a;
    int rc = cmd_parse(argc, argv, map_help,
                       CMD_OPT_MACHINE | CMD_OPT_GRAPH | CMD_OPT_WRITE |
                           CMD_OPT_SEED | CMD_OPT_CONFIG,
                       1, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (!a.output)
        return cli_usage_error("no output file: give -o FILE");
    gm_config c;
    tg_error err;
    if (gm_config_parse(a.config ? a.config : "", &c, &err))
        return cmd_option_fail("--config", &err);
    if (a.have_seed)
        c.seed = a.seed;
    mapper mp = {.config = &c, .best = !a.config};
    return run(&a, a.pos[0], &mp);
}

int cmd_baseline(int argc, char **argv)
{
    cmd_args a;
    int rc = cmd_parse(argc, argv, baseline_help,
                       CMD_OPT_MACHINE | CMD_OPT_GRAPH | CMD_OPT_WRITE |
                           CMD_OPT_SEED,
                       2, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (!a.output)
        return cli_usage_error("no output file: give -o FILE");
    mapper mp = {.seed = a.seed};
    tg_error err;
    if (gm_baseline_parse(a.pos[0], &mp.baseline, &err))
        return cmd_option_fail("KIND", &err);
    return run(&a, a.pos[1], &mp);
}

int cmd_configs(int argc, char **argv)
{
    cmd_args a;
    int rc = cmd_parse(argc, argv, configs_help, CMD_OPT_MACHINE, 0, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    gm_machine *m;
    if ((rc = cmd_machine(&a, &m)))
        return rc;
    gm_config *c;
    int n;
    tg_error err;
    if (gm_configurations(m, &c, &n, &err)) {
        gm_machine_free(m);
        return cli_fail(&err);
    }
    for (int i = 0; i < n; i++) {
        char text[1200];
        printf("%3d  %s\n", i + 1, gm_config_format(&c[i], text, sizeof text));
    }
    free(c);
    gm_machine_free(m);
    return 0;
}
