/* cmd_profile.c: the taskgraph commands over libcommprof profiles:
 * matrix, merge, and info for a profile. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char matrix_help[] =
    "usage: taskgraph matrix PROFILE --type T [--received]\n"
    "\n"
    "Print the communication matrix of one type of a profile: a line\n"
    "'src dst bytes messages' (world ranks) per pair that communicated,\n"
    "sorted by src, then dst.\n"
    "  --type T      p2p, rma or a collective (alltoall, bcast, ...): a\n"
    "                type the profile lists\n"
    "  --received    p2p: from the receivers' rows (what each rank\n"
    "                received) instead of the senders'\n"
    "p2p: point-to-point bytes and messages; rma: one-sided bytes and\n"
    "operations, origin to target; a collective: the bytes each member's\n"
    "calls sent to each peer where the profile records them, else the\n"
    "member's own bytes on the diagonal (src = dst), with its calls as\n"
    "messages, added over communicators.  See man taskgraph.\n";

static const char merge_help[] =
    "usage: taskgraph merge PARTIAL... -o OUT [--allow-missing]\n"
    "\n"
    "Merge the per-rank partial profiles of a run that did not reach\n"
    "MPI_Finalize (COMMPROF_OUT.rankR) into one profile OUT.  They must\n"
    "come from one job (their job ids; a file without one is named and\n"
    "taken), agree on format, version, world size and types, and hold\n"
    "each rank once.  Ranks without a partial file are named on stderr; then the\n"
    "merge fails, unless\n"
    "  --allow-missing   write OUT with the ranks present\n"
    "  -o, --output OUT  the merged profile\n";

enum { OPT_TYPE = 256, OPT_RECEIVED, OPT_ALLOW };

/* Parse options of a profile command: returns -1 after --help, the exit
 * code of a usage error, or 0; positional arguments are argv[optind..]. */
static int parse(int argc, char **argv, const char *help,
                 const struct option *opts, const char **type, int *flag,
                 const char **output)
{
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
        switch (c) {
        case 'h': fputs(help, stdout); return -1;
        case OPT_TYPE: *type = optarg; break;
        case OPT_RECEIVED:
        case OPT_ALLOW: *flag = 1; break;
        case 'o':
            if (output) {
                *output = optarg;
                break;
            }
            return cli_usage_error("unknown option '-o'");
        default: /* ':' or '?' */
            return cli_getopt_error(argv, c);
        }
    }
    return 0;
}

static int read_profile(const char *path, tg_profile **p)
{
    tg_error err;
    cli_step("reading %s", path);
    int rc = tg_profile_read(path, p, &err);
    cli_done();
    return rc ? cli_fail(&err) : 0;
}

/* The profile's types, "p2p, barrier, ...", on stderr. */
static void list_types(const tg_profile *p)
{
    for (int t = 0; t < p->ntypes; t++)
        fprintf(stderr, "%s%s", t ? ", " : "", p->types[t]);
}

int cmd_matrix(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"type", required_argument, NULL, OPT_TYPE},
        {"received", no_argument, NULL, OPT_RECEIVED},
        {NULL, 0, NULL, 0}};
    const char *type = NULL;
    int received = 0;
    int rc = parse(argc, argv, matrix_help, opts, &type, &received, NULL);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (optind + 1 != argc)
        return cli_usage_error(optind == argc ? "no profile given"
                                              : "give one profile");
    if (!type)
        return cli_usage_error("which type? give --type, e.g. --type p2p");
    tg_profile *p;
    if ((rc = read_profile(argv[optind], &p)))
        return rc;
    int t = tg_profile_type(p, type);
    tg_prof_entry *e = NULL;
    size_t n = 0;
    tg_error err;
    if (t < 0) {
        fprintf(stderr, "%s: %s lists no type '%s' (it has: ", cli_name,
                argv[optind], type);
        list_types(p);
        fprintf(stderr, ")\n");
        rc = CLI_EXIT_USAGE;
    } else if (received && strcmp(type, "p2p") != 0)
        rc = cli_usage_error("--received is for --type p2p only");
    else if (tg_profile_matrix(p, t, received, &e, &n, &err))
        rc = cli_fail(&err);
    for (size_t i = 0; i < n; i++)
        printf("%d %d %" PRIu64 " %" PRIu64 "\n", e[i].src, e[i].dst,
               e[i].bytes, e[i].count);
    free(e);
    tg_profile_free(p);
    if (!rc && (fflush(stdout) != 0 || ferror(stdout))) {
        fprintf(stderr, "%s: cannot write the matrix\n", cli_name);
        rc = CLI_EXIT_FAIL;
    }
    return rc;
}

