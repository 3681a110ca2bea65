/*
 * graph_io.c: how fast libtaskgraph writes and reads a task graph of about
 * a million edges in each file format, printed beside references measured
 * in the same run on the same files:
 *
 *   json    jansson's json_load_file alone (parse, no graph): the floor for
 *           any reader built on jansson
 *   metis   METIS's graphchk command (start-up + read + check), timed as a
 *           whole process
 *   scotch  Scotch's own SCOTCH_graphLoad / SCOTCH_graphSave
 *   mtx     reading the file's bytes with fread (no reference parser)
 *
 * and, for every file, the time to fread its bytes into memory, so parsing
 * can be told from I/O.  A benchmark never passes or fails on time: the
 * program exits 1 only when a graph read back differs from the one written,
 * when a reference rejects topomap's file, or when something cannot be done
 * at all; 2 on a bad command line.
 * bench/README.md explains the columns.
 */
#include "config.h"

/* mkdtemp, fsync, posix_spawn and clock_gettime also under -std=c11. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef HAVE_SCOTCH_LIB
/* scotch.h uses FILE and the int types without including their headers. */
#include <scotch.h>
#endif

#include "taskgraph.h"

extern char **environ;

/* Weight of every edge; even, so the symmetric .mtx can hold it (see
 * write_mtx). */
#define STENCIL_BYTES 4096
#define REPEAT_MAX 1000

/* The formats, in table order. */
enum { F_JSON, F_METIS, F_SCOTCH, F_MTX, NFMT };

static const struct {
    const char *name;
    const char *file;
    tg_format format;
} fmt[NFMT] = {
    {"json", "graph.tg.json", TG_FORMAT_JSON},
    {"metis", "graph.graph", TG_FORMAT_METIS},
    {"scotch", "graph.grf", TG_FORMAT_SCOTCH},
    {"mtx", "graph.mtx", TG_FORMAT_MTX},
};

/* What is timed for each format; each holds one sample per run. */
enum { C_WRITE, C_READ, C_REF_WRITE, C_REF_READ, C_RAW, NCOL };

typedef struct options {
    int ndims;
    int dims[8];
    int repeat;
    const char *dir; /* NULL: a fresh temporary folder */
} options;

typedef struct bench {
    options opt;
    char *dir;
    int own_dir;            /* dir is ours: remove it and its files */
    char *path[NFMT];
    char *scotch_save;      /* where SCOTCH_graphSave writes */
    char *graphchk_out;     /* graphchk's report */
    char *graphchk;         /* NULL: not found */
    const char *graphchk_why;
    tg_graph *g;
    double size_mb[NFMT];
    double *t;              /* [NFMT][NCOL][repeat] seconds */
    int count[NFMT][NCOL];  /* samples taken */
} bench;

/* --------------------------------------------------------------- helpers */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void progress(const char *fmt_, ...) __attribute__((format(printf, 1, 2)));

static void progress(const char *fmt_, ...)
{
    va_list ap;
    va_start(ap, fmt_);
    fputs("graph_io: ", stderr);
    vfprintf(stderr, fmt_, ap);
    fputs("\n", stderr);
    va_end(ap);
}

static void add_sample(bench *b, int f, int c, double seconds)
{
    b->t[((size_t)f * NCOL + (size_t)c) * (size_t)b->opt.repeat +
         (size_t)b->count[f][c]++] = seconds;
}

static double *samples(bench *b, int f, int c)
{
    return b->t + ((size_t)f * NCOL + (size_t)c) * (size_t)b->opt.repeat;
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, c = *(const double *)pb;
    return (a > c) - (a < c);
}

/* Best (smallest) and median of the samples of (f, c); 0 when there are
 * none.  The samples are sorted in place, which is harmless: they are only
 * used for these two figures. */
static int summarize(bench *b, int f, int c, double *best, double *median)
{
    int n = b->count[f][c];
    if (n == 0)
        return 0;
    double *v = samples(b, f, c);
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    *best = v[0];
    *median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    return 1;
}

static char *join_path(const char *dir, const char *name)
{
    size_t len = strlen(dir) + strlen(name) + 2;
    char *p = malloc(len);
    if (p)
        snprintf(p, len, "%s/%s", dir, name);
    return p;
}

static int report_tg(const char *what, const tg_error *err)
{
    char buf[1200];
    fprintf(stderr, "graph_io: %s: %s\n", what,
            tg_error_format(err, buf, sizeof buf));
    return -1;
}

