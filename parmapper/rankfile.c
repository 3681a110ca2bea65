/* rankfile.c: parmapper --check-rankfile, an Open MPI rankfile checked
 * against the hosts of the job before an application is launched with it.
 *
 * mpirun(1) of Open MPI 4.1 reads "rank N=HOST slot=LIST", LIST a comma
 * separated list of logical cores ("2", "0-3") or of SOCKET:CORES pairs
 * ("1:0-2", the cores counted inside the socket), HOST a name or "+nK",
 * the K-th host of the allocation.  A host outside the allocation makes
 * mpirun try to start a daemon there, and a core the host does not have
 * makes it exit 1 without a word; here each is an error naming the line.
 * The hosts are those pm_discover found: run with one rank per node
 * (--map-by ppr:1:node), every host of the allocation is one.  Host names
 * match as MPI_Get_processor_name gives them, or by their first label
 * ("node1" for "node1.cluster"). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gm_internal.h"
#include "parmapper.h"

/* The most ranks a rankfile may name (a sanity bound on the numbers,
 * the limit of --nodes x --slots; nothing is indexed by rank: a line
 * "rank 16777215=node0 slot=0" cost 145 MB when a table of lines by rank
 * found the ranks given twice). */
#define MAX_RANK (1 << 24)

/* A non-negative integer at *p, advanced past it; -1 when none. */
static long number(const char **p)
{
    if (!isdigit((unsigned char)**p))
        return -1;
    errno = 0;
    char *end;
    long v = strtol(*p, &end, 10);
    if (errno || v > MAX_RANK * 64L)
        return -1;
    *p = end;
    return v;
}

/* "A" or "A-B" at *p (up to `stop`); -1 when malformed, else 0 with the
 * bounds.  "*" is every index (hi = -1). */
static int range(const char **p, long *lo, long *hi)
{
    if (**p == '*') {
        (*p)++;
        *lo = 0;
        *hi = -1;
        return 0;
    }
    if ((*lo = number(p)) < 0)
        return -1;
    *hi = *lo;
    if (**p == '-') {
        (*p)++;
        if ((*hi = number(p)) < *lo)
            return -1;
    }
    return 0;
}

/* The first label of a host name, its length. */
static size_t label(const char *name)
{
    return strcspn(name, ".");
}

/* The host a rankfile names, or NULL. */
static const pm_host *host_of(const pm_hosts *hosts, const char *name)
{
    if (name[0] == '+' && name[1] == 'n') {
        const char *p = name + 2;
        long k = number(&p);
        return k >= 0 && !*p && k < hosts->n ? &hosts->h[k] : NULL;
    }
    const pm_host *h = pm_hosts_find(hosts, name);
    for (int i = 0; !h && i < hosts->n; i++) {
        size_t a = label(name), b = label(hosts->h[i].name);
        if (a == b && !strncmp(name, hosts->h[i].name, a))
            h = &hosts->h[i];
    }
    return h;
}

/* The hosts' names for a message: "node0 node1 ..." (the first 8). */
static void host_list(const pm_hosts *hosts, char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; i < hosts->n && at < size; i++) {
        if (i == 8) {
            snprintf(buf + at, size - at, " ... (%d hosts)", hosts->n);
            return;
        }
        at += (size_t)snprintf(buf + at, size - at, "%s%s", i ? " " : "",
                               hosts->h[i].name);
    }
}

/* Check LIST of slot= on host h; 0 or TG_EINVAL with err. */
static int check_slots(const char *path, long line, const pm_host *h,
                       const char *list, tg_error *err)
{
    const char *p = list;
    int per_package = h->cores / h->packages;
    for (;;) {
        long lo, hi, slo = -1, shi = -1;
        const char *item = p;
        if (range(&p, &lo, &hi))
            goto bad;
        if (*p == ':') {
            /* SOCKET:CORES, cores counted inside the socket */
            slo = lo;
            shi = hi;
            p++;
            if (range(&p, &lo, &hi))
                goto bad;
            long top = shi < 0 ? slo : shi;
            if (top >= h->packages)
                return tg_error_set(
                    err, TG_EINVAL, path, line,
                    "slot=%s: host %s has %d socket(s) (hwloc), so socket "
                    "%ld does not exist there",
                    list, h->name, h->packages, top);
            if ((hi < 0 ? lo : hi) >= per_package)
                return tg_error_set(
                    err, TG_EINVAL, path, line,
                    "slot=%s: host %s has %d cores per socket (hwloc), so "
                    "core %ld of a socket does not exist there",
                    list, h->name, per_package, hi < 0 ? lo : hi);
        } else if ((hi < 0 ? lo : hi) >= h->cores) {
            return tg_error_set(err, TG_EINVAL, path, line,
                                "slot=%s: host %s has %d cores (hwloc, "
                                "logical 0-%d), so core %ld does not exist "
                                "there",
                                list, h->name, h->cores, h->cores - 1,
                                hi < 0 ? lo : hi);
        }
        if (!*p)
            return 0;
        if (*p != ',')
            goto bad;
        p++;
        continue;
    bad:
        return tg_error_set(err, TG_EPARSE, path, line,
                            "slot=%s: cannot read '%.*s' (cores: 2, 0-3 or "
                            "SOCKET:CORES such as 1:0-2)",
                            list, (int)strcspn(item, ","), item);
    }
}

/* One line of the rankfile, its comment cut off (not blank).  Returns 0
 * with the rank and its host, or a TG_E* code with err. */