/* Ranks with present == want, as "0, 3-5, 9", on fp. */
static void print_ranks(FILE *fp, const tg_profile *p, int want)
{
    int first = 1;
    for (int r = 0; r < p->world_size; r++) {
        if (!p->ranks[r].present != !want)
            continue;
        int end = r;
        while (end + 1 < p->world_size && !p->ranks[end + 1].present == !want)
            end++;
        fprintf(fp, "%s%d", first ? "" : ", ", r);
        if (end > r)
            fprintf(fp, "-%d", end);
        first = 0;
        r = end;
    }
}

int cmd_merge(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"output", required_argument, NULL, 'o'},
        {"allow-missing", no_argument, NULL, OPT_ALLOW},
        {NULL, 0, NULL, 0}};
    const char *output = NULL, *unused = NULL;
    int allow = 0;
    int rc = parse(argc, argv, merge_help, opts, &unused, &allow, &output);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (optind == argc)
        return cli_usage_error("no partial profiles given");
    if (!output)
        return cli_usage_error("no output file: give -o FILE");
    tg_profile_merge *m = tg_profile_merge_new();
    if (!m)
        return cli_usage_error("out of memory");
    tg_error err;
    tg_profile *p = NULL;
    int unknown = 0, known = 0;
    for (int i = optind; i < argc && !rc; i++) {
        tg_profile *part;
        if ((rc = read_profile(argv[i], &part)))
            break;
        if (part->job_id[0])
            known++;
        else if (part->partial) {
            fprintf(stderr, "%s: %s has no job id (written by a libcommprof "
                            "older than the job id): whether it comes from "
                            "the same run as the others is unknown\n",
                    cli_name, argv[i]);
            unknown++;
        }
        if (tg_profile_merge_add(m, part, argv[i], &err))
            rc = cli_fail(&err);
    }
    if (!rc && unknown)
        fprintf(stderr, "%s: %d of %d partial files have no job id; %s\n",
                cli_name, unknown, unknown + known,
                known ? "the others are all from one job"
                      : "none could be checked");
    if (!rc && tg_profile_merge_finish(m, &p, &err))
        rc = cli_fail(&err);
    tg_profile_merge_free(m);
    if (!rc && p->nranks < p->world_size) {
        fprintf(stderr, "%s: no partial file for rank%s ", cli_name,
                p->world_size - p->nranks > 1 ? "s" : "");
        print_ranks(stderr, p, 0);
        fprintf(stderr, " (of %d); %s\n", p->world_size,
                allow ? "merged without them"
                      : "--allow-missing merges without them");
        rc = allow ? 0 : CLI_EXIT_FAIL;
    }
    if (!rc) {
        cli_step("writing %s", output);
        if (tg_profile_write(output, p, &err))
            rc = cli_fail(&err);
        cli_done();
    }
    if (!rc)
        printf("wrote %s: %d of %d ranks, %d communicators\n", output,
               p->nranks, p->world_size, p->ncomms);
    tg_profile_free(p);
    return rc;
}

/* --------------------------------------------------------------- info */

/* A host and how many ranks it has, in order of its lowest rank. */
typedef struct host_count {
    const char *name;
    int first, ranks;
} host_count;

static int cmp_host_name(const void *a, const void *b)
{
    const host_count *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->first > y->first) - (x->first < y->first);
}

static int cmp_host_first(const void *a, const void *b)
{
    const host_count *x = a, *y = b;
    return (x->first > y->first) - (x->first < y->first);
}

