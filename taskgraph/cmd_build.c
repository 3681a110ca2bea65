/* cmd_build.c: taskgraph build PROFILE -o DIR: the candidate task graphs
 * of a profile (critical types, Sum, Weighted-sum) and their summary. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char build_help[] =
    "usage: taskgraph build PROFILE -o DIR [--large F] [--coverage F]\n"
    "                       [--min-share F] [--allreduce-model M]\n"
    "                       [--format metis|scotch] [--phase N|all]\n"
    "\n"
    "Build the candidate task graphs of a libcommprof profile\n"
    "(papers/001, 4.1.1): each type's share of the communication time;\n"
    "collectives on large communicators left out; the critical types C*,\n"
    "the heaviest types left until --coverage of the time left is covered;\n"
    "and writes\n"
    "  DIR/TYPE.tg.json   the task graph of each type in C*\n"
    "  DIR/sum.tg.json    their Sum, with the type graphs as layers\n"
    "  DIR/wsum.tg.json   their Weighted-sum: each type's weights times\n"
    "                     its share of the time of C*\n"
    "  DIR/summary.json   the table printed on stdout\n"
    "DIR is written whole or not at all; an existing DIR must be empty or\n"
    "hold a previous build, which is replaced.\n"
    "  -o, --output DIR         the folder to write\n"
    "  --large F                leave out collectives on communicators of\n"
    "                           at least F x all ranks (0.5; above 1: none)\n"
    "  --coverage F             share of the time left that C* covers (0.85);\n"
    "                           C* holds the heaviest type whatever F, so 0\n"
    "                           makes it that type alone\n"
    "  --min-share F            no type under this share of the time left\n"
    "                           is critical (0.05)\n"
    "  --allreduce-model M      Allreduce, Reduce_scatter(_block), Scan and\n"
    "                           Exscan as auto (what Open MPI 4.1 runs for\n"
    "                           the communicator and message size), ring,\n"
    "                           recursive-doubling, rabenseifner or clique\n"
    "  --format metis|scotch    also write each graph as .graph or .grf\n"
    "                           (repeat, or metis,scotch, for both)\n"
    "  --phase N|all            only what was recorded in phase N (the\n"
    "                           application's MPI_Pcontrol(N), N >= 3; 1:\n"
    "                           from MPI_Init to the first); all (the\n"
    "                           default): every phase together\n"
    "When the application created a Cartesian communicator of every rank\n"
    "(MPI_Cart_create), the graphs carry its grid (the first such).\n"
    "See man taskgraph for the model of each collective.\n";

enum {
    OPT_LARGE = 256,
    OPT_COVERAGE,
    OPT_MIN_SHARE,
    OPT_MODEL,
    OPT_FORMAT,
    OPT_PHASE
};

/* Add the formats of "metis,scotch" to f (at most one of each). */
static int parse_formats(const char *s, tg_format *f, int *n)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        tg_format x = tg_format_from_name(tok);
        if (x != TG_FORMAT_METIS && x != TG_FORMAT_SCOTCH)
            return cli_usage_error("--format: metis or scotch, not '%s'", tok);
        int seen = 0;
        for (int i = 0; i < *n; i++)
            seen |= f[i] == x;
        if (!seen)
            f[(*n)++] = x;
    }
    return 0;
}

static void print_table(const tg_build *b)
{
    printf("%-20s %8s %8s %14s %10s  %-11s %-9s %-4s %-9s %s\n", "type",
           "share", "kept", "bytes", "calls", "sizes", "filtered", "C*",
           "factor", "model");
    for (int i = 0; i < b->ntypes; i++) {
        const tg_build_type *t = &b->types[i];
        char kept[16] = "-", factor[16] = "-", sizes[48] = "-",
             models[96] = "";
        if (t->kept_ns)
            snprintf(kept, sizeof kept, "%.2f%%", 100 * t->kept_share);
        if (t->critical)
            snprintf(factor, sizeof factor, "%.6f", t->factor);
        for (int k = 0, len = 0; k < t->nsizes && len < 36; k++)
            len += snprintf(sizes + len, sizeof sizes - (size_t)len, "%s%d",
                            k ? "," : "", t->sizes[k]);
        for (int m = 0, len = 0; m <= TG_MODEL_CLIQUE; m++)
            if (t->models & (1u << m))
                len += snprintf(models + len, sizeof models - (size_t)len,
                                "%s%s", len ? "," : "",
                                tg_coll_model_name(m));
        char line[320];
        int len = snprintf(line, sizeof line,
                           "%-20s %7.2f%% %8s %14" PRIu64 " %10" PRIu64
                           "  %-11s %-9s %-4s %-9s %s", t->name,
                           100 * t->share, kept, t->bytes, t->calls, sizes,
                           tg_build_filter_name(t->filter),
                           t->critical ? "yes" : "no", factor, models);
        while (len > 0 && (len >= (int)sizeof line || line[len - 1] == ' '))
            line[--len] = '\0'; /* no trailing blanks */
        puts(line);
    }
}