/* ---------------------------------------------------------- command line */

static const char usage_text[] =
    "usage: graph_io [--dims AxBxC] [--repeat R] [--dir DIR]\n"
    "\n"
    "Write and read one stencil task graph in every format of libtaskgraph\n"
    "(.tg.json, METIS .graph, Scotch .grf; Matrix Market .mtx read only),\n"
    "beside references measured in the same run: jansson alone, METIS's\n"
    "graphchk, Scotch's graphLoad/graphSave, and a raw fread of each file.\n"
    "\n"
    "  --dims AxBxC   periodic face stencil to build (default 70x70x70:\n"
    "                 343000 tasks, 1029000 edges); 1 to 8 dimensions\n"
    "  --repeat R     runs; the best and the median of R are shown\n"
    "                 (default 3)\n"
    "  --dir DIR      put the files in DIR and keep them (default: a fresh\n"
    "                 folder under $TMPDIR or /tmp, removed at the end)\n"
    "  --help         this text\n"
    "\n"
    "GRAPHCHK=PATH names the graphchk program (default: found on PATH).\n"
    "Exit status: 0 done, 1 a graph read back differs or a step failed,\n"
    "2 bad command line.  Times never make it fail.\n";

static int usage_error(const char *fmt_, const char *arg)
{
    fputs("graph_io: ", stderr);
    fprintf(stderr, fmt_, arg);
    fputs("\nTry 'graph_io --help'.\n", stderr);
    return 2;
}

static int parse_dims(const char *s, options *o)
{
    int64_t tasks = 1;
    o->ndims = 0;
    const char *p = s;
    for (;;) {
        char *end;
        errno = 0;
        long v = strtol(p, &end, 10);
        if (end == p || errno || v < 1 || v > INT32_MAX || o->ndims == 8)
            return -1;
        o->dims[o->ndims++] = (int)v;
        tasks *= v;
        if (tasks > TG_TASKS_MAX)
            return -1;
        if (*end == '\0')
            return 0;
        if (*end != 'x' && *end != 'X')
            return -1;
        p = end + 1;
    }
}

static int parse_repeat(const char *s, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < 1 || v > REPEAT_MAX)
        return -1;
    *out = (int)v;
    return 0;
}

