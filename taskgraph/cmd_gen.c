/* cmd_gen.c: taskgraph gen KIND ... -o FILE */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char gen_help[] =
    "usage: taskgraph gen KIND [options] -o FILE [--to FORMAT]\n"
    "\n"
    "Generate a synthetic task graph.  Edge weights are bytes per pair,\n"
    "both directions together: --bytes for stencil and random-geometric,\n"
    "--p2p-bytes and --alltoall-bytes for qbox (default 1000 each).\n"
    "\n"
    "kinds:\n"
    "  stencil --dims AxBx...   N-D grid, one task per point, row-major\n"
    "          [--periodic]     wrap every dimension\n"
    "          [--diagonals]    all 3^d-1 neighbours (27-point in 3-D)\n"
    "          [--bytes B]\n"
    "  qbox --rows R --cols C   Qbox-like process grid: p2p between row\n"
    "          [--periodic]     neighbours (rings when periodic), Alltoall\n"
    "          [--p2p-bytes B]  clique in each column; layers p2p and\n"
    "          [--alltoall-bytes B] alltoall, graph = their Sum\n"
    "  random-geometric --tasks N --radius R [--seed S] [--bytes B]\n"
    "                           N points in the unit square, an edge\n"
    "                           between points closer than R\n"
    "\n"
    "options:\n"
    "  -o, --output FILE   where to write (format from the extension)\n"
    "  --to FORMAT         json, metis or scotch, overriding the extension\n"
    "  --bytes B           edge weight of stencil and random-geometric\n"
    "                      (default 1000)\n"
    "  --seed S            random seed (default 1); printed with the result\n"
    "  -h, --help          this help\n";

enum {
    OPT_DIMS = 256, OPT_PERIODIC, OPT_DIAGONALS, OPT_BYTES, OPT_ROWS,
    OPT_COLS, OPT_P2P, OPT_A2A, OPT_TASKS, OPT_RADIUS, OPT_SEED, OPT_TO
};

/* Parse "16x16x16" into o->dims. */
static int parse_dims(const char *s, tg_stencil_options *o)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    o->ndims = 0;
    for (char *save = NULL, *tok = strtok_r(buf, "xX", &save); tok;
         tok = strtok_r(NULL, "xX", &save)) {
        if (o->ndims == 8)
            return cli_usage_error("--dims: at most 8 dimensions"), -1;
        if (cli_int("--dims", tok, 1, TG_TASKS_MAX, &o->dims[o->ndims++]))
            return -1;
    }
    if (o->ndims == 0 || s[0] == 'x' || s[strlen(s) - 1] == 'x' ||
        strstr(s, "xx"))
        return cli_usage_error("--dims wants sizes like 16x16x16, not '%s'",
                               s), -1;
    return 0;
}

