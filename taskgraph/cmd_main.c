/* cmd_main.c: the taskgraph command: dispatch, convert, info, combine. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char main_help[] =
    "usage: taskgraph COMMAND [options]\n"
    "\n"
    "Task graphs for topology mapping: who talks to whom, and how much.\n"
    "\n"
    "commands:\n"
    "  gen KIND ... -o FILE     generate a stencil, qbox or random-geometric\n"
    "                           graph\n"
    "  convert IN OUT           convert between formats\n"
    "  info FILE                tasks, edges, bytes, degrees, components,\n"
    "                           type layers\n"
    "  combine IN -o OUT        Sum or Weighted-sum of a graph's type layers\n"
    "  info PROFILE             a profile's ranks, hosts and per-type table\n"
    "  matrix PROFILE --type T  a profile's matrix of one type, per pair\n"
    "  merge PARTIAL... -o OUT  merge per-rank partial profiles\n"
    "  build PROFILE -o DIR     critical types, their graphs, Sum and\n"
    "                           Weighted-sum, and a summary\n"
    "\n"
    "Formats, by extension: .tg.json (native), .graph/.metis (METIS),\n"
    ".grf/.src (Scotch), .mtx/.mm (Matrix Market, read only).\n"
    "'taskgraph COMMAND --help' describes each command; --version prints\n"
    "the version; man taskgraph.\n";

/* The options that read a graph (convert, info). */
#define READ_HELP                                                            \
    "  --from FORMAT        json, metis, scotch or mtx\n"                    \
    "  --mtx-weights W      Matrix Market entries weigh 1 (pattern, the\n"   \
    "                       default) or |value| rounded (values)\n"

static const char convert_help[] =
    "usage: taskgraph convert IN OUT [--from FORMAT] [--to FORMAT]\n"
    "                         [--mtx-weights pattern|values]\n"
    "\n"
    "Read IN and write OUT; formats come from the extensions unless given.\n"
    READ_HELP
    "  --to FORMAT          json, metis or scotch\n"
    "Types, layers and the grid survive only in .tg.json.\n";

static const char info_help[] =
    "usage: taskgraph info FILE [--from FORMAT]\n"
    "                      [--mtx-weights pattern|values]\n"
    "\n"
    "Print the number of tasks and edges, total bytes, degree min/avg/max,\n"
    "connected components, the types the graph was built from and its type\n"
    "layers.\n"
    "For a profile (commprof.json, told by its \"format\"): world size,\n"
    "ranks, hosts, and per type, longest first: its share of the time all\n"
    "ranks spent communicating, time, calls, bytes, communicator sizes.\n"
    READ_HELP;

static const char combine_help[] =
    "usage: taskgraph combine IN -o OUT [--weights NAME=F,...]\n"
    "                         [--from FORMAT] [--to FORMAT]\n"
    "\n"
    "Combine the type layers of IN (papers/001, 4.1.1):\n"
    "  without --weights     Sum: edge weights of all layers added\n"
    "  --weights p2p=0.6,alltoall=0.4\n"
    "                        Weighted-sum: each layer's weights times its\n"
    "                        factor, rounded to whole bytes (a positive\n"
    "                        weight never rounds to 0); every layer needs a\n"
    "                        factor\n"
    "  --from FORMAT         json, metis, scotch or mtx, overriding IN's\n"
    "                        extension (only .tg.json files have layers)\n"
    "  --to FORMAT           json, metis or scotch, overriding the extension\n";

enum { OPT_FROM = 256, OPT_TO, OPT_MTX, OPT_WEIGHTS };

static const struct option longopts[] = {
    {"help", no_argument, NULL, 'h'},
    {"output", required_argument, NULL, 'o'},
    {"from", required_argument, NULL, OPT_FROM},
    {"to", required_argument, NULL, OPT_TO},
    {"mtx-weights", required_argument, NULL, OPT_MTX},
    {"weights", required_argument, NULL, OPT_WEIGHTS},
    {NULL, 0, NULL, 0}};

/* What a subcommand was given. */
typedef struct args {
    const char *pos[2]; /* positional arguments */
    int npos;
    const char *output, *weights;
    tg_read_options read;
    tg_format to;
} args;

/* The usage error for an option getopt_long returned as c (li: the index
 * of its long form, or -1) that the subcommand does not take: named as
 * written, "--to" or "-o", never by the value getopt_long took with it. */