/* 0 to go on, else the exit status (0 after --help). */
static int parse_args(int argc, char **argv, options *o, int *done)
{
    static const struct option longopts[] = {
        {"dims", required_argument, NULL, 'd'},
        {"repeat", required_argument, NULL, 'r'},
        {"dir", required_argument, NULL, 'D'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    *o = (options){.ndims = 3, .dims = {70, 70, 70}, .repeat = 3};
    *done = 0;
    opterr = 0; /* our own messages, one style for every error */
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'd':
            if (parse_dims(optarg, o))
                return usage_error("--dims: '%s' is not AxBxC with sizes "
                                   ">= 1 (at most 8 of them, below 2^31 "
                                   "tasks)", optarg);
            break;
        case 'r':
            if (parse_repeat(optarg, &o->repeat))
                return usage_error("--repeat: '%s' is not a number from 1 to "
                                   "1000", optarg);
            break;
        case 'D':
            o->dir = optarg;
            break;
        case 'h':
            fputs(usage_text, stdout);
            *done = 1;
            return 0;
        case ':':
            return usage_error("option '%s' needs a value", argv[optind - 1]);
        default:
            if (optopt) { /* a short option: argv may group several */
                char opt[3] = {'-', (char)optopt, '\0'};
                return usage_error("unknown option '%s'", opt);
            }
            return usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return usage_error("unexpected argument '%s'", argv[optind]);
    return 0;
}

/* ----------------------------------------------------------------- setup */

static int make_dir(bench *b)
{
    if (b->opt.dir) {
        if (mkdir(b->opt.dir, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "graph_io: cannot create %s: %s\n", b->opt.dir,
                    strerror(errno));
            return -1;
        }
        b->dir = strdup(b->opt.dir);
        return b->dir ? 0 : -1;
    }
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    b->dir = join_path(tmp, "graph_io.XXXXXX");
    if (!b->dir)
        return -1;
    if (!mkdtemp(b->dir)) {
        fprintf(stderr, "graph_io: cannot create a folder in %s: %s\n", tmp,
                strerror(errno));
        return -1;
    }
    b->own_dir = 1;
    return 0;
}

static int make_paths(bench *b)
{
    for (int f = 0; f < NFMT; f++)
        if (!(b->path[f] = join_path(b->dir, fmt[f].file)))
            return -1;
    b->scotch_save = join_path(b->dir, "scotch-save.grf");
    b->graphchk_out = join_path(b->dir, "graphchk.out");
    return b->scotch_save && b->graphchk_out ? 0 : -1;
}

/* graphchk from $GRAPHCHK when set (make bench passes configure's find),
 * else from PATH.  Missing is not an error: its cells say n/a. */
static void find_graphchk(bench *b)
{
    const char *env = getenv("GRAPHCHK");
    if (env && *env) {
        if (access(env, X_OK) == 0)
            b->graphchk = strdup(env);
        else
            b->graphchk_why = "GRAPHCHK is not executable";
        return;
    }
    const char *path = getenv("PATH");
    while (path && *path) {
        size_t len = strcspn(path, ":");
        char dir[4096];
        snprintf(dir, sizeof dir, "%.*s", (int)len, len ? path : ".");
        char *exe = join_path(dir, "graphchk");
        if (exe && access(exe, X_OK) == 0) {
            b->graphchk = exe;
            return;
        }
        free(exe);
        path += len + (path[len] == ':');
    }
    b->graphchk_why = "not found";
}

static int make_graph(bench *b)
{
    tg_stencil_options so = {.ndims = b->opt.ndims,
                             .periodic = 1,
                             .diagonals = 0,
                             .bytes = STENCIL_BYTES};
    memcpy(so.dims, b->opt.dims, sizeof so.dims);
    tg_error err;
    if (tg_gen_stencil(&so, &b->g, &err))
        return report_tg("stencil", &err);
    return 0;
}

/* The Matrix Market file is not written by topomap (it reads .mtx only), so
 * the benchmark writes it: the lower triangle (row > column) of a symmetric
 * matrix, 1-based, column by column as Matrix Market files usually are.
 * topomap reads entry (i, j) as the bytes task i sends to task j, and a
 * symmetric entry counts for (j, i) too, so an edge weighs twice its value
 * (papers/001, 3.1: w(a,b) = bytes a->b + bytes b->a): the value written is
 * half the weight, which needs even weights. */
static int write_mtx(const tg_graph *g, const char *path)
{
    for (int64_t e = 0; e < g->xadj[g->n]; e++)
        if (g->adjwgt[e] % 2) {
            fprintf(stderr, "graph_io: weight %" PRIu64 " is odd: a symmetric "
                            ".mtx cannot hold it\n", g->adjwgt[e]);
            return -1;
        }
    FILE *fp = fopen(path, "w");
    if (!fp) {
        fprintf(stderr, "graph_io: cannot create %s: %s\n", path,
                strerror(errno));
        return -1;
    }
    setvbuf(fp, NULL, _IOFBF, 1 << 20);
    fprintf(fp, "%%%%MatrixMarket matrix coordinate integer symmetric\n"
                "%% task graph written by topomap's bench/graph_io\n"
                "%d %d %" PRId64 "\n",
            g->n, g->n, g->nedges);
    for (int a = 0; a < g->n; a++)
        for (int64_t e = g->xadj[a]; e < g->xadj[a + 1]; e++)
            if (g->adjncy[e] > a)
                fprintf(fp, "%d %d %" PRIu64 "\n", g->adjncy[e] + 1, a + 1,
                        g->adjwgt[e] / 2);
    int bad = ferror(fp);
    if (fclose(fp) != 0 || bad) {
        fprintf(stderr, "graph_io: cannot write %s\n", path);
        return -1;
    }
    return 0;
}

static int file_size_mb(const char *path, double *mb)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "graph_io: %s: %s\n", path, strerror(errno));
        return -1;
    }
    *mb = (double)st.st_size / 1e6;
    return 0;
}

/* ------------------------------------------------------------ comparison */

/* Exactly the same CSR arrays; types and layers are not compared (only
 * JSON keeps them). */
