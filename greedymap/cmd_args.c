/* cmd_args.c: the greedymap command's option parser, and the machine and
 * task graph its options describe. */
#include <getopt.h>
#include <inttypes.h>
#include <string.h>

#include "cmd.h"
#include "gm_internal.h" /* GM_MACHINE_MAX */
#include "tg_internal.h"

enum {
    OPT_RANKFILE = CMD_CODES_END, OPT_CONFIG, OPT_MAPPING,
    OPT_MAPPING_FORMAT, OPT_BY_NODE, OPT_JSON, OPT_HIERARCHY, OPT_DISTANCE
};

static const struct option longopts[] = {
    {"help", no_argument, NULL, 'h'},
    CMD_SHARED_LONGOPTS,
    {"output", required_argument, NULL, 'o'},
    {"rankfile", required_argument, NULL, OPT_RANKFILE},
    {"verbose", no_argument, NULL, 'v'},
    {"config", required_argument, NULL, OPT_CONFIG},
    {"mapping", required_argument, NULL, OPT_MAPPING},
    {"mapping-format", required_argument, NULL, OPT_MAPPING_FORMAT},
    {"scotch-by-node", no_argument, NULL, OPT_BY_NODE},
    {"json", no_argument, NULL, OPT_JSON},
    {"hierarchy", required_argument, NULL, OPT_HIERARCHY},
    {"distance", required_argument, NULL, OPT_DISTANCE},
    {NULL, 0, NULL, 0}};

/* The CMD_OPT_* group of an option. */
static unsigned group_of(int c)
{
    switch (c) {
    case CMD_NODES: case CMD_SLOTS: case CMD_HOSTFILE: case CMD_NETWORK:
    case CMD_POSITIONS: case CMD_NODE_TOPOLOGY: case OPT_HIERARCHY:
    case OPT_DISTANCE:
        return CMD_OPT_MACHINE;
    case CMD_FROM: case CMD_LAYER: case CMD_GRID:
        return CMD_OPT_GRAPH;
    case 'o': case OPT_RANKFILE: case 'v':
        return CMD_OPT_WRITE;
    case CMD_SEED:
        return CMD_OPT_SEED;
    case OPT_CONFIG:
        return CMD_OPT_CONFIG;
    case OPT_MAPPING: case OPT_MAPPING_FORMAT: case OPT_BY_NODE:
    case OPT_JSON:
        return CMD_OPT_EVAL;
    default:
        return 0;
    }
}

int cmd_option(int c, const char *v, cmd_args *a)
{
    int bad = 0;
    switch (c) {
    case CMD_NODES: bad = cli_int("--nodes", v, 1, GM_MACHINE_MAX, &a->nodes); break;
    case CMD_SLOTS: bad = cli_int("--slots", v, 1, INT32_MAX, &a->slots); break;
    case CMD_HOSTFILE: a->hostfile = v; break;
    case CMD_NETWORK: a->network = v; break;
    case CMD_POSITIONS: a->positions = v; break;
    case CMD_NODE_TOPOLOGY: a->node_topology = v; break;
    case CMD_FROM: bad = cli_format("--from", v, &a->read.format); break;
    case CMD_LAYER: a->layer = v; break;
    case CMD_GRID: a->grid = v; break;
    case CMD_SEED:
        bad = cli_u64("--seed", v, 0, UINT64_MAX, &a->seed);
        a->have_seed = 1;
        break;
    }
    return bad ? CLI_EXIT_USAGE : 0;
}

int cmd_check(const cmd_args *a)
{
    if (a->hostfile && (a->nodes || a->slots))
        return cli_usage_error("--hostfile gives the nodes and their slots: "
                               "drop --nodes and --slots");
    if (a->positions && !a->network)
        return cli_usage_error("--positions needs --network");
    if (!a->hierarchy != !a->distance)
        return cli_usage_error("--hierarchy and --distance go together");
    /* Written together, the second would replace the first. */
    if (a->output && a->rankfile && tg_out_same(a->output, a->rankfile))
        return cli_usage_error("-o and --rankfile name the same file");
    return 0;
}