static int refuse_option(char **argv, int c, int li)
{
    if (c == ':' || c == '?')
        return cli_getopt_error(argv, c);
    return li >= 0 ? cli_usage_error("unknown option '--%s'",
                                     longopts[li].name)
                   : cli_usage_error("unknown option '-%c'", c);
}

/* Parse argv (argv[0] is the subcommand) allowing the options in `allowed`
 * (a string of short letters, with 'F','T','M','W' for --from, --to,
 * --mtx-weights, --weights).  Returns -1 when it printed help, or the exit
 * code of a usage error, or 0. */
static int parse(int argc, char **argv, const char *help, const char *allowed,
                 int npos, args *a)
{
    memset(a, 0, sizeof *a);
    opterr = 0;
    optind = 1;
    int c, li = -1;
    while ((c = getopt_long(argc, argv, ":ho:", longopts, &li)) != -1) {
        int long_index = li;
        li = -1; /* getopt_long sets it only for a long option */
        char letter = c == OPT_FROM ? 'F' : c == OPT_TO ? 'T'
                    : c == OPT_MTX ? 'M' : c == OPT_WEIGHTS ? 'W' : (char)c;
        if (c == 'h') {
            fputs(help, stdout);
            return -1;
        }
        if (c == ':' || c == '?' || !strchr(allowed, letter))
            return refuse_option(argv, c, long_index);
        switch (c) {
        case 'o': a->output = optarg; break;
        case OPT_WEIGHTS: a->weights = optarg; break;
        case OPT_FROM:
            if (cli_format("--from", optarg, &a->read.format))
                return CLI_EXIT_USAGE;
            break;
        case OPT_TO:
            if (cli_format("--to", optarg, &a->to))
                return CLI_EXIT_USAGE;
            break;
        case OPT_MTX:
            if (!strcmp(optarg, "pattern"))
                a->read.mtx_weights = TG_MTX_PATTERN;
            else if (!strcmp(optarg, "values"))
                a->read.mtx_weights = TG_MTX_VALUES;
            else
                return cli_usage_error("--mtx-weights: 'pattern' or "
                                       "'values', not '%s'", optarg);
            break;
        }
    }
    for (int i = optind; i < argc; i++) {
        if (a->npos == npos)
            return cli_usage_error("unexpected argument '%s'", argv[i]);
        a->pos[a->npos++] = argv[i];
    }
    if (a->npos < npos)
        return cli_usage_error("missing argument%s", npos > 1 ? "s" : "");
    return 0;
}

static int read_graph(const char *path, const tg_read_options *opts,
                      tg_graph **g)
{
    tg_error err;
    cli_step("reading %s", path);
    int rc = tg_read(path, opts, g, &err);
    cli_done();
    return rc ? cli_fail(&err) : 0;
}