static int same_graph(const tg_graph *a, const tg_graph *b, const char *what)
{
    if (a->n != b->n || a->nedges != b->nedges) {
        fprintf(stderr, "graph_io: %s: read back %d tasks and %" PRId64
                        " edges, wrote %d and %" PRId64 "\n",
                what, b->n, b->nedges, a->n, a->nedges);
        return 0;
    }
    for (int t = 0; t <= a->n; t++)
        if (a->xadj[t] != b->xadj[t]) {
            fprintf(stderr, "graph_io: %s: degree of task %d differs\n", what,
                    t ? t - 1 : 0);
            return 0;
        }
    for (int64_t e = 0; e < a->xadj[a->n]; e++)
        if (a->adjncy[e] != b->adjncy[e] || a->adjwgt[e] != b->adjwgt[e]) {
            fprintf(stderr, "graph_io: %s: entry %" PRId64 " differs: read "
                            "neighbour %d weight %" PRIu64 ", wrote %d "
                            "weight %" PRIu64 "\n",
                    what, e, b->adjncy[e], b->adjwgt[e], a->adjncy[e],
                    a->adjwgt[e]);
            return 0;
        }
    return 1;
}

/* ------------------------------------------------------------- topomap */

static int time_write(bench *b, int f)
{
    tg_error err;
    double t0 = now();
    int rc = tg_write(b->path[f], fmt[f].format, b->g, &err);
    double t1 = now();
    if (rc)
        return report_tg("write", &err);
    add_sample(b, f, C_WRITE, t1 - t0);
    return 0;
}

/* Through tg_read, so the time includes the tg_graph_check every read
 * gets; Matrix Market values become the weights (TG_MTX_VALUES). */
static int time_read(bench *b, int f)
{
    tg_read_options ro = {.format = fmt[f].format,
                          .mtx_weights = TG_MTX_VALUES};
    tg_graph *h = NULL;
    tg_error err;
    double t0 = now();
    int rc = tg_read(b->path[f], &ro, &h, &err);
    double t1 = now();
    if (rc)
        return report_tg("read", &err);
    add_sample(b, f, C_READ, t1 - t0);
    char what[64];
    snprintf(what, sizeof what, "%s read back", fmt[f].name);
    int same = same_graph(b->g, h, what);
    tg_graph_free(h);
    return same ? 0 : -1;
}

/* ---------------------------------------------------------- references */

/* The file's bytes into a buffer, open and allocation included. */
static int time_raw(bench *b, int f, int c)
{
    double t0 = now();
    FILE *fp = fopen(b->path[f], "rb");
    if (!fp) {
        fprintf(stderr, "graph_io: %s: %s\n", b->path[f], strerror(errno));
        return -1;
    }
    struct stat st;
    char *buf = NULL;
    size_t got = 0;
    int ok = fstat(fileno(fp), &st) == 0 &&
             (buf = malloc((size_t)st.st_size + 1)) != NULL &&
             (got = fread(buf, 1, (size_t)st.st_size, fp)) ==
                 (size_t)st.st_size;
    fclose(fp);
    free(buf);
    double t1 = now();
    if (!ok) {
        fprintf(stderr, "graph_io: cannot read %s\n", b->path[f]);
        return -1;
    }
    add_sample(b, f, c, t1 - t0);
    return 0;
}

/* jansson's parse alone, with the flag topomap's reader uses; freeing the
 * tree is timed too, since a reader must do it. */
static int time_jansson(bench *b)
{
    json_error_t jerr;
    double t0 = now();
    json_t *root = json_load_file(b->path[F_JSON], JSON_REJECT_DUPLICATES,
                                  &jerr);
    json_decref(root);
    double t1 = now();
    if (!root) {
        fprintf(stderr, "graph_io: jansson: %s:%d: %s\n", b->path[F_JSON],
                jerr.line, jerr.text);
        return -1;
    }
    add_sample(b, F_JSON, C_REF_READ, t1 - t0);
    return 0;
}

/* graphchk exits 0 whether or not it likes the graph, so its verdict is
 * read from its report. */
static int graphchk_accepted(const char *report)
{
    FILE *fp = fopen(report, "r");
    if (!fp)
        return 0;
    char line[512];
    int ok = 0;
    while (fgets(line, sizeof line, fp))
        if (strstr(line, "The format of the graph is correct"))
            ok = 1;
    fclose(fp);
    return ok;
}

/* The first lines of a file on stderr (graphchk's list of errors can be
 * as long as the graph). */
static void show_head(const char *path, int lines)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return;
    char line[512];
    while (lines > 0 && fgets(line, sizeof line, fp)) {
        fputs(line, stderr);
        lines -= strchr(line, '\n') != NULL;
    }
    fclose(fp);
}