/* "2: n0 (4 ranks), n1 (4 ranks)", the first 8 hosts named. */
static int print_hosts(const tg_profile *p)
{
    host_count *h = malloc(((size_t)p->nranks + 1) * sizeof *h);
    if (!h)
        return -1;
    int n = 0;
    for (int r = 0; r < p->world_size; r++)
        if (p->ranks[r].present)
            h[n++] = (host_count){p->ranks[r].host, r, 1};
    qsort(h, (size_t)n, sizeof *h, cmp_host_name);
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (k && !strcmp(h[k - 1].name, h[i].name))
            h[k - 1].ranks++;
        else
            h[k++] = h[i];
    }
    qsort(h, (size_t)k, sizeof *h, cmp_host_first);
    printf("%-13s%d", "hosts", k);
    for (int i = 0; i < k && i < 8; i++)
        printf("%s%s (%d rank%s)", i ? ", " : ": ", h[i].name, h[i].ranks,
               h[i].ranks == 1 ? "" : "s");
    printf("%s\n", k > 8 ? ", ..." : "");
    free(h);
    return 0;
}

/* A type and its time, to list types longest first. */
typedef struct by_time {
    uint64_t ns;
    int type;
} by_time;

static int cmp_by_time(const void *a, const void *b)
{
    const by_time *x = a, *y = b;
    if (x->ns != y->ns)
        return x->ns < y->ns ? 1 : -1;
    return (x->type > y->type) - (x->type < y->type);
}

static void print_types(const tg_profile *p, const tg_prof_type_stats *s,
                        by_time *order)
{
    int n = 0;
    for (int t = 0; t < p->ntypes; t++)
        if (s[t].ns || s[t].calls || s[t].bytes)
            order[n++] = (by_time){s[t].ns, t};
    qsort(order, (size_t)n, sizeof *order, cmp_by_time);
    printf("\n%-20s %8s %12s %12s %16s  %s\n", "type", "share", "time (s)",
           "calls", "bytes", "communicator sizes");
    for (int i = 0; i < n; i++) {
        const tg_prof_type_stats *st = &s[order[i].type];
        printf("%-20s %7.2f%% %12.6f %12" PRIu64 " %16" PRIu64 "  ",
               p->types[order[i].type], 100 * st->share,
               1e-9 * (double)st->ns, st->calls, st->bytes);
        if (!st->nsizes)
            printf("-");
        for (int k = 0; k < st->nsizes; k++)
            printf("%s%d", k ? ", " : "", st->sizes[k]);
        printf("\n");
    }
}

/* Index of `phase` in p->phases (ascending, as the reader checks), or
 * -1. */
static int phase_index(const tg_profile *p, int phase)
{
    int lo = 0, hi = p->nphases;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (p->phases[mid] < phase)
            lo = mid + 1;
        else if (p->phases[mid] > phase)
            hi = mid;
        else
            return mid;
    }
    return -1;
}

/* A phase's totals over every type and rank. */
typedef struct phase_sum {
    uint64_t ns, calls, bytes;
} phase_sum;

/* a += b; 1 when it overflows. */
static int add(uint64_t *a, uint64_t b)
{
    return __builtin_add_overflow(*a, b, a);
}

static int add_rows(uint64_t *sum, const tg_prof_row *row, int n)
{
    int over = 0;
    for (int i = 0; i < n; i++)
        over |= add(sum, row[i].bytes);
    return over;
}

/* Per phase: its time, calls and bytes over every type and rank, what
 * tg_profile_phase and tg_profile_stats would give for each phase, but
 * in one pass over the ranks and records for all the phases: a pass per
 * phase costs phases x world_size. */