int cmd_gen(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {"dims", required_argument, NULL, OPT_DIMS},
        {"periodic", no_argument, NULL, OPT_PERIODIC},
        {"diagonals", no_argument, NULL, OPT_DIAGONALS},
        {"bytes", required_argument, NULL, OPT_BYTES},
        {"rows", required_argument, NULL, OPT_ROWS},
        {"cols", required_argument, NULL, OPT_COLS},
        {"p2p-bytes", required_argument, NULL, OPT_P2P},
        {"alltoall-bytes", required_argument, NULL, OPT_A2A},
        {"tasks", required_argument, NULL, OPT_TASKS},
        {"radius", required_argument, NULL, OPT_RADIUS},
        {"seed", required_argument, NULL, OPT_SEED},
        {"to", required_argument, NULL, OPT_TO},
        {NULL, 0, NULL, 0}};
    if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        fputs(gen_help, stdout);
        return 0;
    }
    if (argc < 2 || argv[1][0] == '-')
        return cli_usage_error("which kind? stencil, qbox or "
                               "random-geometric");
    const char *kind = argv[1];
    int is_stencil = !strcmp(kind, "stencil"), is_qbox = !strcmp(kind, "qbox");
    int is_rgg = !strcmp(kind, "random-geometric");
    if (!is_stencil && !is_qbox && !is_rgg)
        return cli_usage_error("unknown kind '%s' (stencil, qbox, "
                               "random-geometric)", kind);

    tg_stencil_options st = {.bytes = 1000};
    tg_qbox_options qb = {.p2p_bytes = 1000, .alltoall_bytes = 1000};
    tg_rgg_options rg = {.seed = 1, .bytes = 1000};
    const char *out = NULL;
    tg_format to = TG_FORMAT_UNKNOWN;
    uint64_t bytes = 1000;
    int have_bytes = 0;
    opterr = 0;
    optind = 1;
    int c, li = -1;
    while ((c = getopt_long(argc - 1, argv + 1, ":o:h", longopts, &li)) != -1) {
        int bad = 0;
        /* Options that do not belong to this kind are errors, not
         * silently ignored. */
        int stencil_only = c == OPT_DIMS || c == OPT_DIAGONALS;
        int qbox_only = c == OPT_ROWS || c == OPT_COLS || c == OPT_P2P ||
                        c == OPT_A2A;
        int rgg_only = c == OPT_TASKS || c == OPT_RADIUS || c == OPT_SEED;
        if ((stencil_only && !is_stencil) || (qbox_only && !is_qbox) ||
            (rgg_only && !is_rgg) || (c == OPT_PERIODIC && is_rgg) ||
            (c == OPT_BYTES && is_qbox))
            return cli_usage_error("--%s does not apply to %s",
                                   longopts[li].name, kind);
        switch (c) {
        case 'o': out = optarg; break;
        case 'h': fputs(gen_help, stdout); return 0;
        case OPT_DIMS: bad = parse_dims(optarg, &st); break;
        case OPT_PERIODIC: st.periodic = qb.periodic = 1; break;
        case OPT_DIAGONALS: st.diagonals = 1; break;
        case OPT_BYTES:
            bad = cli_u64("--bytes", optarg, 1, TG_WEIGHT_MAX, &bytes);
            have_bytes = 1;
            break;
        case OPT_ROWS: bad = cli_int("--rows", optarg, 1, TG_TASKS_MAX, &qb.rows); break;
        case OPT_COLS: bad = cli_int("--cols", optarg, 1, TG_TASKS_MAX, &qb.cols); break;
        case OPT_P2P:
            bad = cli_u64("--p2p-bytes", optarg, 1, TG_WEIGHT_MAX, &qb.p2p_bytes);
            break;
        case OPT_A2A:
            bad = cli_u64("--alltoall-bytes", optarg, 1, TG_WEIGHT_MAX,
                          &qb.alltoall_bytes);
            break;
        case OPT_TASKS: bad = cli_int("--tasks", optarg, 1, TG_TASKS_MAX, &rg.n); break;
        case OPT_RADIUS: bad = cli_double("--radius", optarg, 1e-300, sqrt(2.0), &rg.radius); break;
        case OPT_SEED: bad = cli_u64("--seed", optarg, 0, UINT64_MAX, &rg.seed); break;
        case OPT_TO: bad = cli_format("--to", optarg, &to); break;
        case ':':
            return cli_usage_error("option '%s' needs a value", argv[optind]);
        default: /* getopt has moved optind past the bad word */
            return cli_usage_error("unknown option '%s'", argv[optind]);
        }
        if (bad)
            return CLI_EXIT_USAGE;
    }
    if (optind + 1 < argc)
        return cli_usage_error("unexpected argument '%s'", argv[optind + 1]);
    if (!out)
        return cli_usage_error("no output file: give -o FILE");
    if (have_bytes)
        st.bytes = rg.bytes = bytes;

    tg_graph *g = NULL;
    tg_error err;
    int rc;
    cli_step("generating %s", kind);
    if (is_stencil) {
        if (st.ndims == 0)
            return cli_usage_error("stencil needs --dims, e.g. 16x16x16");
        rc = tg_gen_stencil(&st, &g, &err);
    } else if (is_qbox) {
        if (!qb.rows || !qb.cols)
            return cli_usage_error("qbox needs --rows and --cols");
        rc = tg_gen_qbox(&qb, &g, &err);
    } else {
        if (!rg.n || rg.radius <= 0)
            return cli_usage_error("random-geometric needs --tasks and "
                                   "--radius");
        rc = tg_gen_rgg(&rg, &g, &err);
    }
    cli_done();
    if (rc)
        return cli_fail(&err);
    if (is_rgg)
        printf("seed %llu\n", (unsigned long long)rg.seed);
    rc = cli_write_graph(out, to, g);
    tg_graph_free(g);
    return rc;
}