/* graphchk as a whole process: start-up, read and check.  Its report goes
 * to a file (not the terminal) and is read after the clock stops. */
static int time_graphchk(bench *b)
{
    if (!b->graphchk)
        return 0;
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0)
        return -1;
    int rc = posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO,
                                              b->graphchk_out,
                                              O_WRONLY | O_CREAT | O_TRUNC,
                                              0666);
    char *argv[] = {b->graphchk, b->path[F_METIS], NULL};
    pid_t pid = 0;
    double t0 = now();
    if (rc == 0)
        rc = posix_spawn(&pid, b->graphchk, &fa, NULL, argv, environ);
    int status = 0;
    if (rc == 0)
        while (waitpid(pid, &status, 0) < 0)
            if (errno != EINTR) {
                rc = errno;
                break;
            }
    double t1 = now();
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        fprintf(stderr, "graph_io: cannot run %s: %s\n", b->graphchk,
                strerror(rc));
        return -1;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
        !graphchk_accepted(b->graphchk_out)) {
        fprintf(stderr, "graph_io: %s rejects %s (status %d):\n",
                b->graphchk, b->path[F_METIS], status);
        show_head(b->graphchk_out, 20);
        return -1;
    }
    add_sample(b, F_METIS, C_REF_READ, t1 - t0);
    return 0;
}

#ifdef HAVE_SCOTCH_LIB
/* The graph Scotch loaded must be ours: same vertices, arcs in the same
 * order (topomap writes them sorted), same loads. */
static int scotch_same(const SCOTCH_Graph *sg, const tg_graph *g)
{
    SCOTCH_Num base, vertnbr, edgenbr;
    SCOTCH_Num *verttab, *vendtab, *velotab, *vlbltab, *edgetab, *edlotab;
    SCOTCH_graphData(sg, &base, &vertnbr, &verttab, &vendtab, &velotab,
                     &vlbltab, &edgenbr, &edgetab, &edlotab);
    if (vertnbr != g->n || edgenbr != 2 * g->nedges || vlbltab) {
        fprintf(stderr, "graph_io: libscotch read %d vertices, %d arcs%s "
                        "from topomap's .grf; expected %d and %" PRId64 "\n",
                (int)vertnbr, (int)edgenbr, vlbltab ? " and labels" : "",
                g->n, 2 * g->nedges);
        return 0;
    }
    for (int v = 0; v < g->n; v++) {
        SCOTCH_Num s = verttab[v] - base, end = vendtab[v] - base;
        if (end - s != g->xadj[v + 1] - g->xadj[v]) {
            fprintf(stderr, "graph_io: libscotch: degree of %d differs\n", v);
            return 0;
        }
        for (int64_t e = g->xadj[v]; e < g->xadj[v + 1]; e++, s++) {
            uint64_t w = edlotab ? (uint64_t)edlotab[s] : 1;
            if (edgetab[s] - base != g->adjncy[e] || w != g->adjwgt[e]) {
                fprintf(stderr, "graph_io: libscotch: edge %d-%d differs\n",
                        v, g->adjncy[e]);
                return 0;
            }
        }
    }
    return 1;
}

/* Save with fsync before fclose, as tg_write does, so the two write times
 * pay for the same thing. */
static int scotch_save(bench *b, const SCOTCH_Graph *sg)
{
    double t0 = now();
    FILE *fp = fopen(b->scotch_save, "w");
    if (!fp) {
        fprintf(stderr, "graph_io: cannot create %s: %s\n", b->scotch_save,
                strerror(errno));
        return -1;
    }
    int bad = SCOTCH_graphSave(sg, fp) != 0;
    bad |= fflush(fp) != 0 || fsync(fileno(fp)) != 0;
    bad |= fclose(fp) != 0;
    double t1 = now();
    if (bad) {
        fprintf(stderr, "graph_io: SCOTCH_graphSave %s failed\n",
                b->scotch_save);
        return -1;
    }
    add_sample(b, F_SCOTCH, C_REF_WRITE, t1 - t0);
    return 0;
}

/* Load topomap's .grf (base and loads as in the file), check it is the
 * same graph, and save it again. */