int cmd_parse(int argc, char **argv, const char *help, unsigned allowed,
              int npos, cmd_args *a)
{
    memset(a, 0, sizeof *a);
    opterr = 0;
    optind = 1;
    int c, li = -1;
    while ((c = getopt_long(argc, argv, ":ho:v", longopts, &li)) != -1) {
        if (c == 'h') {
            fputs(help, stdout);
            return -1;
        }
        if (c == ':')
            return cli_usage_error("option '%s' needs a value",
                                   argv[optind - 1]);
        if (c == '?')
            return cli_usage_error("unknown option '%s'", argv[optind - 1]);
        if (!(group_of(c) & allowed)) {
            if (c == 'o' || c == 'v')
                return cli_usage_error("-%c does not apply here", c);
            return cli_usage_error("--%s does not apply here",
                                   longopts[li].name);
        }
        int bad = 0;
        switch (c) {
        case 'o': a->output = optarg; break;
        case OPT_RANKFILE: a->rankfile = optarg; break;
        case 'v': a->verbose = 1; break;
        case OPT_CONFIG: a->config = optarg; break;
        case OPT_MAPPING: a->mapping = optarg; break;
        case OPT_MAPPING_FORMAT: a->mapping_format = optarg; break;
        case OPT_BY_NODE: a->by_node = 1; break;
        case OPT_JSON: a->json = 1; break;
        case OPT_HIERARCHY: a->hierarchy = optarg; break;
        case OPT_DISTANCE: a->distance = optarg; break;
        default: bad = cmd_option(c, optarg, a); break;
        }
        if (bad)
            return CLI_EXIT_USAGE;
    }
    for (int i = optind; i < argc; i++) {
        if (a->npos == npos)
            return cli_usage_error("unexpected argument '%s'", argv[i]);
        a->pos[a->npos++] = argv[i];
    }
    if (a->npos < npos)
        return cli_usage_error("missing argument%s", npos > 1 ? "s" : "");
    return cmd_check(a);
}

int cmd_option_fail(const char *opt, const tg_error *err)
{
    if (err->source[0])
        return cli_fail(err);
    return cli_usage_error("%s: %s", opt, err->text);
}

int cmd_machine(const cmd_args *a, gm_machine **out)
{
    tg_error err;
    gm_network *net = NULL;
    gm_machine *m = NULL;
    int rc = 0;
    if (a->network && gm_network_parse(a->network, &net, &err))
        return cmd_option_fail("--network", &err);
    if (a->hostfile) {
        if (gm_machine_read_hostfile(a->hostfile, &m, &err))
            rc = cli_fail(&err);
    } else {
        int nodes = a->nodes ? a->nodes : net ? gm_network_positions(net) : 0;
        if (!nodes)
            rc = cli_usage_error("give --nodes N (and --slots S) or "
                                 "--hostfile FILE");
        else if (gm_machine_uniform(nodes, a->slots ? a->slots : 1, &m,
                                    &err))
            rc = cli_fail(&err);
    }
    if (rc) {
        gm_network_free(net);
        return rc;
    }
    /* gm_machine_set_network takes net, also when it fails. */
    if ((net && gm_machine_set_network(m, net, a->positions, &err)) ||
        (a->node_topology &&
         gm_machine_set_node_topology(m, a->node_topology, &err))) {
        gm_machine_free(m);
        return cli_fail(&err);
    }
    if (a->hierarchy &&
        gm_machine_set_hierarchy(m, a->hierarchy, a->distance, &err)) {
        gm_machine_free(m);
        return cmd_option_fail("--hierarchy", &err);
    }
    *out = m;
    return 0;
}

/* Keep only layer `name` of g as the graph. */
static int pick_layer(tg_graph **g, const char *path, const char *name)
{
    tg_graph *full = *g;
    tg_error err;
    for (int i = 0; i < full->nlayers; i++)
        if (!strcmp(full->layers[i].name, name)) {
            *g = full->layers[i].graph;
            full->layers[i].graph = NULL;
            tg_graph_free(full);
            return 0;
        }
    char names[400] = "";
    for (int i = 0; i < full->nlayers; i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                 i ? ", " : "", full->layers[i].name);
    if (full->nlayers)
        tg_error_set(&err, TG_EINVAL, path, 0,
                     "no layer '%s' (its layers: %s)", name, names);
    else
        tg_error_set(&err, TG_EINVAL, path, 0,
                     "no layer '%s': the graph has no type layers", name);
    tg_graph_free(full);
    *g = NULL;
    return cli_fail(&err);
}

int cmd_graph(const cmd_args *a, const char *path, const gm_machine *m,
              tg_graph **out)
{
    tg_error err;
    tg_graph *g;
    cli_step("reading %s", path);
    int rc = tg_read(path, &a->read, &g, &err);
    cli_done();
    if (rc)
        return cli_fail(&err);
    if (a->layer && (rc = pick_layer(&g, path, a->layer)))
        return rc;
    if (a->grid) {
        tg_grid gr;
        if (gm_grid_parse(a->grid, &gr, &err)) {
            tg_graph_free(g);
            return cmd_option_fail("--grid", &err);
        }
        if (tg_graph_set_grid(g, gr.ndims, gr.dims, gr.periods, NULL,
                              &err)) {
            tg_graph_free(g);
            return cli_usage_error("--grid %s: %s", a->grid, err.text);
        }
    }
    int64_t slots = gm_machine_total_slots(m);
    if (g->n > slots) {
        tg_error_set(&err, TG_EINVAL, path, 0,
                     "%d tasks, but the machine has only %" PRId64 " slots",
                     g->n, slots);
        tg_graph_free(g);
        return cli_fail(&err);
    }
    *out = g;
    return 0;
}