static int cmd_convert(int argc, char **argv)
{
    args a;
    int rc = parse(argc, argv, convert_help, "FTM", 2, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    tg_graph *g;
    if ((rc = read_graph(a.pos[0], &a.read, &g)))
        return rc;
    rc = cli_write_graph(a.pos[1], a.to, g);
    tg_graph_free(g);
    return rc;
}

/* "NAME: E edges, B bytes" for one layer. */
static void print_layer(const tg_layer *l)
{
    uint64_t total = 0;
    tg_graph_total_weight(l->graph, &total, NULL);
    printf("%s: %" PRId64 " edges, %" PRIu64 " bytes\n", l->name,
           l->graph->nedges, total);
}

static int cmd_info(int argc, char **argv)
{
    args a;
    int rc = parse(argc, argv, info_help, "FM", 1, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    tg_format from = a.read.format ? a.read.format
                                   : tg_format_from_path(a.pos[0]);
    if ((from == TG_FORMAT_JSON || from == TG_FORMAT_UNKNOWN) &&
        tg_profile_sniff(a.pos[0]))
        return cmd_info_profile(a.pos[0]);
    tg_graph *g;
    if ((rc = read_graph(a.pos[0], &a.read, &g)))
        return rc;
    tg_stats st;
    tg_error err;
    if (tg_graph_stats(g, &st, &err)) {
        tg_graph_free(g);
        return cli_fail(&err);
    }
    tg_format f = a.read.format ? a.read.format : tg_format_from_path(a.pos[0]);
    printf("%-13s%s (%s)\n", "file", a.pos[0], tg_format_name(f));
    printf("%-13s%d\n", "tasks", st.n);
    printf("%-13s%" PRId64 "\n", "edges", st.nedges);
    printf("%-13s%" PRIu64 "\n", "total bytes", st.total_weight);
    printf("%-13smin %d, avg %.2f, max %d\n", "degree", st.degree_min,
           st.degree_avg, st.degree_max);
    printf("%-13s%d (%d isolated task%s)\n", "components", st.components,
           st.isolated, st.isolated == 1 ? "" : "s");
    printf("%-13s", "types");
    if (!g->ntypes)
        printf("none recorded");
    for (int i = 0; i < g->ntypes; i++)
        printf("%s%s (factor %.6g)", i ? ", " : "", g->types[i].name,
               g->types[i].factor);
    printf("\n");
    printf("%-13s", "layers");
    if (!g->nlayers)
        printf("none\n");
    for (int i = 0; i < g->nlayers; i++) {
        printf("%*s", i ? 13 : 0, "");
        print_layer(&g->layers[i]);
    }
    if (g->grid.ndims) {
        printf("%-13s", "grid");
        for (int i = 0; i < g->grid.ndims; i++)
            printf("%s%d%s", i ? "x" : "", g->grid.dims[i],
                   g->grid.periods[i] ? "p" : "");
        printf(" (p: periodic)%s\n",
               g->grid.task ? ", tasks permuted" : "");
    }
    tg_graph_free(g);
    return 0;
}

/* Parse "name=f,name=f" into one factor per layer of g, in layer order. */
static int layer_factors(const tg_graph *g, const char *spec, double *f)
{
    for (int i = 0; i < g->nlayers; i++)
        f[i] = -1;
    char *copy = strdup(spec), *save = NULL;
    if (!copy)
        return cli_usage_error("out of memory");
    int rc = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok && !rc;
         tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) {
            rc = cli_usage_error("--weights: '%s' is not NAME=FACTOR", tok);
            break;
        }
        *eq = '\0';
        int layer = -1;
        for (int i = 0; i < g->nlayers; i++)
            if (!strcmp(g->layers[i].name, tok))
                layer = i;
        if (layer < 0)
            rc = cli_usage_error("--weights: the graph has no layer '%s'", tok);
        else if (f[layer] >= 0)
            rc = cli_usage_error("--weights: '%s' is given twice", tok);
        else if (cli_double("--weights", eq + 1, 0, 1e300, &f[layer]))
            rc = CLI_EXIT_USAGE;
    }
    for (int i = 0; i < g->nlayers && !rc; i++)
        if (f[i] < 0)
            rc = cli_usage_error("--weights: no factor for layer '%s'",
                                 g->layers[i].name);
    free(copy);
    return rc;
}

static int cmd_combine(int argc, char **argv)
{
    args a;
    int rc = parse(argc, argv, combine_help, "oWTF", 1, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (!a.output)
        return cli_usage_error("no output file: give -o FILE");
    tg_graph *g, *c = NULL;
    if ((rc = read_graph(a.pos[0], &a.read, &g)))
        return rc;
    double *f = NULL;
    tg_error err;
    if (g->nlayers == 0) {
        tg_error_set(&err, TG_EINVAL, a.pos[0], 0,
                     "no type layers to combine (only .tg.json files made "
                     "from several types have them)");
        rc = cli_fail(&err);
    } else if (a.weights) {
        f = malloc((size_t)g->nlayers * sizeof *f);
        rc = f ? layer_factors(g, a.weights, f) : cli_usage_error("out of memory");
    }
    if (!rc && tg_combine_layers(g, f, &c, &err))
        rc = cli_fail(&err);
    if (!rc)
        rc = cli_write_graph(a.output, a.to, c);
    free(f);
    tg_graph_free(c);
    tg_graph_free(g);
    return rc;
}

int main(int argc, char **argv)
{
    static const cli_command commands[] = {
        {"gen", cmd_gen},         {"convert", cmd_convert},
        {"info", cmd_info},       {"combine", cmd_combine},
        {"matrix", cmd_matrix},   {"merge", cmd_merge},
        {"build", cmd_build}};
    return cli_main("taskgraph", main_help, commands,
                    sizeof commands / sizeof commands[0], argc, argv);
}