static int time_scotch(bench *b)
{
    SCOTCH_Graph sg;
    if (SCOTCH_graphInit(&sg) != 0) {
        fprintf(stderr, "graph_io: SCOTCH_graphInit failed\n");
        return -1;
    }
    double t0 = now();
    FILE *fp = fopen(b->path[F_SCOTCH], "r");
    int rc = fp ? SCOTCH_graphLoad(&sg, fp, -1, 0) : -1;
    if (fp)
        fclose(fp);
    double t1 = now();
    if (rc != 0)
        fprintf(stderr, "graph_io: SCOTCH_graphLoad %s failed\n",
                b->path[F_SCOTCH]);
    else if (!scotch_same(&sg, b->g))
        rc = -1;
    else {
        add_sample(b, F_SCOTCH, C_REF_READ, t1 - t0);
        rc = scotch_save(b, &sg);
    }
    SCOTCH_graphExit(&sg);
    return rc;
}
#endif

/* --------------------------------------------------------------- driver */

static int reference(bench *b, int f)
{
    switch (f) {
    case F_JSON:
        return time_jansson(b);
    case F_METIS:
        return time_graphchk(b);
    case F_SCOTCH:
#ifdef HAVE_SCOTCH_LIB
        return time_scotch(b);
#else
        return 0;
#endif
    default: /* mtx: the raw read is its reference */
        return time_raw(b, f, C_REF_READ);
    }
}

/* One run: every format in turn, so a slow moment of the machine spreads
 * over all of them instead of hitting one format's every sample. */