static int check_line(const char *path, long line, char *text,
                      const pm_hosts *hosts, long *rank,
                      const pm_host **hp, tg_error *err)
{
    char *p = text + strspn(text, " \t");
    char *end = p + strlen(p);
    while (end > p && isspace((unsigned char)end[-1]))
        *--end = 0;
    /* rank N=HOST slot=LIST, with spaces around '=' allowed */
    const char *q = p;
    if (strncmp(q, "rank", 4) || !isspace((unsigned char)q[4]))
        goto bad;
    q += 4 + strspn(q + 4, " \t");
    long r = number(&q);
    if (r < 0 || r >= MAX_RANK)
        goto bad;
    q += strspn(q, " \t");
    if (*q++ != '=')
        goto bad;
    q += strspn(q, " \t");
    size_t hl = strcspn(q, " \t");
    if (!hl || hl >= MPI_MAX_PROCESSOR_NAME)
        goto bad;
    char host[MPI_MAX_PROCESSOR_NAME];
    memcpy(host, q, hl);
    host[hl] = 0;
    q += hl + strspn(q + hl, " \t");
    if (strncmp(q, "slot", 4))
        goto bad;
    q += 4 + strspn(q + 4, " \t");
    if (*q++ != '=')
        goto bad;
    q += strspn(q, " \t");
    if (!*q || q[strcspn(q, " \t")])
        goto bad;
    const pm_host *h = host_of(hosts, host);
    if (!h) {
        char names[512];
        host_list(hosts, names, sizeof names);
        return tg_error_set(err, TG_EINVAL, path, line,
                            "rank %ld: host %s is not a host of this job "
                            "(its hosts: %s)",
                            r, host, names);
    }
    int rc = check_slots(path, line, h, q, err);
    if (rc)
        return rc;
    *rank = r;
    *hp = h;
    return 0;
bad:
    return tg_error_set(err, TG_EPARSE, path, line,
                        "expected 'rank N=HOST slot=CORES', not '%.200s'", p);
}

/* A rank and the line that names it. */
typedef struct rank_line {
    long rank, line;
} rank_line;

static int by_rank_line(const void *pa, const void *pb)
{
    const rank_line *a = pa, *b = pb;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    return a->line < b->line ? -1 : a->line > b->line;
}

/* The first line (in file order) that names a rank given on an earlier
 * line: 0 when none, else the line, with the rank and that earlier line
 * (the first to name it).  Sorts r (by rank, then line). */
static long given_twice(rank_line *r, long n, long *rank, long *first)
{
    qsort(r, (size_t)n, sizeof *r, by_rank_line);
    long at = 0;
    for (long i = 1; i < n; i++) {
        /* r[i] the second line of its rank */
        int second = r[i].rank == r[i - 1].rank &&
                     (i < 2 || r[i - 2].rank != r[i].rank);
        if (second && (!at || r[i].line < at)) {
            at = r[i].line;
            *rank = r[i].rank;
            *first = r[i - 1].line;
        }
    }
    return at;
}

int pm_rankfile_check(const char *path, const pm_hosts *hosts)
{
    tg_error err;
    tg_text t;
    int rc = tg_text_load(&t, path, &err);
    if (rc)
        return cli_fail(&err);
    char *text;
    /* The ranks as the lines give them, sorted at the end to find one
     * given twice: memory by lines, not by the largest rank. */
    rank_line *seen = NULL;
    long nseen = 0, cap = 0, ranks = 0;
    /* used[i]: the hosts the file names */
    char *used = calloc((size_t)hosts->n + 1, 1);
    if (!used)
        rc = tg_error_set(&err, TG_ENOMEM, NULL, 0, "out of memory");
    /* The lines as greedymap reads a rankfile: a '#' starts a comment
     * anywhere, after the fields too ("rank 0=n0 slot=0 # why"), as
     * mpirun --rankfile takes it; blank lines are skipped. */
    while (!rc && (text = gm_text_line(&t))) {
        long line = t.line, r = -1;
        const pm_host *h = NULL;
        if ((rc = check_line(path, line, text, hosts, &r, &h, &err)))
            continue;
        if (nseen == cap) {
            long n = cap ? 2 * cap : 64;
            rank_line *s = realloc(seen, (size_t)n * sizeof *s);
            if (!s) {
                rc = tg_error_set(&err, TG_ENOMEM, NULL, 0, "out of memory");
                break;
            }
            seen = s;
            cap = n;
        }
        seen[nseen++] = (rank_line){r, line};
        ranks++;
        used[h - hosts->h] = 1;
    }
    /* A rank given twice is said at its second line, before any error of
     * a later line (reading stopped at that one): as when each line was
     * checked against the ones before it. */
    long again, again_rank = 0, again_first = 0;
    if (rc != TG_ENOMEM && nseen &&
        (again = given_twice(seen, nseen, &again_rank, &again_first)))
        rc = tg_error_set(&err, TG_EINVAL, path, again,
                          "rank %ld again (already on line %ld)", again_rank,
                          again_first);
    if (!rc && !ranks)
        rc = tg_error_set(&err, TG_EPARSE, path, 0,
                          "no 'rank N=HOST slot=CORES' line");
    tg_text_free(&t);
    free(seen);
    if (rc) {
        free(used);
        return cli_fail(&err);
    }
    int nused = 0;
    for (int i = 0; i < hosts->n; i++)
        nused += used[i];
    free(used);
    printf("%s: %ld ranks on %d of the job's %d hosts, every host and core "
           "there\n",
           path, ranks, nused, hosts->n);
    return 0;
}