static int print_phases(const tg_profile *p)
{
    if (!p->nphases)
        return 0;
    phase_sum *sum = calloc((size_t)p->nphases, sizeof *sum);
    if (!sum)
        return cli_usage_error("out of memory");
    int p2p = tg_profile_type(p, "p2p"), rma = tg_profile_type(p, "rma");
    int over = 0;
    for (int r = 0; r < p->world_size; r++) {
        const tg_prof_rank *rk = &p->ranks[r];
        for (int i = 0; rk->present && i < rk->nphases; i++) {
            const tg_prof_phase *ph = &rk->phases[i];
            int k = phase_index(p, ph->phase);
            if (k < 0)
                continue;
            for (int t = 0; t < p->ntypes; t++) {
                over |= add(&sum[k].ns, ph->ns[t]);
                over |= add(&sum[k].calls, ph->calls[t]);
            }
            if (p2p >= 0)
                over |= add_rows(&sum[k].bytes, ph->sent, ph->nsent);
            if (rma >= 0)
                over |= add_rows(&sum[k].bytes, ph->rma, ph->nrma);
        }
    }
    for (int c = 0; c < p->ncomms; c++) {
        const tg_prof_comm *cm = &p->comms[c];
        for (int i = 0; i < cm->nphase_colls; i++) {
            int k = phase_index(p, cm->phase_colls[i].phase);
            if (k >= 0)
                over |= add(&sum[k].bytes, cm->phase_colls[i].bytes);
        }
    }
    if (over) {
        free(sum);
        tg_error err;
        tg_error_set(&err, TG_EOVERFLOW, "", 0,
                     "a total exceeds 2^64 - 1");
        return cli_fail(&err);
    }
    printf("\n%-20s %12s %12s %16s\n", "phase", "time (s)", "calls",
           "bytes");
    for (int k = 0; k < p->nphases; k++)
        printf("%-20d %12.6f %12" PRIu64 " %16" PRIu64 "\n", p->phases[k],
               1e-9 * (double)sum[k].ns, sum[k].calls, sum[k].bytes);
    free(sum);
    return 0;
}

/* The Cartesian communicators, and the one a build gives its graphs. */
static void print_carts(const tg_profile *p)
{
    for (int i = 0; i < p->ncarts; i++) {
        const tg_prof_cart *c = &p->carts[i];
        printf("%-13s", i ? "" : "cartesian");
        for (int d = 0; d < c->ndims; d++)
            printf("%s%d", d ? "x" : "", c->dims[d]);
        printf(" (periodic:");
        for (int d = 0; d < c->ndims; d++)
            printf(" %s", c->periods[d] ? "yes" : "no");
        printf(") over %d rank%s\n", c->size, c->size == 1 ? "" : "s");
    }
    if (!p->ncarts)
        return;
    const tg_prof_cart *g = tg_profile_grid(p);
    printf("%-13s", "grid");
    if (!g) {
        printf("none (no Cartesian communicator of every rank)\n");
        return;
    }
    for (int d = 0; d < g->ndims; d++)
        printf("%s%d", d ? "x" : "", g->dims[d]);
    printf(" (cartesian %d): taskgraph build gives it to the graphs\n",
           (int)(g - p->carts) + 1);
}

int cmd_info_profile(const char *path)
{
    tg_profile *p;
    int rc = read_profile(path, &p);
    if (rc)
        return rc;
    tg_prof_type_stats *s = NULL;
    tg_error err;
    by_time *order = malloc(((size_t)p->ntypes + 1) * sizeof *order);
    if (!order)
        rc = cli_usage_error("out of memory");
    else if (tg_profile_stats(p, &s, &err))
        rc = cli_fail(&err);
    if (rc) {
        free(order);
        tg_profile_free(p);
        return rc;
    }
    uint64_t wall = 0, mpi = 0;
    for (int r = 0; r < p->world_size; r++) {
        if (p->ranks[r].wall_ns > wall)
            wall = p->ranks[r].wall_ns;
        mpi += p->ranks[r].mpi_ns;
    }
    printf("%-13s%s (profile, format version %d)\n", "file", path,
           TG_PROFILE_VERSION);
    printf("%-13s%s\n", "mpi library", p->mpi_library);
    printf("%-13s%d\n", "world size", p->world_size);
    printf("%-13s%d of %d", "ranks", p->nranks, p->world_size);
    if (p->partial)
        printf(", a partial profile");
    else if (p->nranks < p->world_size) {
        printf(", missing ");
        print_ranks(stdout, p, 0);
    }
    printf("\n");
    if (print_hosts(p))
        rc = cli_usage_error("out of memory");
    printf("%-13s%.6f s (longest rank)\n", "wall time", 1e-9 * (double)wall);
    printf("%-13s%.6f s (all ranks together)\n", "mpi time",
           1e-9 * (double)mpi);
    print_carts(p);
    print_types(p, s, order);
    if (!rc)
        rc = print_phases(p);
    free(order);
    tg_profile_stats_free(s, p->ntypes);
    tg_profile_free(p);
    return rc;
}