static int run_once(bench *b, int run)
{
    for (int f = 0; f < NFMT; f++) {
        const char *name = fmt[f].name;
        int r = run + 1, n = b->opt.repeat;
        if (f != F_MTX) {
            progress("run %d/%d: writing %s...", r, n, name);
            if (time_write(b, f))
                return -1;
        }
        progress("run %d/%d: reading %s...", r, n, name);
        if (time_read(b, f))
            return -1;
        progress("run %d/%d: %s references...", r, n, name);
        if (reference(b, f) || time_raw(b, f, C_RAW))
            return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- report */

static const char *ref_name(const bench *b, int f)
{
    switch (f) {
    case F_JSON:
        return "jansson json_load_file only";
    case F_METIS:
        return b->graphchk ? "graphchk (read + check)"
                           : "graphchk n/a (install metis)";
    case F_SCOTCH:
#ifdef HAVE_SCOTCH_LIB
        return "libscotch graphSave/graphLoad";
#else
        return "libscotch n/a (install libscotch-dev)";
#endif
    default:
        return "raw fread of the file";
    }
}

static int ref_width(const bench *b)
{
    int w = (int)strlen("reference");
    for (int f = 0; f < NFMT; f++)
        if ((int)strlen(ref_name(b, f)) > w)
            w = (int)strlen(ref_name(b, f));
    return w;
}

/* One time cell: the best (which = 0) or median (which = 1) of (f, c), or
 * "-" when nothing was measured. */
static void cell(bench *b, int f, int c, int which)
{
    double best, median;
    if (summarize(b, f, c, &best, &median))
        printf(" %9.4f", which ? median : best);
    else
        printf(" %9s", "-");
}

static void table(bench *b, int which)
{
    int rw = ref_width(b);
    printf("\n%s of %d run%s, seconds\n", which ? "median" : "best",
           b->opt.repeat, b->opt.repeat == 1 ? "" : "s");
    printf("%-7s %8s %9s %9s | %-*s %9s %9s | %9s\n", "format", "size MB",
           "write s", "read s", rw, "reference", "write s", "read s",
           "fread s");
    for (int f = 0; f < NFMT; f++) {
        printf("%-7s %8.2f", fmt[f].name, b->size_mb[f]);
        cell(b, f, C_WRITE, which);
        cell(b, f, C_READ, which);
        printf(" | %-*s", rw, ref_name(b, f));
        cell(b, f, C_REF_WRITE, which);
        cell(b, f, C_REF_READ, which);
        printf(" |");
        cell(b, f, C_RAW, which);
        printf("\n");
    }
}

/* Ratio of topomap's best time to the reference's best, per format. */
static void ratios(bench *b)
{
    printf("\ntopomap / reference, best times:\n");
    for (int f = 0; f < NFMT; f++) {
        double r, rm, ref, refm, raw, rawm;
        if (!summarize(b, f, C_READ, &r, &rm) ||
            !summarize(b, f, C_RAW, &raw, &rawm))
            continue;
        printf("  %-7s read %6.2fx fread", fmt[f].name,
               raw > 0 ? r / raw : 0);
        if (f != F_MTX && summarize(b, f, C_REF_READ, &ref, &refm))
            printf(", %6.2fx %s", ref > 0 ? r / ref : 0,
                   f == F_JSON ? "jansson" : f == F_METIS ? "graphchk"
                                                          : "libscotch");
        double w, wm;
        if (summarize(b, f, C_REF_WRITE, &ref, &refm) &&
            summarize(b, f, C_WRITE, &w, &wm))
            printf("; write %6.2fx libscotch", ref > 0 ? w / ref : 0);
        printf("\n");
    }
}

static void report(bench *b)
{
    printf("%s %s bench/graph_io: write and read one task graph per "
           "format\n", PACKAGE_NAME, PACKAGE_VERSION);
    printf("graph: %d tasks, %" PRId64 " edges (stencil ", b->g->n,
           b->g->nedges);
    for (int d = 0; d < b->opt.ndims; d++)
        printf("%s%d", d ? "x" : "", b->opt.dims[d]);
    printf(" periodic, %d bytes per edge), best of %d run%s%s\n",
           STENCIL_BYTES, b->opt.repeat, b->opt.repeat == 1 ? "" : "s",
           b->opt.repeat > 1 ? " (median below)" : "");
    printf("files: %s (%s)\n", b->dir, b->own_dir ? "removed at the end"
                                                  : "kept");
    table(b, 0);
    if (b->opt.repeat > 1)
        table(b, 1);
    ratios(b);
    printf("\nwrite s: tg_write (atomic: temporary file, fsync, rename); "
           "read s: tg_read\n(parse, build, tg_graph_check).  mtx is "
           "written by the benchmark, untimed.\n");
    if (b->graphchk)
        printf("graphchk: %s, timed as a whole process: start-up, read "
               "and check.\n", b->graphchk);
    else
        printf("graphchk: %s (install metis, or set GRAPHCHK).\n",
               b->graphchk_why);
#ifdef HAVE_SCOTCH_LIB
    printf("libscotch: SCOTCH_graphLoad of topomap's .grf (checked equal), "
           "SCOTCH_graphSave\nof that graph with fsync.\n");
#else
    printf("libscotch: n/a, built without the Scotch library (install "
           "libscotch-dev and\nconfigure again).\n");
#endif
    printf("fread s: open, allocate and fread the whole file (page cache "
           "warm).\n");
}

/* ------------------------------------------------------------------ main */

static void cleanup(bench *b)
{
    if (b->own_dir) {
        for (int f = 0; f < NFMT; f++)
            if (b->path[f])
                unlink(b->path[f]);
        if (b->scotch_save)
            unlink(b->scotch_save);
        if (b->graphchk_out)
            unlink(b->graphchk_out);
        if (rmdir(b->dir) != 0)
            fprintf(stderr, "graph_io: cannot remove %s: %s\n", b->dir,
                    strerror(errno));
    }
    for (int f = 0; f < NFMT; f++)
        free(b->path[f]);
    free(b->scotch_save);
    free(b->graphchk_out);
    free(b->graphchk);
    free(b->dir);
    free(b->t);
    tg_graph_free(b->g);
}

static int setup(bench *b)
{
    if (make_dir(b) || make_paths(b)) {
        fprintf(stderr, "graph_io: cannot set up the files' folder\n");
        return -1;
    }
    b->t = malloc(sizeof *b->t * NFMT * NCOL * (size_t)b->opt.repeat);
    if (!b->t) {
        fprintf(stderr, "graph_io: out of memory\n");
        return -1;
    }
    find_graphchk(b);
    progress("building the stencil graph...");
    if (make_graph(b))
        return -1;
    progress("writing %s...", fmt[F_MTX].file);
    return write_mtx(b->g, b->path[F_MTX]);
}

int main(int argc, char **argv)
{
    bench b;
    memset(&b, 0, sizeof b);
    int done;
    int status = parse_args(argc, argv, &b.opt, &done);
    if (status || done)
        return status;
    status = setup(&b) ? 1 : 0;
    for (int run = 0; !status && run < b.opt.repeat; run++)
        status = run_once(&b, run) ? 1 : 0;
    for (int f = 0; !status && f < NFMT; f++)
        if (file_size_mb(b.path[f], &b.size_mb[f]))
            status = 1;
    if (!status)
        report(&b);
    cleanup(&b);
    return status;
}