static void print_result(const tg_build *b, const char *dir)
{
    const tg_grid *g = &b->sum->grid;
    if (b->options.phase)
        printf("\nphase %d alone\n", b->options.phase);
    if (g->ndims) {
        printf("%sgrid ", b->options.phase ? "" : "\n");
        for (int d = 0; d < g->ndims; d++)
            printf("%s%d", d ? "x" : "", g->dims[d]);
        printf(" (periodic:");
        for (int d = 0; d < g->ndims; d++)
            printf(" %s", g->periods[d] ? "yes" : "no");
        printf("%s) from the profile's Cartesian communicator\n",
               g->task ? "; ranks reordered" : "");
    }
    printf("\ncritical types:");
    for (int i = 0; i < b->ncritical; i++)
        printf("%s %s", i ? "," : "", b->types[b->critical[i]].name);
    printf(" (%.2f%% of the time left after filtering; coverage %g, "
           "min-share %g)\n", 100 * b->covered, b->options.coverage,
           b->options.min_share);
    for (int i = 0; i < b->ncritical; i++) {
        const tg_build_type *t = &b->types[b->critical[i]];
        printf("wrote %s/%s.tg.json: %d tasks, %" PRId64 " edges\n", dir,
               t->name, t->graph->n, t->graph->nedges);
    }
    printf("wrote %s/sum.tg.json: %d tasks, %" PRId64 " edges\n", dir,
           b->sum->n, b->sum->nedges);
    printf("wrote %s/wsum.tg.json: %d tasks, %" PRId64 " edges\n", dir,
           b->wsum->n, b->wsum->nedges);
    if (b->ncritical == 1)
        printf("one critical type: sum.tg.json and wsum.tg.json equal "
               "%s.tg.json\n", b->types[b->critical[0]].name);
    printf("wrote %s/summary.json\n", dir);
}

int cmd_build(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"output", required_argument, NULL, 'o'},
        {"large", required_argument, NULL, OPT_LARGE},
        {"coverage", required_argument, NULL, OPT_COVERAGE},
        {"min-share", required_argument, NULL, OPT_MIN_SHARE},
        {"allreduce-model", required_argument, NULL, OPT_MODEL},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"phase", required_argument, NULL, OPT_PHASE},
        {NULL, 0, NULL, 0}};
    tg_build_options o;
    tg_build_options_init(&o);
    const char *dir = NULL;
    tg_format formats[2];
    int nformats = 0, c, m;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
        switch (c) {
        case 'h': fputs(build_help, stdout); return 0;
        case 'o': dir = optarg; break;
        case OPT_LARGE:
            if (cli_double("--large", optarg, 0, 1e9, &o.large))
                return CLI_EXIT_USAGE;
            break;
        case OPT_COVERAGE:
            if (cli_double("--coverage", optarg, 0, 1, &o.coverage))
                return CLI_EXIT_USAGE;
            break;
        case OPT_MIN_SHARE:
            if (cli_double("--min-share", optarg, 0, 1, &o.min_share))
                return CLI_EXIT_USAGE;
            break;
        case OPT_MODEL:
            if ((m = tg_coll_model_from_name(optarg)) < 0)
                return cli_usage_error("--allreduce-model: auto, ring, "
                                       "recursive-doubling, rabenseifner or "
                                       "clique, not '%s'", optarg);
            o.allreduce_model = (tg_coll_model)m;
            break;
        case OPT_FORMAT:
            if (parse_formats(optarg, formats, &nformats))
                return CLI_EXIT_USAGE;
            break;
        case OPT_PHASE:
            if (strcmp(optarg, "all") == 0)
                o.phase = 0;
            else if (cli_int("--phase", optarg, 1, INT32_MAX, &o.phase))
                return CLI_EXIT_USAGE;
            break;
        default: /* ':' or '?' */
            return cli_getopt_error(argv, c);
        }
    }
    if (optind == argc)
        return cli_usage_error("no profile given");
    if (argc - optind > 1)
        return cli_usage_error("unexpected argument '%s'", argv[optind + 1]);
    if (!dir)
        return cli_usage_error("no output folder: give -o DIR");
    const char *path = argv[optind];
    tg_profile *p = NULL;
    tg_build *b = NULL;
    tg_error err;
    cli_step("reading %s", path);
    int rc = tg_profile_read(path, &p, &err);
    cli_done();
    if (!rc && p->partial) {
        tg_error_set(&err, TG_EINVAL, path, 0, "a partial profile: merge "
                     "the per-rank files first (taskgraph merge)");
        rc = 1;
    }
    if (!rc) {
        cli_step("building");
        rc = tg_build_run(p, &o, &b, &err);
        cli_done();
        if (rc) /* name the profile, whose content is the problem */
            snprintf(err.source, sizeof err.source, "%s", path);
    }
    if (!rc) {
        cli_step("writing %s", dir);
        rc = tg_build_write(b, dir, path, formats, nformats, &err);
        cli_done();
    }
    if (!rc) {
        print_table(b);
        print_result(b, dir);
    }
    tg_build_free(b);
    tg_profile_free(p);
    return rc ? cli_fail(&err) : 0;
}
